// The streamed report (stream.ts) is the whole report (core/report.ts) character for character:
// over every vector, read whole and read in windows as small as a few bytes, with and without keys.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { memoryFile } from '../../test/support/memory-file';
import { agdxSequence } from '../../test/support/generate';
import { inspect } from '../core/inspect';
import { parseKeys } from '../core/keys/keys';
import { LogFactsBuilder } from '../core/log/entry';
import { buildReport, exitStatus } from '../core/report';
import { JsonWriter, StreamedArray } from '../core/report-json';
import { concatBytes } from '../core/bytes';

import { logSource } from '../core/records';
import { sha256 } from '@noble/hashes/sha2.js';
import { toHex } from '../core/bytes';
import { run } from './main';
import { readsAsCborSequence } from '../core/inspect';
import { streamReport, type StreamInput } from './stream';
import { jsonTerminalSafe } from './terminal';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir))
    .flatMap((f) => (statSync(join(ROOT, dir, f)).isDirectory() ? files(join(dir, f)) : [join(dir, f)]))
    .filter((f) => !/(ORIGIN\.md|LICENSE|NOTICE)$/.test(f))
    .sort();
}

const VECTORS = files('vectors');

function whole(inputs: { name: string; bytes: Uint8Array }[], keys = parseKeys(new Uint8Array()).keys, requireTrusted = false) {
  const report = buildReport(inspect(inputs, { keys, detail: false }));
  return { text: JSON.stringify(report, null, 2), status: exitStatus(report, { requireTrusted }) };
}

/** What a JsonWriter hands on, as text: `blockSize` small, so values and characters are cut across blocks. */
function written(write: (out: JsonWriter) => void, blockSize?: number): { text: string; blocks: number } {
  const text = new TextDecoder();
  let out = '';
  let blocks = 0;
  const writer = new JsonWriter(
    (b) => {
      blocks++;
      out += text.decode(b, { stream: true });
    },
    { blockSize },
  );
  write(writer);
  writer.end();
  return { text: out + text.decode(), blocks };
}

function streamed(inputs: StreamInput[], keys = parseKeys(new Uint8Array()).keys, requireTrusted = false, window?: number) {
  let status = 0;
  const { text, blocks } = written((out) => {
    status = streamReport(inputs, { keys, requireTrusted, window }, out);
  }, 4096);
  return { text, status, blocks };
}

const read = (f: string) => new Uint8Array(readFileSync(join(ROOT, f)));

describe('streamReport', () => {
  it('writes what the whole report writes, for every vector (one input each, then all together)', () => {
    // The vectors were found (126 files today: AGDX, AgentDNA, hostile), not an empty or cut list.
    expect(VECTORS.length).toBeGreaterThan(100);
    expect(VECTORS).toEqual(
      expect.arrayContaining([
        join('vectors', 'agdx', 'made', 'conversation.cborseq'),
        join('vectors', 'agentdna', 'synthetic', 'synthetic_valid_fanin_dag.serialized.json'),
      ]),
    );
    for (const f of VECTORS) {
      const input = { name: f, bytes: read(f) };
      expect(streamed([input]), f).toMatchObject(whole([input]));
    }
    const all = VECTORS.filter((f) => !f.endsWith('keys.json')).map((f) => ({ name: f, bytes: read(f) }));
    expect(streamed(all)).toMatchObject(whole(all));
  });

  it('writes the same with keys, and the same exit status with --require-trusted', () => {
    const keys = parseKeys(read('vectors/agdx/made/keys.json')).keys;
    const inputs = files('vectors/agdx/made').map((f) => ({ name: f, bytes: read(f) }));
    expect(streamed(inputs, keys, true)).toMatchObject(whole(inputs, keys, true));
    expect(streamed(inputs, keys, false)).toMatchObject(whole(inputs, keys, false));
  });

  it('reads a CBOR sequence in windows with the records read whole: spans, messages, digest, format', () => {
    // Signed records, streams, dead letters, a noncanonical record (a message with an offset), and a malformed tail.
    const seq = agdxSequence(120, { perConversation: 7, seed: 9, signedEvery: 3 });
    const tails: Uint8Array[] = [new Uint8Array(0), Uint8Array.of(0xa3, 0x01), Uint8Array.of(0xff, 0x00, 0x01)];
    const others = ['vectors/agdx/made/conversation.cborseq'].map(read);
    for (const tail of tails) {
      for (const bytes of [concatBytes(seq, tail), concatBytes(...others, seq, tail)]) {
        const expected = whole([{ name: 'seq', bytes }]);
        for (const window of [5, 300, 4096]) {
          const file = memoryFile(bytes);
          expect(streamed([{ name: 'seq', file }], undefined, false, window), `window ${window}`).toMatchObject(expected);
          // Read in windows, not whole (a malformed tail makes it read the rest once).
          if (tail.length === 0) expect(file.largest).toBeLessThan(bytes.length);
        }
      }
    }
  });

  it('writes the deadlines and clocks of a log with many of them as the whole report does', () => {
    const bytes = agdxSequence(3000);
    const expected = whole([{ name: 'seq', bytes }]);
    const timing = expected.text.match(/"rule": "agdx\/(deadline\/missed|deadline\/unanswered|graph\/clock-skew)"/g) ?? [];
    expect(timing.length).toBeGreaterThan(100);
    expect(streamed([{ name: 'seq', bytes }])).toMatchObject(expected);
    expect(streamed([{ name: 'seq', file: memoryFile(bytes) }], undefined, false, 1 << 16)).toMatchObject(expected);
  });

  it('says where a file ended before its size, in the first pass and in the second', () => {
    const bytes = agdxSequence(200);
    const cutFile = (cut: number, fromSecondPass: boolean) => {
      const file = memoryFile(bytes);
      const read = file.read;
      let passed = !fromSecondPass;
      // The file claims its whole size but gives nothing past `cut` (once the first pass has read it all).
      file.read = (buffer, offset, length, position) => {
        if (!passed) {
          const n = read(buffer, offset, length, position);
          if (position + n >= bytes.length) passed = true;
          return n;
        }
        return position >= cut ? 0 : read(buffer, offset, Math.min(length, cut - position), position);
      };
      return file;
    };
    for (const cut of [1000, bytes.length - 10]) {
      expect(() => streamed([{ name: 'seq', file: cutFile(cut, false) }], undefined, false, 4096), `cut at ${cut}`).toThrow(
        `the file ended at byte ${cut}, before its size (${bytes.length})`,
      );
      // The second pass writes this clean input from columns, reading only where the log has findings.
      expect(() => streamed([{ name: 'seq', file: cutFile(cut, true) }], undefined, false, 4096), `cut at ${cut}`).toThrow(
        /the input ended (at byte \d+, before the record at \d+ did|before byte \d+, where its last record ends)/,
      );
    }
  });

  it('takes a file for a CBOR sequence only when the driver would read it as one whatever follows', () => {
    expect(readsAsCborSequence(Uint8Array.of(0xa5, 0x00, 0x61, 0x41))).toBe(true);
    // Could start an Iggy ≤ 0.6 header block (a key length of 0xa5): read whole.
    expect(readsAsCborSequence(Uint8Array.of(0xa5, 0x00, 0x00, 0x00))).toBe(false);
    expect(readsAsCborSequence(Uint8Array.of(0x7b, 0x22, 0x61, 0x22))).toBe(false);
    expect(readsAsCborSequence(Uint8Array.of(0xa5))).toBe(false);
  });
});

describe('the report on a file of 0xa0 bytes (one record each: an empty map, no AGDX item)', () => {
  const a0 = new Uint8Array(4096).fill(0xa0);

  it('is the bytes the previous writer wrote (JSON.stringify of the whole report, made terminal-safe)', async () => {
    const blocks: Uint8Array[] = [];
    const code = await run(['inspect', '--json', 'a0.bin'], {
      readFile: async () => a0,
      readStdin: async () => new Uint8Array(),
      stdout: () => {
        throw new Error('the report goes out as bytes');
      },
      stdoutBytes: (b) => blocks.push(b.slice()),
      stderr: (t) => {
        throw new Error(t);
      },
    });
    expect(code).toBe(1);
    const out = concatBytes(...blocks);
    // What main's CLI (jsonPieces, LineBlocks, JSON.stringify per record) wrote for this file, by its SHA-256.
    expect(toHex(sha256(out))).toBe('6fcec2db96cdd2186a15dd4f96fa12c6dad8e46de0d6a355868fe601ccce87e2');
    const whole = buildReport(inspect([{ name: 'a0.bin', bytes: a0 }], { detail: false }));
    expect(new TextDecoder().decode(out)).toBe(`${jsonTerminalSafe(JSON.stringify(whole, null, 2))}\n`);
  });

  it('is the same read in windows, as a file larger than a window is', () => {
    const expected = whole([{ name: 'a0.bin', bytes: a0 }]);
    expect(streamed([{ name: 'a0.bin', file: memoryFile(a0) }], undefined, false, 1000)).toMatchObject(expected);
  });

  it('keeps nothing per record across the log: no entry for a record without an envelope, only its count', () => {
    const facts = new LogFactsBuilder({ copyBodies: true, shareSignatures: true });
    for (const r of inspect([{ name: 'a0.bin', bytes: a0 }], { detail: false }).records) facts.add(logSource(r));
    const made = facts.facts();
    expect(made.records).toBe(4096);
    expect(made.entries).toHaveLength(0);
  });
});

describe('JsonWriter', () => {
  const json = (v: unknown, blockSize?: number) => written((out) => out.write(v), blockSize).text;

  it('writes the bytes of JSON.stringify with two spaces, arrays streamed or not', () => {
    const values: unknown[] = [
      { a: [], b: {}, c: [1, { d: [2, [3, []]], e: null }], f: undefined, g: 'x\n"y"', h: [undefined, () => 1] },
      [],
      [[[]]],
      'text',
      null,
      [{ a: undefined, b: Symbol('s'), c: new Date(0), d: Object(3), e: -0, f: 1e21, g: Number.NaN, h: -5, i: 0.5, j: 'ünï \u202e 😀' }],
    ];
    for (const v of values) for (const blockSize of [1, 7, undefined]) expect(json(v, blockSize)).toBe(JSON.stringify(v, null, 2));
    const lazy = { head: 1, records: new StreamedArray([{ x: 1 }, { y: [2] }][Symbol.iterator]()), tail: [] };
    expect(json(lazy)).toBe(JSON.stringify({ head: 1, records: [{ x: 1 }, { y: [2] }], tail: [] }, null, 2));
    expect(json({ records: new StreamedArray([]) })).toBe(JSON.stringify({ records: [] }, null, 2));
    expect(() => json({ a: 1n })).toThrow(TypeError);
  });

  it('writes list elements with the members of the one before as JSON.stringify does', () => {
    // Alike elements (the text of the last one reused), values of other lengths, a member more, a nested list longer.
    const alike = (i: number) => ({
      index: i,
      span: [i, i + 1],
      error: { code: 'x', offset: i * 1000 },
      ok: i % 3 === 0,
      list: [],
      name: i % 5 ? 'same' : `name ${i}`,
    });
    const list = Array.from({ length: 40 }, (_, i) => (i === 17 ? { ...alike(i), extra: null } : i === 23 ? { ...alike(i), list: [1, 'ü'] } : alike(i)));
    for (const blockSize of [3, 100, undefined]) {
      expect(json({ records: new StreamedArray(list), again: list }, blockSize)).toBe(JSON.stringify({ records: list, again: list }, null, 2));
    }
  });

  it('writes elements of many member lists in turn as JSON.stringify does', () => {
    // Twelve member lists cycling (more than the writer keeps at a depth), values changing within each.
    const shaped = (i: number) => {
      const shape = (i * 7) % 12;
      const v: Record<string, unknown> = { index: i, kind: ['a', 'b', 'c'][shape % 3] };
      for (let m = 0; m < shape; m++) v[`m${m}`] = m % 2 ? [i, m] : { at: i + m, same: 'x' };
      return v;
    };
    const list = Array.from({ length: 200 }, (_, i) => shaped(i));
    for (const blockSize of [5, undefined])
      expect(json({ records: new StreamedArray(list), again: list }, blockSize)).toBe(JSON.stringify({ records: list, again: list }, null, 2));
  });

  it('asks the escape about every string but plain printable ASCII, member names too', () => {
    const asked: string[] = [];
    const text = new TextDecoder();
    let out = '';
    const writer = new JsonWriter((b) => (out += text.decode(b, { stream: true })), { escape: (s) => (asked.push(s), s) });
    const v = { plain: 'id 01HZ', quoted: 'a "b"', ü: 'tab\there' };
    writer.write(v);
    writer.end();
    expect(out).toBe(JSON.stringify(v, null, 2));
    // Member names are asked about once for a list of names, before its values.
    expect(asked.sort()).toEqual(['"a \\"b\\""', '"tab\\there"', '"ü"']);
  });

  it('keeps the text of an object frozen all the way down, and of nothing else: every writing is what JSON.stringify gives', () => {
    // Shared verdicts, written at several depths, across blocks or not.
    const deep = Object.freeze({ status: 'valid', list: Object.freeze(['a', 'ü \u202e']), nested: Object.freeze({ n: 1, f: false, z: null }) });
    const doc = () => ({ a: deep, b: [deep, { c: deep }], d: new StreamedArray([deep, deep, { e: [deep] }][Symbol.iterator]()) });
    const plain = { a: deep, b: [deep, { c: deep }], d: [deep, deep, { e: [deep] }] };
    for (const blockSize of [1, 9, 64, undefined]) expect(json(doc(), blockSize)).toBe(JSON.stringify(plain, null, 2));

    // Frozen with a member that can change, or with a toJSON: never kept, so a change is written.
    const open = ['x'];
    const shallow = Object.freeze({ open });
    const clock = { t: 1 };
    const withToJson = Object.freeze({ toJSON: () => ({ t: clock.t }) });
    const withGetter = Object.freeze({
      get t() {
        return clock.t;
      },
    });
    const text = new TextDecoder();
    let out = '';
    const writer = new JsonWriter((b) => (out += text.decode(b, { stream: true })));
    writer.write([shallow, withToJson, withGetter]);
    open.push('y');
    clock.t = 2;
    writer.write([shallow, withToJson, withGetter]);
    writer.end();
    expect(out).toBe(JSON.stringify([{ open: ['x'] }, { t: 1 }, { t: 1 }], null, 2) + JSON.stringify([{ open: ['x', 'y'] }, { t: 2 }, { t: 2 }], null, 2));
  });

  it('goes through the escape for strings past ASCII, member names too', () => {
    const escapeRlo = (s: string) => s.replace(/\u202e/g, '\\u202e');
    const v = { 'k\u202e': ['a\u202eb', { x: '\u202e' }, { x: '\u202e' }] };
    const text = new TextDecoder();
    let out = '';
    const writer = new JsonWriter((b) => (out += text.decode(b, { stream: true })), { escape: escapeRlo });
    writer.write(v);
    writer.end();
    expect(out).toBe(escapeRlo(JSON.stringify(v, null, 2)));
  });
});

describe('what the first pass keeps per record', () => {
  it('keeps no record bytes: chunk bodies are copied out of the input', () => {
    const bytes = agdxSequence(60);
    const facts = new LogFactsBuilder({ copyBodies: true });
    const input = { name: 'seq', bytes };
    let chunks = 0;
    for (const r of inspect([input], { detail: false }).records) facts.add(logSource(r));
    for (const e of facts.facts().entries) {
      if (e.body) {
        chunks++;
        expect(e.body.buffer).not.toBe(bytes.buffer);
      }
    }
    expect(chunks).toBeGreaterThan(0);
  });
});
