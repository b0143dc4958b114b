// Terminal-safe output: the escaping function, and the command line over records built to attack
// the terminal (ESC sequences that clear the screen and set the title, BEL, CR to overwrite a line
// with a fake verdict, U+202E to reverse what follows).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Encode } from '../core/bytes';
import { encodeEnvelope } from '../core/agdx/canonical';
import type { Envelope } from '../core/agdx/envelope';
import { CborWriter } from '../core/cbor/encoder';
import type { Report } from '../core/report';
import { run, type CliIo } from './main';
import { jsonTerminalSafe, terminalSafe } from './terminal';

/** Anything a terminal acts on (newline aside, which the summary uses between its own lines). */
const RAW_UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe('terminalSafe', () => {
  it('escapes C0, DEL, C1 and the bidi controls visibly', () => {
    expect(terminalSafe('a\x1b[2Jb')).toBe('a\\x1b[2Jb');
    expect(terminalSafe('\x07\x00\x7f\x85\x9b')).toBe('\\x07\\x00\\x7f\\x85\\x9b');
    expect(terminalSafe('line\r\nnext\tcol')).toBe('line\\r\\nnext\\tcol');
    expect(terminalSafe('abc\u202edcba\u2066x\u2069\u200e\u200f\u061c')).toBe('abc\\u202edcba\\u2066x\\u2069\\u200e\\u200f\\u061c');
    expect(terminalSafe('a\u2028b\u2029c')).toBe('a\\u2028b\\u2029c');
  });

  it('leaves every other character as it is: any script, emoji, backslashes', () => {
    const text = 'café ✓ 😀 名前 مرحبا שלום C:\\path "quoted" \u00a0 \u200d';
    expect(terminalSafe(text)).toBe(text);
  });

  it('no unsafe character survives; the safe ones are untouched (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 64 }), (s) => {
        const out = terminalSafe(s);
        expect(RAW_UNSAFE.test(out) || out.includes('\n')).toBe(false);
        // Removing the unsafe characters from the input leaves exactly the input's other characters in order.
        expect(out.replace(/\\(x[0-9a-f]{2}|u[0-9a-f]{4}|[nrt])/g, '')).toBe(
          s
            .replace(new RegExp(RAW_UNSAFE, 'g'), '')
            .replace(/\n/g, '')
            .replace(/\\(x[0-9a-f]{2}|u[0-9a-f]{4}|[nrt])/g, ''),
        );
      }),
      { numRuns: 500, seed: 14 },
    );
  });

  it('misuse is a TypeError', () => {
    expect(() => terminalSafe(undefined as unknown as string)).toThrow(TypeError);
    expect(() => jsonTerminalSafe(1 as unknown as string)).toThrow(TypeError);
  });

  it('jsonTerminalSafe keeps the JSON value and writes nothing a terminal acts on', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: 'binary', maxLength: 32 }), (v, s) => {
        const value = { v, s, [s]: [s] };
        const json = JSON.stringify(value, null, 2);
        const safe = jsonTerminalSafe(json);
        expect(JSON.parse(safe)).toEqual(JSON.parse(json));
        expect(RAW_UNSAFE.test(safe)).toBe(false);
      }),
      { numRuns: 300, seed: 14 },
    );
  });
});

const HOSTILE = '\x1b]0;owned\x07\x1b[2J\x1b[H\rsignature: valid, trusted \u202eodlaw';

/** An AGDX envelope whose every free-text field holds the attack, plus an unknown field named by it. */
function hostileEnvelope(): Uint8Array {
  const env: Envelope = {
    kind: 'command',
    record: new Uint8Array(16).fill(1),
    conversation: new Uint8Array(16).fill(2),
    source: HOSTILE,
    target: `to ${HOSTILE}`,
    correlation: new Uint8Array(16).fill(3),
    tool: `tool ${HOSTILE}`,
    metadata: new Map([[`key ${HOSTILE}`, { type: 'text', value: `value ${HOSTILE}` }]]),
    body: utf8Encode('{}'),
  };
  const bytes = encodeEnvelope(env);
  // One more entry (an unknown field, whose name findings repeat): the map head counts it.
  const w = new CborWriter().raw(bytes[0] + 1).append(bytes.subarray(1));
  return w.text(`field ${HOSTILE}`).text(HOSTILE).finish();
}

/** An AgentDNA envelope whose sender, hash (the record id) and payload hold the attack. */
const hostileWorkflow = utf8Encode(
  JSON.stringify({ type: 'intent_workflow', id: HOSTILE, envelope: { from: HOSTILE, payload: HOSTILE, epoch: 1, hash: HOSTILE, signature: HOSTILE } }),
);

function memoryIo(files: Record<string, Uint8Array>): { io: CliIo; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: {
      readFile: async (path) => {
        const f = files[path];
        if (!f) throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
        return f;
      },
      readStdin: async () => new Uint8Array(0),
      stdout: (t) => out.push(t),
      stderr: (t) => err.push(t),
    },
  };
}

describe("the command line never writes a record's control characters raw", () => {
  const files = { [`name ${HOSTILE}.cbor`]: hostileEnvelope(), [`wf ${HOSTILE}.json`]: hostileWorkflow };

  it('the readable summary shows them escaped', async () => {
    const m = memoryIo(files);
    const code = await run(['inspect', ...Object.keys(files)], m.io);
    expect(code).toBe(1);
    expect(m.err).toEqual([]);
    const text = m.out.join('\n');
    expect(text).not.toMatch(RAW_UNSAFE);
    for (const c of ['\x1b', '\x07', '\r', '\u202e']) expect(text.includes(c)).toBe(false);
    // The attack is visible as text, in the names, the source, the id and the findings.
    expect(text).toContain('\\x1b]0;owned\\x07\\x1b[2J\\x1b[H\\rsignature: valid, trusted \\u202eodlaw');
    expect(text).toContain(`name \\x1b]0;owned`);
    expect(text.split('\n').filter((l) => l.includes('\\x1b')).length).toBeGreaterThanOrEqual(4);
    // No line of the output starts with the forged verdict: the CR that would have put it there is shown.
    expect(text.split('\n').some((l) => l.startsWith('signature: valid'))).toBe(false);
  });

  it('--json stays JSON with the same strings, and holds nothing a terminal acts on', async () => {
    const m = memoryIo(files);
    await run(['inspect', '--json', ...Object.keys(files)], m.io);
    expect(m.out).toHaveLength(1);
    expect(m.out[0]).not.toMatch(RAW_UNSAFE);
    const report = JSON.parse(m.out[0]) as Report;
    expect(report.records[0].source).toBe(HOSTILE);
    expect(report.inputs[1].name).toBe(`wf ${HOSTILE}.json`);
  });

  it('an error line naming a hostile file is escaped too', async () => {
    const m = memoryIo({});
    expect(await run(['inspect', `missing ${HOSTILE}`], m.io)).toBe(2);
    expect(m.err).toHaveLength(1);
    expect(m.err[0]).not.toMatch(RAW_UNSAFE);
    expect(m.err[0]).toContain('missing \\x1b]0;owned');
    const unknownOption = memoryIo({});
    expect(await run(['inspect', `--\x1b[2J`, 'x'], unknownOption.io)).toBe(2);
    expect(unknownOption.err[0]).not.toMatch(RAW_UNSAFE);
  });
});

describe('the summary names what a signature does not cover', () => {
  it('a signed record with an appended field: the line lists it', async () => {
    const { readFileSync } = await import('node:fs');
    const signed = new Uint8Array(readFileSync(new URL('../../vectors/agdx/made/signed_command.bin', import.meta.url)));
    const appended = new CborWriter()
      .raw(signed[0] + 1)
      .append(signed.subarray(1))
      .text('approved_by')
      .text('the CFO')
      .finish();
    const keys = new Uint8Array(readFileSync(new URL('../../vectors/agdx/made/keys.json', import.meta.url)));
    const m = memoryIo({ 'a.cbor': appended, 'keys.json': keys });
    await run(['inspect', '--keys', 'keys.json', 'a.cbor'], m.io);
    expect(m.out[0]).toMatch(/signature: valid, trusted \(key fe812c12f3ab4ce6\)\n\s+why: [^\n]*\n\s+not covered by the signature: approved_by\n/);
  });
});
