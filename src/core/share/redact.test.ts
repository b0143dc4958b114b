// Redaction: every body a record carries is blanked in place (AGDX bodies, AgentDNA payloads and
// card policies, body capsules, dead-letter details, control frames, undecoded bytes), the records
// read back the same, and what cannot be blanked is listed.
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toBase64, utf8Encode } from '../bytes';
import { encodeEnvelope } from '../agdx/canonical';
import type { Envelope } from '../agdx/envelope';
import { CborWriter } from '../cbor/encoder';
import { readJson, type JsonValue } from '../json/lossless';
import { inspect } from '../inspect';
import { flat, flatAll, type FlatRecord } from '../import/test-helpers';
import { blankAsRedacted, redactInput, writeBlankJson, writeBlankString } from './redact';
import { readItemAt, type CborItem } from '../cbor/reader';

const root = resolve(__dirname, '../../..');
const read = (p: string) => new Uint8Array(readFileSync(resolve(root, 'vectors', p)));
const text = (b: Uint8Array) => new TextDecoder().decode(b);

function redact(bytes: Uint8Array) {
  const { records: read } = inspect([{ name: 'in', bytes }]);
  const r = redactInput(bytes, read);
  const again = flatAll(inspect([{ name: 'redacted', bytes: r.bytes }]));
  return { records: read.map((x) => flat(x)), r, again };
}

/** Every `payload` in an AgentDNA JSON document, however deep. */
function payloads(v: JsonValue, out: JsonValue[] = []): JsonValue[] {
  if (v.type === 'object') for (const e of v.entries) e.key === 'payload' ? out.push(e.value) : undefined, payloads(e.value, out);
  if (v.type === 'array') for (const x of v.items) payloads(x, out);
  return out;
}
const parse = (b: Uint8Array) => {
  const p = readJson(b);
  if (!p.ok) throw new Error(p.error.message);
  return p.value;
};
const shape = (rs: FlatRecord[]) => rs.map((x) => [x.decoded, x.decoded ? x.format : null, x.kind]);

describe('blank items keep their size', () => {
  it('a CBOR byte or text string of exactly the span, for every size', () => {
    for (const n of [1, 2, 23, 24, 25, 26, 256, 257, 258, 259, 65537, 65538, 65539]) {
      for (const major of [2, 3] as const) {
        const buf = new Uint8Array(n + 2).fill(0xee);
        writeBlankString(buf, [1, n + 1], major, major === 2 ? 0 : 0x2a);
        const item = readItemAt(buf.subarray(0, n + 1), 1);
        expect(item.ok && item.value.end).toBe(n + 1);
        expect(item.ok && item.value.kind).toBe(major === 2 ? 'bytes' : 'text');
        expect([buf[0], buf[n + 1]]).toEqual([0xee, 0xee]);
      }
    }
  });
  it('a JSON value of the same length', () => {
    for (const v of ['"secret"', '{"a":[1,2]}', '12', '7', 'true', '"\\u00e9\\"x"']) {
      const buf = utf8Encode(`[${v}]`);
      writeBlankJson(buf, [1, buf.length - 1]);
      expect(buf.length).toBe(v.length + 2);
      expect(() => JSON.parse(text(buf))).not.toThrow();
      expect(text(buf)).not.toMatch(/secret|a|x/);
    }
  });
});

describe('AgentDNA', () => {
  it("every payload of a workflow's chain is blanked; the JSON stays well-formed, the same length, the same records", () => {
    const bytes = read('agentdna/synthetic/synthetic_valid_fanin_dag.serialized.json');
    const original = payloads(parse(bytes));
    expect(original.length).toBeGreaterThan(3);
    const { records, r, again } = redact(bytes);
    expect(r.unblankable).toEqual([]);
    expect(r.blanked).toEqual([`${original.length} AgentDNA payloads`]);
    expect(r.bytes.length).toBe(bytes.length);
    const blanked = payloads(parse(r.bytes));
    expect(blanked).toHaveLength(original.length);
    for (const p of blanked) expect(p.type === 'string' && /^\**$/.test(p.value)).toBe(true);
    for (const p of original) if (p.type === 'string' && p.value.length > 3) expect(text(r.bytes)).not.toContain(p.value.slice(0, 12));
    expect(shape(again)).toEqual(shape(records));
    // The hashes no longer hold over the blanked payloads, as the view then says.
    expect(again[0].findings.some((f) => f.rule === 'agentdna/hash')).toBe(true);
  });

  it('a bare envelope, a payload that is not a string, and a repeated payload key', () => {
    const env = '{"from":"did:x","payload":[{"type":"text","text":"secret plan"}],"epoch":1,"payload":"second secret","hash":"h","signature":""}';
    const { r, again } = redact(utf8Encode(env));
    expect(text(r.bytes)).not.toMatch(/secret/);
    expect(again[0].format).toBe('agentdna.envelope');
    expect(r.blanked).toEqual(['2 AgentDNA payloads']);
  });

  it('a card history whose states hold JSON strings: the workflow inside is blanked, the history still reads', () => {
    const wf = JSON.parse(text(read('agentdna/synthetic/synthetic_valid_single_root.serialized.json')));
    const history = JSON.stringify([
      { data: JSON.stringify(wf), version: 1 },
      { data: JSON.stringify(wf), version: 2 },
    ]);
    const { records, r, again } = redact(utf8Encode(history));
    expect(r.unblankable).toEqual([]);
    expect(text(r.bytes)).not.toContain('Summarize this document');
    expect(shape(again)).toEqual(shape(records));
    expect(again.every((x) => x.viewOrigin === 'decoded-text')).toBe(true);
  });

  it("a card's policy document (base64) becomes zeros; its metadata, stars", () => {
    const policy = toBase64(utf8Encode('allow: transfer up to 10000 to the secret account'));
    const cards = JSON.stringify([
      { type: 'actor_card', id: 'bafyagent', policy },
      { type: 'user_card', user_did: 'bafyuser', metadata: { email: 'someone@example.org' } },
    ]);
    const { r, again } = redact(utf8Encode(cards));
    expect(text(r.bytes)).not.toContain(policy);
    expect(text(r.bytes)).not.toContain('someone@');
    expect(again[0].body?.text).not.toMatch(/secret/);
    expect(r.blanked).toEqual(['1 AgentDNA card policy', '1 AgentDNA card metadata']);
  });
});

describe('AGDX', () => {
  it('bodies in every shape: definite, chunked, in the JSON view', () => {
    const env: Envelope = { kind: 'event', conversation: new Uint8Array(16).fill(2), source: 'planner', body: utf8Encode('{"card":"4111 1111 1111 1111"}') };
    const definite = encodeEnvelope(env);
    // The same body as two chunks of an indefinite byte string.
    const canonical = encodeEnvelope({ ...env, body: undefined });
    const w = new CborWriter()
      .raw(canonical[0] + 1)
      .append(canonical.subarray(1))
      .text('body')
      .raw(0x5f);
    w.bytes(env.body!.subarray(0, 10)).bytes(env.body!.subarray(10)).raw(0xff);
    const chunked = w.finish();
    const jsonView = utf8Encode(`{"kind":"event","conversation":[${Array(16).fill(2)}],"source":"planner","body":[${[...env.body!].join(', ')}]}`);
    for (const bytes of [definite, chunked, jsonView]) {
      const { records, r, again } = redact(bytes);
      expect(r.unblankable).toEqual([]);
      expect(r.blanked).toEqual(['1 AGDX body']);
      expect(r.bytes.length).toBe(bytes.length);
      expect(text(r.bytes)).not.toContain('4111');
      expect(shape(again)).toEqual(shape(records));
      expect([...again[0].envelope!.body!].every((b) => b === 0)).toBe(true);
    }
  });

  it('capsules that are bodies lose their strings; signature and presence capsules are kept', () => {
    for (const [file, gone] of [
      ['agent_error_body.bin', 'search timed out'],
      ['agent_card.bin', 'trip-planner'],
      ['agent_body_ref.bin', 's3://transcripts'],
      ['agent_submit.bin', 'incident'],
      ['agent_reply_list_page.bin', 'budget exhausted'],
    ] as const) {
      const bytes = read(`agdx/laser-wire-0.0.1/${file}`);
      const { records, r, again } = redact(bytes);
      expect(text(r.bytes), file).not.toContain(gone);
      expect(r.bytes.length).toBe(bytes.length);
      expect(shape(again), file).toEqual(shape(records));
      expect(r.blanked.length, file).toBe(1);
    }
    for (const file of ['agent_signature.bin', 'agent_presence.bin']) {
      const bytes = read(`agdx/laser-wire-0.0.1/${file}`);
      const { r } = redact(bytes);
      expect(r.bytes).toEqual(bytes);
      expect(r.blanked).toEqual([]);
    }
  });

  it("a dead letter: its detail and its payload envelope's body", () => {
    const bytes = read('agdx/laser-wire-0.0.1/agent_dead_letter.bin');
    const { records, r, again } = redact(bytes);
    expect(text(r.bytes)).not.toContain('handler kept failing');
    expect(text(r.bytes)).not.toContain('poison');
    expect(r.blanked).toEqual(['1 dead-letter detail', '1 AGDX body']);
    expect(shape(again)).toEqual(shape(records));
  });

  it('an Iggy export: bodies inside the base64 payloads', () => {
    const bytes = read('agdx/made/conversation_http_v07.json');
    const { records, r, again } = redact(bytes);
    expect(r.unblankable).toEqual([]);
    expect(r.bytes.length).toBe(bytes.length);
    expect(shape(again)).toEqual(shape(records));
    for (const x of again) if (x.envelope?.body) expect([...x.envelope.body].every((b) => b === 0)).toBe(true);
  });
});

describe('AGDX 0.7 bodies with shapes of their own', () => {
  const DIR = 'agdx/laser-sdk-ts-0.7.0';
  const vectors = readdirSync(resolve(root, 'vectors', DIR)).filter((f) => f.endsWith('.bin'));
  /** The text leaves of a CBOR item (not its map keys), with their paths. */
  const leaves = (item: CborItem, path = '', out: [string, string][] = []): [string, string][] => {
    if (item.kind === 'text') out.push([path, item.value]);
    else if (item.kind === 'tag') leaves(item.item, path, out);
    else if (item.kind === 'array')
      item.items.forEach((x, i) => {
        leaves(x, `${path}[${i}]`, out);
      });
    else if (item.kind === 'map') for (const e of item.entries) leaves(e.value, `${path}.${e.key.kind === 'text' ? e.key.value : '?'}`, out);
    return out;
  };

  it('every vector: the same verdicts after redaction; a session, state or context body keeps its shape, and its text is gone', () => {
    let shaped = 0;
    for (const f of vectors) {
      const bytes = read(`${DIR}/${f}`);
      const before = flatAll(inspect([{ name: 'in', bytes }]));
      const r = redactInput(bytes, inspect([{ name: 'in', bytes }]).records);
      const after = flatAll(inspect([{ name: 'in', bytes: r.bytes }]));
      expect(r.bytes.length, f).toBe(bytes.length);
      expect(r.unblankable, f).toEqual([]);
      const verdict = (x: FlatRecord) => [x.decoded, x.valid, x.displayType, x.dialect, x.findings.map((g) => `${g.rule} ${g.severity} ${g.path}`)];
      // An undecoded record is blanked whole (undecoded bytes, below): it is not a record any more.
      if (!before[0].decoded) continue;
      expect(after.map(verdict), f).toEqual(before.map(verdict));
      if (!r.blanked.some((b) => b.startsWith('1 session, state or context body'))) continue;
      shaped++;
      const span = before[0].bodySpan!;
      const item = (b: Uint8Array) => {
        const x = readItemAt(b.subarray(0, span[1]), span[0]);
        if (!x.ok) throw new Error(f);
        return x.value;
      };
      const was = leaves(item(bytes));
      const now = leaves(item(r.bytes));
      expect(
        now.map(([p]) => p),
        f,
      ).toEqual(was.map(([p]) => p));
      now.forEach(([p, v], i) => {
        // A patch's operation names are a closed vocabulary its reader checks: kept; every other text is stars.
        if (/^\.patch\[\d+\]\.op$/.test(p)) expect(v).toBe(was[i][1]);
        else expect(v, `${f} ${p}`).toBe('*'.repeat(new TextEncoder().encode(was[i][1]).length));
      });
      // Redacted once is redacted: the link's claim holds for it.
      expect(blankAsRedacted(r.bytes, inspect([{ name: 'in', bytes: r.bytes }]).records), f).toEqual([true]);
    }
    // Starts, transitions, ends, parkings, state deltas and snapshots, context manifests, compactions, retrievals.
    expect(shaped).toBeGreaterThanOrEqual(20);
  });
});

describe('undecoded bytes', () => {
  it('a truncated record at the end of a sequence is blanked whole; the records before are kept', () => {
    const bytes = read('agdx/made/conversation.cborseq');
    const { records, r, again } = redact(bytes);
    const failed = records.filter((x) => !x.decoded);
    expect(failed.length).toBeGreaterThan(0);
    expect(r.blanked).toContain(failed.length === 1 ? '1 undecoded record (all its bytes)' : `${failed.length} undecoded records (all their bytes)`);
    for (const f of failed) expect(r.bytes.subarray(f.span![0], f.span![1]).some((b, i) => i > 8 && b !== 0)).toBe(false);
    expect(shape(again)).toEqual(shape(records));
  });

  it('binary that is nothing, text that is nothing, broken JSON: nothing of it survives', () => {
    const secret = 'AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG';
    for (const bytes of [
      new Uint8Array([0x82, 0x01, ...utf8Encode(secret)]),
      utf8Encode(`password: ${secret}`),
      utf8Encode(`{"password": "${secret}"`),
      utf8Encode(`{"not":"agentdna","password":"${secret}"}`),
    ]) {
      const { records, r, again } = redact(bytes);
      expect(records.every((x) => !x.decoded)).toBe(true);
      expect(r.unblankable).toEqual([]);
      expect(text(r.bytes)).not.toContain('AKIA');
      expect(r.bytes.length).toBe(bytes.length);
      expect(again.every((x) => !x.decoded)).toBe(true);
    }
  });

  it('an Iggy message whose payload does not decode: its base64 is blanked too', () => {
    const garbage = utf8Encode('not cbor at all, a secret');
    const bytes = utf8Encode(JSON.stringify({ messages: [{ offset: 1, payload: toBase64(garbage) }] }));
    const { records, r, again } = redact(bytes);
    expect(records[0].decoded).toBe(false);
    expect(text(r.bytes)).not.toContain(toBase64(garbage));
    expect(shape(again)).toEqual(shape(records));
  });
});

describe('what cannot be blanked is listed, never left silently', () => {
  it('a payload whose base64 is written with escaped slashes cannot be found in the text', () => {
    const env: Envelope = { kind: 'event', conversation: new Uint8Array(16).fill(2), source: 'planner', body: new Uint8Array(48).fill(0xff) };
    const b64 = toBase64(encodeEnvelope(env));
    expect(b64).toContain('/');
    const bytes = utf8Encode(`{"messages":[{"offset":1,"payload":"${b64.replace(/\//g, '\\/')}"}]}`);
    const { r } = redact(bytes);
    expect(r.unblankable).toEqual([expect.stringMatching(/^record 0: its payload's base64 could not be found/)]);
    // Its body was blanked in a copy that could not be put back: not counted as blanked.
    expect(r.blanked).toEqual([]);
  });

  it('misuse is a TypeError', () => {
    expect(() => redactInput(null as unknown as Uint8Array, [])).toThrow(TypeError);
  });
});

describe("whether a link's claim of redaction holds, record by record", () => {
  const records = (bytes: Uint8Array) => inspect([{ name: 'in', bytes }]).records;

  it('redacted bytes read as redaction leaves them; the same bytes before redaction do not', () => {
    for (const file of [
      'agdx/made/conversation.cborseq',
      'agdx/made/conversation_http_v07.json',
      'agentdna/synthetic/synthetic_valid_fanin_dag.serialized.json',
      'agdx/laser-wire-0.0.1/agent_dead_letter.bin',
    ]) {
      const bytes = read(file);
      const before = records(bytes);
      const redacted = redactInput(bytes, before).bytes;
      expect(blankAsRedacted(redacted, records(redacted)).every(Boolean), file).toBe(true);
      // Before: every record redaction would change is not blank (bodiless records are blank already).
      const changed = blankAsRedacted(bytes, before);
      expect(
        changed.some((x) => !x),
        file,
      ).toBe(true);
    }
  });

  it('one body put back in a redacted sequence: that record, and only it, is not blank', () => {
    const bytes = read('agdx/made/conversation.cborseq');
    const redacted = redactInput(bytes, records(bytes)).bytes;
    const rs = records(redacted);
    const target = rs.findIndex(({ data: d }) => d.bodySpan && d.bodySpan[1] > d.bodySpan[0]);
    const forged = redacted.slice();
    forged[rs[target].data.bodySpan![0]] = 0x41;
    expect(blankAsRedacted(forged, records(forged)).map((x, i) => [i, x])).toEqual(rs.map((_, i) => [i, i !== target]));
  });

  it('text that redaction would decode to bytes, or parts it cannot blank, cannot be told: nothing counts as blank', () => {
    const hex = utf8Encode(Array.from(read('agdx/made/signed_command.bin'), (b) => b.toString(16).padStart(2, '0')).join(''));
    expect(blankAsRedacted(hex, records(hex))).toEqual([false]);
    // A blank body (zeros), in a payload whose base64 (of the 0xff conversation) has slashes, written escaped.
    const env: Envelope = { kind: 'event', conversation: new Uint8Array(16).fill(0xff), source: 'planner', body: new Uint8Array(48) };
    const escaped = utf8Encode(`{"messages":[{"offset":1,"payload":"${toBase64(encodeEnvelope(env)).replace(/\//g, '\\/')}"}]}`);
    expect(escaped.includes(0x5c)).toBe(true);
    expect(blankAsRedacted(escaped, records(escaped))).toEqual([false]);
  });

  it('misuse is a TypeError', () => {
    expect(() => blankAsRedacted('x' as unknown as Uint8Array, [])).toThrow(TypeError);
  });
});
