// The whole pipeline (inspect / inspectInput) under any input: raw bytes, text, hex and base64 of
// records, several inputs at once. Never a throw; every input gives records with verdicts or coded
// errors (report.md); work and time stay bounded by the input's size; an envelope read through its
// hex or base64 text is the same record as its bytes; keys never turn a broken record valid.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeEnvelope } from '../agdx/canonical';
import { toBase64, toHex } from '../bytes';
import { inspect } from '../inspect';
import { envelopeArb, keyFor, SEED7, signEnvelope } from '../../../test/support/agdx-gen';
import {
  bounded,
  cat,
  checkRecords,
  checkResult,
  encodeModel,
  hostileString,
  modelArb,
  params,
  same,
  styleArb,
  TIMEOUT,
  utf8,
  verdictOf,
} from '../../../test/support/fuzz';

/** Inputs of every kind the sniffer tells apart. */
const anyInput: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc.uint8Array({ maxLength: 300 }),
  fc.tuple(modelArb(4), styleArb).map(([m, s]) => encodeModel(m, s)),
  envelopeArb.map((e) => encodeEnvelope(e)),
  fc.string({ maxLength: 100 }).map(utf8),
  hostileString.map(utf8),
  fc.json({ maxDepth: 3 }).map(utf8),
  fc.uint8Array({ maxLength: 100 }).map((b) => utf8(toHex(b))),
  fc.uint8Array({ maxLength: 100 }).map((b) => utf8(toBase64(b))),
  envelopeArb.map((e) => utf8(toHex(encodeEnvelope(e)))),
  envelopeArb.map((e) => utf8(toBase64(encodeEnvelope(e), true))),
  // Text of text: hex of base64, base64 of hex (the sniffer stops after two levels).
  envelopeArb.map((e) => utf8(toHex(utf8(toBase64(encodeEnvelope(e)))))),
  envelopeArb.map((e) => utf8(toBase64(utf8(toHex(utf8(toBase64(encodeEnvelope(e)))))))),
);

describe('inspect: any inputs', () => {
  it('any single input: records with verdicts or coded errors, bounded work and time, a report that serialises', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(anyInput, (bytes) => {
        const r = bounded('inspect', () => inspect([{ name: 'any', bytes }]));
        checkResult(r, [bytes.length], 'any');
      }),
      params('inspect-any', 0.25),
    );
  });

  it('several inputs at once: each keeps what it gives alone', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(fc.array(anyInput, { minLength: 1, maxLength: 4 }), (inputs) => {
        const files = inputs.map((bytes, i) => ({ name: `f${i}`, bytes }));
        const all = inspect(files);
        checkResult(
          all,
          inputs.map((b) => b.length),
          'several',
        );
        files.forEach((f, i) => {
          const alone = inspect([f]).records;
          const mine = all.records.filter((r) => r.verdict.input === i);
          same(mine.map(verdictOf), alone.map(verdictOf));
        });
      }),
      params('inspect-several', 0.1),
    );
  });
});

describe('text forms of an envelope', () => {
  it('hex and base64 text (any case, whitespace, line breaks, 0x, url-safe) read as the same record as the bytes', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(envelopeArb, fc.constantFrom('hex', 'HEX', '0xhex', 'hex-lines', 'b64', 'b64url', 'b64-lines'), fc.boolean(), (raw, form, signed) => {
        const env = signed ? signEnvelope({ ...raw, source: 'fuzz-agent' }, SEED7) : raw;
        const keys = signed ? [keyFor(SEED7, 'fuzz-agent')] : [];
        const bytes = encodeEnvelope(env);
        const lines = (s: string) => s.replace(/(.{20})/g, '$1\r\n');
        const text =
          form === 'hex'
            ? toHex(bytes)
            : form === 'HEX'
              ? toHex(bytes).toUpperCase()
              : form === '0xhex'
                ? `0x${toHex(bytes)}`
                : form === 'hex-lines'
                  ? lines(toHex(bytes))
                  : form === 'b64'
                    ? toBase64(bytes)
                    : form === 'b64url'
                      ? toBase64(bytes, true)
                      : lines(toBase64(bytes));
        const a = inspect([{ name: 'bin', bytes }], { keys }).records;
        const t = inspect([{ name: 'txt', bytes: utf8(`\n ${text}\n`) }], { keys }).records;
        same(t.map(verdictOf), a.map(verdictOf));
        if (signed) expect(t[0].verdict.signature.status).toBe('valid');
      }),
      params('inspect-text-forms', 0.1),
    );
  });
});

describe('keys never make a broken record valid', () => {
  it('a signed envelope with any byte changed is never valid under the key', { timeout: TIMEOUT }, () => {
    const key = keyFor(SEED7, 'fuzz-agent');
    fc.assert(
      fc.property(envelopeArb, fc.nat(), fc.integer({ min: 1, max: 255 }), (raw, at, x) => {
        const bytes = encodeEnvelope(signEnvelope({ ...raw, source: 'fuzz-agent' }, SEED7));
        const changed = bytes.slice();
        changed[at % bytes.length] ^= x;
        const { records } = inspect([{ name: 'changed', bytes: changed }], { keys: [key] });
        checkRecords(records, changed.length, 'changed');
        // The changed byte may fall in a part the canonical form drops (a head, say), but then the
        // envelope is the same value: valid only when it still re-encodes to the signed bytes.
        for (const { verdict, data } of records) {
          if (verdict.signature.status === 'valid') expect(data.envelope && encodeEnvelope(data.envelope)).toEqual(bytes);
        }
      }),
      params('inspect-tamper', 0.1),
    );
  });
});

describe('pathological text', () => {
  it('long runs that used to make regular expressions backtrack stay fast through the pipeline', { timeout: TIMEOUT }, () => {
    for (const text of ['='.repeat(300_000) + 'A', `A${' '.repeat(300_000)}=A`, '0'.repeat(300_001) + 'g', `${'A'.repeat(300_000)}=${'A'.repeat(3)}`]) {
      const bytes = utf8(text);
      const r = bounded(`${text.slice(0, 8)}… (${text.length})`, () => inspect([{ name: 'text', bytes }]));
      checkResult(r, [bytes.length], 'pathological');
    }
  });

  it('a concatenation of 5,000 good envelopes is one record each, linear in time', { timeout: TIMEOUT }, () => {
    const one = encodeEnvelope({
      kind: 'event',
      record: new Uint8Array(16).fill(1),
      conversation: new Uint8Array(16).fill(2),
      source: 'a',
      body: Uint8Array.of(1),
    });
    const bytes = cat(...new Array(5_000).fill(one));
    const r = bounded('5,000 envelopes', () => inspect([{ name: 'many', bytes }]), 20_000);
    expect(r.records).toHaveLength(5_000);
  });
});
