// The Iggy and record parsers, through inspectInput: HTTP JSON exports of every era with good and
// broken messages side by side, binary user-header blocks followed by a payload, and the laser
// record. Never a throw; every record has a verdict or a report.md code; a good message keeps the
// verdicts it has alone whatever the other messages of the export are.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeEnvelope } from '../agdx/canonical';
import { readHeaderBlock } from '../agdx/iggy';
import { decodeRefusal, envelopeDialect } from '../agdx/validate';
import { toBase64 } from '../bytes';
import { inspectInput } from '../inspect';
import { envelopeArb, keyFor, SEED7, signEnvelope } from '../../../test/support/agdx-gen';
import {
  Bytes,
  cat,
  checkRecords,
  encodeModel,
  hostileString,
  modelArb,
  params,
  styleArb,
  TIMEOUT,
  uint64Arb,
  same,
  utf8,
  verdictOf,
  writeHead,
} from '../../../test/support/fuzz';

type Era = '>=0.7' | '0.5-0.6' | '<=0.4';

interface Header {
  name: string;
  kind: string;
  value: Uint8Array;
}

const le = (n: bigint, width: number) => {
  const out = new Uint8Array(width);
  for (let i = 0; i < width; i++) out[i] = Number((n >> BigInt(8 * i)) & 0xffn);
  return out;
};

/** Header values of the kinds Iggy writes, the AGDX ones and arbitrary ones. */
const headerArb: fc.Arbitrary<Header> = fc.oneof(
  fc.constantFrom<Header>(
    { name: 'agdx.av', kind: 'uint32', value: le(1n, 4) },
    { name: 'agdx.av', kind: 'uint32', value: le(2n, 4) },
    { name: 'agdx.av', kind: 'uint8', value: le(1n, 1) },
    { name: 'agdx.ct', kind: 'uint8', value: le(1n, 1) },
    { name: 'agdx.ct', kind: 'uint8', value: le(3n, 1) },
    { name: 'agdx.ct', kind: 'uint8', value: le(8n, 1) },
    { name: 'agdx.ct', kind: 'uint8', value: le(0n, 1) },
    { name: 'agdx.ct', kind: 'uint8', value: le(77n, 1) },
    { name: 'agdx.to', kind: 'string', value: utf8('<script>alert(1)</script>') },
    { name: 'agdx.to', kind: 'raw', value: Uint8Array.of(0xff, 0xfe) },
    { name: '__proto__', kind: 'string', value: utf8('x') },
    { name: 'constructor', kind: 'uint64', value: le(2n ** 64n - 1n, 8) },
  ),
  fc.record({
    name: fc.oneof(
      fc.constantFrom('agdx.av', 'agdx.ct', 'agdx.to', 'gen_ai.conversation.id'),
      hostileString.filter((s) => s.length > 0),
    ),
    kind: fc.constantFrom(
      'raw',
      'string',
      'bool',
      'int8',
      'int16',
      'int32',
      'int64',
      'int128',
      'uint8',
      'uint16',
      'uint32',
      'uint64',
      'uint128',
      'float32',
      'float64',
      'u32',
      'weird',
    ),
    value: fc.uint8Array({ maxLength: 20 }),
  }),
  fc.uint8Array({ minLength: 16, maxLength: 16 }).map((value) => ({ name: 'gen_ai.conversation.id', kind: 'uint128', value })),
);

function headersJson(headers: Header[], era: Era): string {
  if (era === '>=0.7') {
    return `[${headers.map((h) => `{"key":{"kind":"string","value":"${toBase64(utf8(h.name))}"},"value":{"kind":${JSON.stringify(h.kind)},"value":"${toBase64(h.value)}"}}`).join(',')}]`;
  }
  return `{${headers.map((h) => `${JSON.stringify(h.name)}:{"kind":${JSON.stringify(h.kind)},"value":"${toBase64(h.value)}"}`).join(',')}}`;
}

function messageJson(era: Era, offset: bigint, timestamp: bigint, payload: string, headers: Header[]): string {
  const hs = headersJson(headers, era);
  if (era === '<=0.4') return `{"offset":${offset},"state":"available","timestamp":${timestamp},"id":0,"checksum":0,"headers":${hs},"payload":${payload}}`;
  return `{"header":{"checksum":0,"id":0,"offset":${offset},"timestamp":${timestamp},"origin_timestamp":0,"payload_length":0},"payload":${payload},"user_headers":${hs}}`;
}

/** A message of an export: a good envelope, or something broken. */
const brokenMessage: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'null',
    '1',
    '"x"',
    '[]',
    '{}',
    '{"payload":1}',
    '{"payload":"!!!"}',
    '{"payload":"q2Rr"}',
    '{"header":[],"payload":""}',
    '{"header":{},"user_headers":7,"payload":"oA=="}',
    '{"__proto__":{"payload":"oA=="}}',
  ),
  fc
    .tuple(fc.uint8Array({ maxLength: 60 }), fc.array(headerArb, { maxLength: 3 }))
    .map(([junk, hs]) => messageJson('>=0.7', 0n, 0n, JSON.stringify(toBase64(junk)), hs)),
  fc.tuple(modelArb(3), styleArb).map(([m, s]) => messageJson('0.5-0.6', 1n, 2n, JSON.stringify(toBase64(encodeModel(m, s))), [])),
  hostileString.map((s) => messageJson('<=0.4', 3n, 4n, JSON.stringify(s), [])),
);

const eraArb = fc.constantFrom<Era>('>=0.7', '0.5-0.6', '<=0.4');

describe('Iggy HTTP exports', () => {
  it('good messages keep their verdicts beside broken ones, in every era', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(
        eraArb,
        envelopeArb,
        fc.array(headerArb, { maxLength: 5 }),
        fc.tuple(uint64Arb, uint64Arb),
        fc.boolean(),
        fc.array(brokenMessage, { maxLength: 3 }),
        fc.array(brokenMessage, { maxLength: 3 }),
        (era, raw, headers, [offset, timestamp], signed, before, after) => {
          const env = signed ? signEnvelope({ ...raw, source: 'fuzz-agent' }, SEED7) : raw;
          const keys = signed ? [keyFor(SEED7, 'fuzz-agent')] : undefined;
          const good = messageJson(era, offset, timestamp, JSON.stringify(toBase64(encodeEnvelope(env))), headers);
          const alone = utf8(`{"partition_id":1,"messages":[${good}]}`);
          const mixed = utf8(`{"partition_id":1,"messages":[${[...before, good, ...after].join(',')}]}`);
          const a = inspectInput(0, { name: 'alone.json', bytes: alone }, keys);
          expect(a.records).toHaveLength(1);
          expect(a.records[0].verdict.logTimeMicros).toBe(timestamp);
          const m = inspectInput(0, { name: 'mixed.json', bytes: mixed }, keys);
          expect(m.input.format.startsWith('iggy-json(')).toBe(true);
          checkRecords(m.records, mixed.length, 'mixed export');
          // Records of broken messages may be several (a dead letter gives two); find ours by its span.
          const at = new TextDecoder()
            .decode(mixed)
            .indexOf(good, `{"partition_id":1,"messages":[`.length + before.map((b) => b.length + 1).reduce((x, y) => x + y, 0));
          const ours = m.records.find((r) => r.verdict.inputSpan?.[0] === new TextEncoder().encode(new TextDecoder().decode(mixed).slice(0, at)).length);
          expect(ours, 'the good message').toBeDefined();
          same(verdictOf(ours!), verdictOf(a.records[0]));
          expect(ours!.verdict.logTimeMicros).toBe(timestamp);
          expect(ours!.data.headers).toEqual(a.records[0].data.headers);
        },
      ),
      params('iggy-export', 0.1),
    );
  });

  it('any JSON where the messages go never throws', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(brokenMessage, fc.json({ maxDepth: 3 })), { maxLength: 5 }),
        fc.json({ maxDepth: 2 }),
        fc.boolean(),
        (messages, partition, bare) => {
          const text = bare
            ? `[${messages.map((m) => `{"payload":${JSON.stringify(m)}}`).join(',')}]`
            : `{"partition_id":${partition},"messages":[${messages.join(',')}]}`;
          const bytes = utf8(text);
          const { input, records } = inspectInput(0, { name: 'export.json', bytes });
          checkRecords(records, bytes.length, 'export', input.format === 'iggy-json(empty)');
          // No records only for an export with no messages.
          if (records.length === 0) expect(bare ? [] : messages).toEqual([]);
        },
      ),
      params('iggy-any-json', 0.5),
    );
  });
});

/** A binary user-header block, ≥ 0.7 (key kind byte) or ≤ 0.6. */
function headerBlock(headers: { name: Uint8Array; kind: number; value: Uint8Array }[], era: '>=0.7' | '<=0.6'): Uint8Array {
  const w = new Bytes();
  for (const h of headers) {
    if (era === '>=0.7') w.push(2);
    w.append(le(BigInt(h.name.length), 4));
    w.append(h.name);
    w.push(h.kind);
    w.append(le(BigInt(h.value.length), 4));
    w.append(h.value);
  }
  return w.finish();
}

const WIDTH: Record<number, number> = { 3: 1, 4: 1, 5: 2, 6: 4, 7: 8, 8: 16, 9: 1, 10: 2, 11: 4, 12: 8, 13: 16, 14: 4, 15: 8 };
const binaryHeader = fc
  .tuple(
    fc.oneof(fc.constantFrom('agdx.av', 'agdx.ct', 'agdx.to', 'gen_ai.conversation.id', '__proto__'), fc.stringMatching(/^[\x21-\x7e]{1,12}$/)),
    fc.integer({ min: 1, max: 15 }),
    fc.uint8Array({ maxLength: 24 }),
  )
  .map(([name, kind, value]) => ({
    name: utf8(name),
    kind,
    value:
      WIDTH[kind] !== undefined
        ? value.subarray(0, WIDTH[kind]).length === WIDTH[kind]
          ? value.subarray(0, WIDTH[kind])
          : new Uint8Array(WIDTH[kind])
        : value,
  }));

describe('Iggy binary header blocks', () => {
  it('a header block then an envelope: the envelope decodes as it does alone, with the block read as headers', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(
        fc.constantFrom<'>=0.7' | '<=0.6'>('>=0.7', '<=0.6'),
        fc.array(binaryHeader, { minLength: 1, maxLength: 5 }),
        envelopeArb,
        (era, headers, env) => {
          const payload = encodeEnvelope(env);
          const bytes = cat(headerBlock(headers, era), payload);
          const { input, records } = inspectInput(0, { name: 'block.bin', bytes });
          checkRecords(records, bytes.length, 'header block');
          expect(input.format).toMatch(/^iggy-headers\(/);
          expect(records).toHaveLength(1);
          const alone = inspectInput(0, { name: 'env.bin', bytes: payload }).records[0];
          // Headers only the 0.7 dialect writes make the record a 0.7 one, whose reader refuses while
          // decoding an agent id or idempotency key outside its caps (dialects.ts idsAtDecode); the
          // same envelope alone is 0.0.1, read, and reported by the caps.
          const asBlock = alone.data.envelope ? envelopeDialect(alone.data.envelope, readHeaderBlock(bytes, era, () => false)?.headers) : null;
          const refused = asBlock && alone.data.envelope ? decodeRefusal(alone.data.envelope, asBlock.dialect, () => null) : null;
          if (refused) {
            expect(records[0].verdict.decoded).toBe(false);
            expect(records[0].verdict.error?.message).toBe(refused.message);
            expect(alone.verdict.findings.some((f) => f.rule === 'agdx/cap/agent_id' || f.rule === 'agdx/cap/idempotency_key')).toBe(true);
            return;
          }
          expect(records[0].verdict.decoded).toBe(alone.verdict.decoded);
          const envelope = records[0].data.envelope;
          expect(envelope && encodeEnvelope(envelope)).toEqual(alone.data.envelope && encodeEnvelope(alone.data.envelope));
        },
      ),
      params('iggy-block', 0.1),
    );
  });

  it('a header block then anything never throws', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(
        fc.constantFrom<'>=0.7' | '<=0.6'>('>=0.7', '<=0.6'),
        fc.array(binaryHeader, { minLength: 1, maxLength: 4 }),
        fc.oneof(
          fc.uint8Array({ maxLength: 80 }),
          fc.tuple(modelArb(3), styleArb).map(([m, s]) => encodeModel(m, s)),
        ),
        (era, headers, rest) => {
          const bytes = cat(headerBlock(headers, era), rest);
          const { records } = inspectInput(0, { name: 'block.bin', bytes });
          checkRecords(records, bytes.length, 'header block + anything');
        },
      ),
      params('iggy-block-any', 0.5),
    );
  });
});

describe('laser records and dead letters', () => {
  const recordModel = (payload: Uint8Array, headers: Header[]) => {
    const w = new Bytes();
    writeHead(w, 5, 3n);
    const text = (s: string) => {
      const b = utf8(s);
      writeHead(w, 3, BigInt(b.length));
      w.append(b);
    };
    text('partition_key');
    text('01J0Y1ZAG00000000000000002');
    text('headers');
    writeHead(w, 5, BigInt(headers.length));
    for (const h of headers) {
      text(h.name);
      writeHead(w, 5, 2n);
      text('kind');
      text(h.kind);
      text('bytes');
      writeHead(w, 2, BigInt(h.value.length));
      w.append(h.value);
    }
    text('payload');
    writeHead(w, 2, BigInt(payload.length));
    w.append(payload);
    return w.finish();
  };

  it('a laser record or a dead letter around any payload never throws; a good envelope inside decodes', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(
        fc.oneof(
          envelopeArb.map((e) => encodeEnvelope(e)),
          fc.uint8Array({ maxLength: 60 }),
        ),
        fc.array(headerArb, { maxLength: 4 }),
        fc.boolean(),
        (payload, headers, dead) => {
          let bytes: Uint8Array;
          if (dead) {
            const w = new Bytes();
            writeHead(w, 5, 3n);
            for (const [k, v] of [
              ['reason', Uint8Array.of(0x01)],
              ['attempts', Uint8Array.of(0x03)],
            ] as const) {
              writeHead(w, 3, BigInt(k.length));
              w.append(utf8(k));
              w.append(v);
            }
            writeHead(w, 3, 7n);
            w.append(utf8('payload'));
            writeHead(w, 2, BigInt(payload.length));
            w.append(payload);
            bytes = w.finish();
          } else
            bytes = recordModel(
              payload,
              headers.filter((h, i) => headers.findIndex((x) => x.name === h.name) === i),
            );
          const { records } = inspectInput(0, { name: 'record.bin', bytes });
          checkRecords(records, bytes.length, dead ? 'dead letter' : 'laser record');
        },
      ),
      params('iggy-laser', 0.25),
    );
  });
});
