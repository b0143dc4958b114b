// Differential test: the reference port (@laserdata/laser-sdk 0.1.1, the calls a consumer makes on
// one envelope: test/support/reference.ts) against ours (inspectInput, and the bulk path the
// benchmark times), on envelopes valid by the matrix and on ones that break the matrix, the caps,
// must_understand, the signature shape, field types, keys (repeated, unknown), the encoding, or
// the framing (truncated, trailing bytes, a bit flipped). The verdicts must agree (the port accepts
// ⇔ we read one envelope with no error finding), and where both accept, so must every field.
//
// Where the port departs from the Rust crate that agdx-v1.md describes (laser-wire 0.0.1, serde +
// ciborium) and we follow, a disagreement is allowed only in the direction that departure makes,
// only when the input has the feature and (when the port rejects) only with the port's message for
// it: see `allowed`. Its CBOR layer (cborg, strict) rejects non-minimal heads, indefinite-length
// strings, tags (2 and 3 it reads as bignums, of whatever they hold) and repeated keys in any map,
// and drops a leading U+FEFF from text (a TextDecoder default); its readers take an explicit null
// as a wrong type rather than absent, a float with an integral value for an integer, and invalid
// UTF-8 as U+FFFD. Each departure met is counted and printed at the end.
//
// Where the port and the Rust crate agreed against us, we changed: a metadata list may hold lists,
// a bignum is read where an integer is, and an unknown field may not hold a simple value neither
// can parse (src/core/agdx/fields.ts, envelope.ts; cases in validate.test.ts).
//
// FUZZ_RUNS scales the run counts (support.ts); by default this file takes a few seconds.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeEnvelope } from '../agdx/canonical';
import { DIALECT_001 } from '../agdx/dialects';
import { CHUNK_PURPOSES } from '../agdx/dictionaries';

// The 0.1.1 port writes and reads the 0.0.1 dialect: its fields, usage fields and status operations
// are what is mutated here (a field only 0.7 knows, such as root, the port ignores and ours reads:
// the 0.7 dialect is checked against its own vectors, agdx/dialect07.test.ts).
const STATUS_OPERATIONS = DIALECT_001.statusOperations;
const ENVELOPE_FIELDS = DIALECT_001.fields.map((f) => f.name);
const USAGE_FIELDS = DIALECT_001.usage;
import { compareUtf8, ENVELOPE_FIELD_SET, KINDS, type Envelope, type Kind, type MetaValue } from '../agdx/envelope';
import { readSingle, type CborItem } from '../cbor/reader';
import { inspectInput } from '../inspect';
import { isValid } from '../verdict';
import { envelopeArb, envelopeFields, lenienceArb, lenientModel, normEnvelope } from '../../../test/support/agdx-gen';
import { referenceAsOurs, referenceVerdict, type ReferenceVerdict } from '../../../test/support/reference';
import {
  cat,
  encodeModel,
  MINIMAL,
  modelArb,
  params,
  same,
  scalarModel,
  styleArb,
  TIMEOUT,
  uint64Arb,
  wellFormedString,
  type Model,
} from '../../../test/support/fuzz';

// ---------------------------------------------------------------------------------------------
// Our verdict, through the pipeline and through the bulk path
// ---------------------------------------------------------------------------------------------

interface OurVerdict {
  accepted: boolean;
  envelope: Envelope | null;
  /** Why not, for the failure message. */
  why: string;
  /** The decode error's message, when the bytes did not read. */
  error: string | null;
}

function ours(bytes: Uint8Array): OurVerdict {
  const read = inspectInput(0, { name: 'diff', bytes }, undefined, false).records;
  const records = read.map((x) => x.verdict);
  const r = records[0];
  const envelope = read[0].data.envelope;
  const accepted = records.length === 1 && r.format === 'agdx.envelope' && isValid(r);
  const why = records
    .map(
      (x) =>
        `${x.format} ${
          x.error
            ? `${x.error.code}: ${x.error.message}`
            : x.findings
                .filter((f) => f.severity === 'error')
                .map((f) => `${f.rule}: ${f.message}`)
                .join('; ')
        }`,
    )
    .join(' | ');
  return {
    accepted,
    envelope: accepted ? envelope : null,
    why: records.length > 1 ? `${records.length} records: ${why}` : why,
    error: r.error?.message ?? null,
  };
}

// ---------------------------------------------------------------------------------------------
// Where the port departs from the Rust crate: the features of an input, read from our CBOR items
// ---------------------------------------------------------------------------------------------

/** Integer fields, by path: a float there is a wrong type to Rust, an integer to the port. */
const INTEGER_FIELDS = new Set([
  'deadline_micros',
  'sequence',
  'task_state',
  'must_understand',
  ...USAGE_FIELDS.map((f) => `usage.${f}`),
  'signature.scheme',
  'signature.context.content_type',
  'signature.context.agent_version',
]);
/** Maps the decoder reads as structs, by path ('' is the envelope). */
const STRUCTS: Record<string, readonly string[]> = {
  '': ENVELOPE_FIELDS,
  usage: USAGE_FIELDS,
  signature: ['scheme', 'key_id', 'bytes', 'context'],
  'signature.context': ['content_type', 'agent_version'],
};

interface Features {
  nonMinimalHead: boolean;
  indefiniteString: boolean;
  /** Tags other than 2 and 3 (the port rejects them). */
  tag: boolean;
  /** Tags 2 and 3 (the port reads a bignum: an integer where Rust skips the tag, or a failure). */
  bignumTag: boolean;
  /** undefined (simple 23) anywhere: the port reads it as a JS undefined. */
  undefinedValue: boolean;
  /** Struct fields written as null or undefined (absent to Rust), by path. */
  nullFields: Set<string>;
  /** Integer fields written as a float with an integral value. */
  integralFloat: boolean;
  /** A map with two equal keys that our decoder does not read as struct fields. */
  repeatedKey: boolean;
}

function features(item: CborItem): Features {
  const f: Features = {
    nonMinimalHead: false,
    indefiniteString: false,
    tag: false,
    bignumTag: false,
    undefinedValue: false,
    nullFields: new Set(),
    integralFloat: false,
    repeatedKey: false,
  };
  const keyOf = (k: CborItem): string | null => {
    if (k.kind === 'text' || k.kind === 'uint' || k.kind === 'nint') return `${k.kind}:${k.value}`;
    if (k.kind === 'simple' || k.kind === 'float') return `${k.kind}:${k.value}`;
    return null; // byte strings, arrays, maps, tags: the port's Map keeps them apart (by identity)
  };
  // `path` is the struct path of this item when the decoder reads it as a field, else null.
  const walk = (it: CborItem, path: string | null): void => {
    const indefinite = (it.kind === 'array' || it.kind === 'map' || it.kind === 'bytes' || it.kind === 'text') && it.indefinite;
    if (!it.minimal && !indefinite) f.nonMinimalHead = true;
    if ((it.kind === 'bytes' || it.kind === 'text') && it.indefinite) f.indefiniteString = true;
    switch (it.kind) {
      case 'tag':
        if (it.tag === 2 || it.tag === 3) f.bignumTag = true;
        else f.tag = true;
        walk(it.item, null);
        return;
      case 'simple':
        if (it.value === 23) f.undefinedValue = true;
        if ((it.value === 22 || it.value === 23) && path !== null) f.nullFields.add(path);
        return;
      case 'float':
        if (path !== null && INTEGER_FIELDS.has(path) && Number.isInteger(it.value)) f.integralFloat = true;
        return;
      case 'array':
        for (const x of it.items) walk(x, null);
        return;
      case 'map': {
        const struct = path !== null ? STRUCTS[path] : undefined;
        const seen = new Set<string>();
        for (const e of it.entries) {
          const k = keyOf(e.key);
          if (k !== null) {
            // A repeated struct field is an error to both; any other repeated key only to the port.
            if (seen.has(k) && !(struct && e.key.kind === 'text')) f.repeatedKey = true;
            seen.add(k);
          }
          walk(e.key, null);
          const name = e.key.kind === 'text' && struct?.includes(e.key.value) ? (path ? `${path}.${e.key.value}` : e.key.value) : null;
          walk(e.value, name);
        }
        return;
      }
      default:
        return;
    }
  };
  walk(item, '');
  return f;
}

/**
 * Whether a disagreement is one the port's documented departures explain: the feature is in the
 * input, the disagreement goes the way the feature makes it go, and (when the port rejects) with
 * the port's message for that feature. Returns the departure's name, or null.
 */
function allowed(bytes: Uint8Array, ref: ReferenceVerdict, our: OurVerdict): string | null {
  const item = readSingle(bytes);
  if (!item.ok) {
    // Ours fails to read the bytes; the port accepts them only by reading invalid UTF-8 as U+FFFD.
    return ref.accepted && /not valid UTF-8/.test(our.error ?? '') ? 'invalid UTF-8' : null;
  }
  const f = features(item.value);
  if (!ref.accepted && our.accepted) {
    const m = ref.error;
    if (f.nonMinimalHead && /encoded in more bytes than necessary/.test(m)) return 'non-minimal head';
    if (f.indefiniteString && /indefinite length bytes\/strings are not supported/.test(m)) return 'indefinite-length string';
    if (f.tag && /tag not supported/.test(m)) return 'tag';
    // Tag 2 or 3 where no integer is read: Rust skips the tag, the port's CBOR layer makes it an
    // integer (a wrong type for a byte string, text or map) or fails on anything but a byte string.
    if (f.bignumTag && /failed to decode agent envelope|must be|expected a CBOR map|cannot decode value/.test(m)) return 'bignum tag';
    if (f.repeatedKey && /found repeat map key/.test(m)) return 'repeated key outside a struct';
    const field = /field `(\w+)` in [\w .]+? must|expected a CBOR map for [\w ]+\.(\w+)$/.exec(m);
    if (field && [...f.nullFields].some((p) => p.split('.').pop() === (field[1] ?? field[2]))) return 'explicit null';
    if (f.undefinedValue && /cannot decode value/.test(m)) return 'undefined in metadata';
  }
  if (ref.accepted && !our.accepted) {
    if (f.integralFloat && /must be an unsigned integer, found a float/.test(our.why)) return 'integral float for an integer';
    // In metadata, or around anything but a byte string: the port's CBOR layer reads any tag 2 or
    // 3 as an integer (of whatever it holds); Rust's value type does not take it.
    if (f.bignumTag && /agdx\/field-type: (metadata\..* must be|.* is a bignum)/.test(our.why)) return 'bignum tag';
  }
  return null;
}

/** Field values a JS number cannot tell apart: a float with an integral value is an int to the port. */
function portNumbers(v: unknown): unknown {
  if (v instanceof Map) return new Map([...v].map(([k, x]) => [k, portNumbers(x)]));
  if (Array.isArray(v)) return v.map(portNumbers);
  if (v && typeof v === 'object' && !(v instanceof Uint8Array)) {
    const o = v as Record<string, unknown>;
    // agdx-v1.md: "A JavaScript number cannot tell 1 from 1.0"; the port's decodeValue makes
    // every integral number an int (Rust keeps Float). Compare such floats as the port reads them.
    if (o.type === 'float' && Number.isInteger(o.value)) return { type: 'int', value: BigInt(o.value as number) };
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, portNumbers(x)]));
  }
  return v;
}

/** Metadata is a map (a BTreeMap to Rust): its entries compared by key, whatever their order. */
function sortedMetadata(env: unknown): unknown {
  const e = env as { metadata?: Map<string, unknown> };
  if (!e.metadata) return env;
  return { ...e, metadata: new Map([...e.metadata].sort(([a], [b]) => compareUtf8(a, b))) };
}

const departures = new Map<string, number>();

const BOM = '\ufeff';

/** Whether any text string (a key or a value) starts with U+FEFF. */
function hasLeadingBom(it: CborItem): boolean {
  switch (it.kind) {
    case 'text':
      return it.value.startsWith(BOM);
    case 'array':
      return it.items.some(hasLeadingBom);
    case 'map':
      return it.entries.some((e) => hasLeadingBom(e.key) || hasLeadingBom(e.value));
    case 'tag':
      return hasLeadingBom(it.item);
    default:
      return false;
  }
}

/**
 * The item as the port's CBOR layer reads it: cborg decodes text with a default TextDecoder, which
 * drops a leading U+FEFF (a byte order mark to it; Rust's String, and our reader, keep it).
 */
function asPortReadsText(it: CborItem, bytes: Uint8Array): Model {
  switch (it.kind) {
    case 'uint':
      return { t: 'uint', v: BigInt(it.value) };
    case 'nint':
      return { t: 'nint', v: BigInt(it.value) };
    case 'bytes':
      return { t: 'bytes', v: it.value };
    case 'text':
      return { t: 'text', v: it.value.startsWith(BOM) ? it.value.slice(1) : it.value };
    case 'array':
      return { t: 'array', items: it.items.map((x) => asPortReadsText(x, bytes)) };
    case 'map':
      return { t: 'map', entries: it.entries.map((e) => [asPortReadsText(e.key, bytes), asPortReadsText(e.value, bytes)]) };
    case 'tag':
      return { t: 'tag', tag: BigInt(it.tag), item: asPortReadsText(it.item, bytes) };
    case 'simple':
      return { t: 'simple', v: it.value };
    case 'float': {
      let bits = 0n;
      for (let i = 1; i <= it.width / 8; i++) bits = (bits << 8n) | BigInt(bytes[it.start + i]);
      return { t: 'float', bits, width: it.width };
    }
  }
}

/** The differential assertion on one input. Returns the port's verdict and ours (on the bytes as they are). */
function compare(bytes: Uint8Array, what: string): { ref: ReferenceVerdict; our: OurVerdict } {
  const ref = referenceVerdict(bytes);
  const actual = ours(bytes);
  let our = actual;
  let judged = bytes;
  // A text starting with U+FEFF: the port judges it without that character (see asPortReadsText).
  // Ours is then judged on the input as the port reads it, and the departure counted when that
  // changes our verdict or values. (Every other departure is checked on the bytes as they are.)
  const item = readSingle(bytes);
  if (item.ok && hasLeadingBom(item.value)) {
    judged = encodeModel(asPortReadsText(item.value, bytes), MINIMAL);
    const view = ours(judged);
    if (view.accepted !== our.accepted || (view.accepted && JSON.stringify(normEnvelope(view.envelope)) !== JSON.stringify(normEnvelope(our.envelope)))) {
      departures.set('leading U+FEFF dropped', (departures.get('leading U+FEFF dropped') ?? 0) + 1);
    }
    our = view;
  }
  if (ref.accepted !== our.accepted) {
    const why = allowed(bytes, ref, our);
    if (why === null) {
      expect.fail(
        `${what}: the reference ${ref.accepted ? 'accepts' : `rejects (${ref.error})`}, ours ${our.accepted ? 'accepts' : `rejects (${our.why})`}\nbytes: ${Buffer.from(bytes).toString('hex')}`,
      );
    }
    departures.set(why, (departures.get(why) ?? 0) + 1);
    return { ref, our: actual };
  }
  if (ref.accepted && our.accepted) {
    const mine = normEnvelope(sortedMetadata(portNumbers(our.envelope)));
    const theirs = normEnvelope(sortedMetadata(referenceAsOurs(ref.envelope)));
    // Tag 2 or 3 around something that is not a byte string: the port makes it an integer.
    const bignum = item.ok && features(item.value).bignumTag;
    if (bignum && JSON.stringify(mine) !== JSON.stringify(theirs)) departures.set('bignum tag', (departures.get('bignum tag') ?? 0) + 1);
    else same(mine, theirs, `${what}: decoded fields differ`);
    // What a record row shows: kind, ids in Crockford base32, agents.
    const r = inspectInput(0, { name: 'diff', bytes: judged }, undefined, false).records[0].verdict;
    expect([r.kind, r.id, r.conversation, r.source, r.target]).toEqual([
      ref.envelope.kind,
      ref.envelope.record?.toString() ?? null,
      ref.envelope.conversation.toString(),
      ref.envelope.source,
      ref.envelope.target ?? null,
    ]);
  }
  return { ref, our: actual };
}

// ---------------------------------------------------------------------------------------------
// Generators: envelopes valid by the matrix, and mutations of them
// ---------------------------------------------------------------------------------------------

const id16 = fc.uint8Array({ minLength: 16, maxLength: 16 });
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const agentId = fc.oneof(
  fc.constantFrom('planner', 'agent-7', 'é', '\u{10000}', '\u00a0', 'a'.repeat(256), 'é'.repeat(128)),
  wellFormedString.filter((s) => s.length > 0 && !CONTROL.test(s)),
);
const text = fc.oneof(wellFormedString, fc.constantFrom('x'.repeat(256), 'é'.repeat(128)));
const idemKey = fc.oneof(
  fc.constantFrom('k', 'k'.repeat(64), 'é'.repeat(32)),
  wellFormedString.filter((s) => s.length > 0 && new TextEncoder().encode(s).length <= 64),
);
const uint = uint64Arb.map((v) => (v < 2n ** 53n ? Number(v) : v));
const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined, freq: 2 });
const body = fc.uint8Array({ minLength: 1, maxLength: 24 });

const metaScalar: fc.Arbitrary<MetaValue> = fc.oneof(
  wellFormedString.map((value) => ({ type: 'text' as const, value })),
  uint.map((value) => ({ type: 'int' as const, value })),
  fc.integer({ min: -1000, max: -1 }).map((value) => ({ type: 'int' as const, value })),
  fc.oneof(fc.double(), fc.constantFrom(0.5, 1, -0, NaN, Infinity)).map((value) => ({ type: 'float' as const, value })),
  fc.boolean().map((value) => ({ type: 'bool' as const, value })),
  fc.constant({ type: 'null' as const }),
);
const metaValue: fc.Arbitrary<MetaValue> = fc.oneof(
  { weight: 4, arbitrary: metaScalar },
  { weight: 1, arbitrary: fc.array(metaScalar, { maxLength: 3 }).map((items) => ({ type: 'list' as const, items })) },
);
const metadata = fc
  .uniqueArray(fc.tuple(fc.oneof(wellFormedString, fc.constantFrom('role', 'bridge_hops', '__proto__')), metaValue), { maxLength: 4, selector: ([k]) => k })
  .map((e) => new Map(e));
const usage = fc.record(
  { input_tokens: uint, output_tokens: uint, reasoning_output_tokens: uint, cache_read_input_tokens: uint, cache_creation_input_tokens: uint },
  { requiredKeys: ['input_tokens', 'output_tokens'] },
);
const signature = fc.oneof(
  fc.record({ scheme: fc.constant(1), key_id: fc.uint8Array({ minLength: 8, maxLength: 8 }), bytes: fc.uint8Array({ minLength: 64, maxLength: 64 }) }),
  fc.record(
    {
      scheme: fc.integer({ min: 2, max: 255 }),
      key_id: fc.uint8Array({ maxLength: 10 }),
      bytes: fc.uint8Array({ maxLength: 70 }),
      context: fc.record({ content_type: fc.integer({ min: 0, max: 255 }), agent_version: fc.integer({ min: 0, max: 0xffffffff }) }, { requiredKeys: [] }),
    },
    { requiredKeys: ['scheme', 'key_id', 'bytes'] },
  ),
);

/** What every kind may carry: target, cause, cause_at, metadata, signature. */
const common = fc.record({
  conversation: id16,
  source: agentId,
  target: opt(agentId),
  cause: opt(id16),
  cause_at: opt(fc.uint8Array({ minLength: 20, maxLength: 20 })),
  metadata: opt(metadata),
  signature: opt(signature),
});

/** The fields each kind may or must carry (agdx-v1.md, the per-kind validity matrix). */
function kindFields(kind: Kind): fc.Arbitrary<Partial<Envelope>> {
  const base = { record: id16, correlation: id16, body };
  switch (kind) {
    case 'command':
      return fc.record({ ...base, idempotency_key: opt(idemKey), deadline_micros: opt(uint), operation: opt(text), tool: opt(text) });
    case 'response':
      return fc.record({
        ...base,
        finish_reason: opt(text),
        idempotency_key: opt(idemKey),
        task_state: opt(fc.nat(255)),
        operation: opt(text),
        tool: opt(text),
        usage: opt(usage),
      });
    case 'event':
      return fc.record({
        ...base,
        correlation: opt(id16),
        idempotency_key: opt(idemKey),
        operation: opt(fc.oneof(text, fc.constantFrom('state_snapshot', 'state_delta'))),
        tool: opt(text),
        usage: opt(usage),
      });
    case 'error':
      return fc
        .record({ ...base, channel: opt(id16), sequence: opt(uint), task_state: opt(fc.nat(255)), operation: opt(text), tool: opt(text), usage: opt(usage) })
        .map((e) => (e.channel ? e : { ...e, sequence: undefined }));
    case 'status':
      return fc.constantFrom(...STATUS_OPERATIONS).chain((operation) =>
        fc.record({
          record: id16,
          operation: fc.constant(operation),
          correlation: operation === 'task' ? id16 : opt(id16),
          task_state: operation === 'task' ? fc.nat(255) : opt(fc.nat(255)),
          last: opt(fc.constant(true as const)),
          usage: opt(usage),
          body: opt(body),
        }),
      );
    case 'chunk':
      return fc.tuple(fc.boolean(), fc.boolean()).chain(([opening, last]) =>
        fc.record({
          record: opt(id16),
          correlation: id16,
          channel: id16,
          sequence: opening ? fc.constant(0) : uint.filter((s) => s !== 0),
          operation: opening ? fc.constantFrom(...CHUNK_PURPOSES) : fc.constant(undefined),
          deadline_micros: opening ? opt(uint) : fc.constant(undefined),
          last: fc.constant(last ? (true as const) : undefined),
          finish_reason: last ? opt(text) : fc.constant(undefined),
          usage: last ? opt(usage) : fc.constant(undefined),
          tool: opt(text),
          body: last ? opt(body) : body,
        }),
      );
  }
}

/** Envelopes the matrix, the caps and must_understand all accept (absent fields left out). */
const validEnvelope: fc.Arbitrary<Envelope> = fc.constantFrom(...KINDS).chain((kind) =>
  fc.tuple(common, kindFields(kind)).map(([c, k]) => {
    const env = { kind, ...c, ...k } as Record<string, unknown>;
    for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
    return env as unknown as Envelope;
  }),
);

const big = (n: number, unit = 'x') => unit.repeat(n);
const meta = (entries: [string, MetaValue][]): Partial<Envelope> => ({ metadata: new Map(entries) });
/** Values at and just past every cap (the first of each pair is allowed), and must_understand. */
const CAP_CASES: Partial<Envelope>[] = [
  ...[256, 257].flatMap((n): Partial<Envelope>[] => [
    { operation: big(n) },
    { tool: big(n) },
    { finish_reason: big(n) },
    { source: big(n) },
    { target: big(n) },
    { target: big(n >> 1, 'é') + big(n & 1) },
  ]),
  { idempotency_key: '' },
  { idempotency_key: big(64) },
  { idempotency_key: big(65) },
  { idempotency_key: big(32, 'é') },
  { idempotency_key: big(33, 'é') },
  { source: '' },
  { target: '' },
  // Control characters (C0, DEL, C1) are not allowed in an agent id; U+00A0 and U+2028 are.
  ...['\u0000', '\u001f', '\u007f', '\u0085', '\u009f', '\u00a0', '\u2028'].map((c): Partial<Envelope> => ({ source: `a${c}b` })),
  ...[32, 33].map((n) => meta(Array.from({ length: n }, (_, i): [string, MetaValue] => [`k${String(i).padStart(2, '0')}`, { type: 'null' }]))),
  ...[256, 257].map((n) => meta([[big(n, 'k'), { type: 'bool', value: true }]])),
  ...[1024, 1025].map((n) => meta([['v', { type: 'text', value: big(n) }]])),
  // A list's size is the sum of 1 + each item's size: 102 ints are 1020 bytes, 103 are 1030.
  ...[102, 103].map((n) => meta([['l', { type: 'list', items: Array.from({ length: n }, (): MetaValue => ({ type: 'int', value: 1 })) }]])),
  // Keys plus values: 8 × (2 + 1000) = 8016 allowed, 9 × 1002 = 9018 not.
  ...[8, 9].map((n) => meta(Array.from({ length: n }, (_, i): [string, MetaValue] => [`k${i}`, { type: 'text', value: big(1000) }]))),
  { must_understand: 1 },
  { must_understand: 2 ** 53 - 1 },
  { must_understand: 2n ** 64n - 1n },
  ...[7, 8, 9].flatMap((k) => [63, 64, 65].map((b): Partial<Envelope> => ({ signature: { scheme: 1, key_id: new Uint8Array(k), bytes: new Uint8Array(b) } }))),
  { signature: { scheme: 2, key_id: new Uint8Array(3), bytes: new Uint8Array(5) } },
];

/** A value for each field, to add where it is absent (a present one is removed instead). */
const TOGGLE: Record<string, unknown[]> = {
  kind: [...KINDS],
  record: [new Uint8Array(16).fill(1)],
  conversation: [new Uint8Array(16).fill(2)],
  source: ['planner'],
  target: ['executor'],
  cause: [new Uint8Array(16).fill(3)],
  cause_at: [new Uint8Array(20).fill(4)],
  correlation: [new Uint8Array(16).fill(5)],
  channel: [new Uint8Array(16).fill(6)],
  idempotency_key: ['job-1'],
  deadline_micros: [1_717_171_717_000_000],
  sequence: [0, 3],
  last: [true],
  finish_reason: ['stop'],
  task_state: [4, 200],
  operation: ['task', 'card', 'chat', 'tool_args', 'state_delta', 'other'],
  tool: ['search'],
  usage: [{ input_tokens: 1, output_tokens: 2 }],
  metadata: [new Map([['role', { type: 'text', value: 'user' }]])],
  must_understand: [4],
  body: [Uint8Array.of(0x7b, 0x7d)],
  signature: [{ scheme: 1, key_id: new Uint8Array(8), bytes: new Uint8Array(64) }],
};

/** Every single-field change of `env`: each field removed if present, else added with each value; the kind changed. */
function toggles(env: Envelope): Partial<Envelope>[] {
  const out: Partial<Envelope>[] = [];
  for (const [field, values] of Object.entries(TOGGLE)) {
    const present = (env as unknown as Record<string, unknown>)[field] !== undefined;
    if (field === 'kind') out.push(...values.filter((k) => k !== env.kind).map((kind) => ({ kind }) as Partial<Envelope>), { kind: undefined });
    else if (present) out.push({ [field]: undefined } as Partial<Envelope>);
    else out.push(...values.map((v) => ({ [field]: v }) as Partial<Envelope>));
  }
  return out;
}

/** A valid envelope of each shape the matrix tells apart (status by operation, chunk by position). */
const id = (n: number) => new Uint8Array(16).fill(n);
const BODY = Uint8Array.of(0x7b, 0x7d);
const SHAPES: Envelope[] = [
  { kind: 'command', record: id(1), correlation: id(5), body: BODY },
  { kind: 'response', record: id(1), correlation: id(5), body: BODY },
  { kind: 'event', record: id(1), body: BODY },
  { kind: 'error', record: id(1), correlation: id(5), body: BODY },
  { kind: 'error', record: id(1), correlation: id(5), channel: id(6), body: BODY },
  { kind: 'status', record: id(1), operation: 'task', correlation: id(5), task_state: 2 },
  ...['card', 'progress', 'quarantine', 'unquarantine'].map((operation): Envelope => ({ kind: 'status', record: id(1), operation }) as Envelope),
  { kind: 'chunk', correlation: id(5), channel: id(6), sequence: 0, operation: 'chat', body: BODY },
  { kind: 'chunk', correlation: id(5), channel: id(6), sequence: 3, body: BODY },
  { kind: 'chunk', correlation: id(5), channel: id(6), sequence: 3, last: true },
].map((e) => ({ conversation: id(2), source: 'planner', ...e }) as Envelope);

/** `env` with `change` applied (an undefined value removes the field). */
function withChange(env: Envelope, change: Partial<Envelope>): Envelope {
  const out = { ...env, ...change } as Record<string, unknown>;
  for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key];
  return out as unknown as Envelope;
}

/**
 * The canonical bytes of an envelope, which may lack a required field (kind, conversation, source:
 * the canonical encoder needs them, so such an envelope is written from its fields' model).
 */
function encode(env: Envelope): Uint8Array {
  const missing = (['kind', 'conversation', 'source'] as const).filter((k) => env[k] === undefined);
  if (!missing.length) return encodeEnvelope(env);
  const whole = { ...env, kind: env.kind ?? 'event', conversation: env.conversation ?? id(0), source: env.source ?? '-' };
  return encodeModel(asMap(envelopeFields(whole).filter(([k]) => !(missing as string[]).includes(k))), MINIMAL);
}

const capMutation: fc.Arbitrary<Partial<Envelope>> = fc.constantFrom(...CAP_CASES);
/** One field added, removed, or the kind changed: one cell of the matrix. */
const toggleMutation = (env: Envelope): fc.Arbitrary<Partial<Envelope>> => fc.constantFrom(...toggles(env));

/** Some fields replaced by those of a random envelope (absent there: removed): matrix violations. */
const mergeMutation: fc.Arbitrary<Partial<Envelope>> = fc
  .tuple(envelopeArb, fc.subarray([...ENVELOPE_FIELDS], { minLength: 1, maxLength: 3 }))
  .map(([other, fields]) => Object.fromEntries(fields.map((f) => [f, (other as unknown as Record<string, unknown>)[f]])) as Partial<Envelope>);

/** A valid envelope, or one with a mutation applied to its fields. */
const envelopeCase: fc.Arbitrary<Envelope> = validEnvelope.chain((env) =>
  fc
    .oneof(
      { weight: 2, arbitrary: fc.constant({}) },
      { weight: 3, arbitrary: toggleMutation(env) },
      { weight: 2, arbitrary: mergeMutation },
      { weight: 2, arbitrary: capMutation },
    )
    .map((change) => withChange(env, change)),
);

const textKey = (v: string): Model => ({ t: 'text', v });
const asMap = (fields: [string, Model][]): Model & { t: 'map' } => ({ t: 'map', entries: fields.map(([k, v]) => [textKey(k), v]) });

/** Field-level damage, on the CBOR model of an envelope. */
type ModelMutation =
  | { t: 'type'; field: string; value: Model }
  | { t: 'nested'; field: 'usage' | 'signature'; key: string; value: Model }
  | { t: 'duplicate'; at: number; value: Model | null }
  | { t: 'unknown'; entries: [Model, Model][] }
  | { t: 'metadata'; entries: [string, Model][] };

const modelMutation: fc.Arbitrary<ModelMutation> = fc.oneof(
  fc.record({ t: fc.constant('type' as const), field: fc.constantFrom(...ENVELOPE_FIELDS), value: fc.oneof(scalarModel, modelArb(2)) }),
  fc.record({
    t: fc.constant('nested' as const),
    field: fc.constantFrom('usage' as const, 'signature' as const),
    key: fc.constantFrom(...USAGE_FIELDS, 'scheme', 'key_id', 'bytes', 'context', 'x'),
    value: fc.oneof(scalarModel, modelArb(2), fc.constant<Model>(asMap([['content_type', { t: 'uint', v: 300n }]]))),
  }),
  fc.record({ t: fc.constant('duplicate' as const), at: fc.nat(30), value: fc.option(scalarModel, { nil: null }) }),
  fc.record({
    t: fc.constant('unknown' as const),
    entries: fc.array(fc.tuple(fc.oneof({ weight: 4, arbitrary: wellFormedString.map(textKey) }, { weight: 1, arbitrary: scalarModel }), modelArb(2)), {
      minLength: 1,
      maxLength: 3,
    }),
  }),
  fc.record({ t: fc.constant('metadata' as const), entries: fc.array(fc.tuple(wellFormedString, fc.oneof(scalarModel, modelArb(3))), { maxLength: 4 }) }),
);

/** The envelope's model with the mutation applied. */
function mutateModel(env: Envelope, m: ModelMutation): Model {
  const fields = envelopeFields(env);
  const at = (name: string) => fields.findIndex(([k]) => k === name);
  switch (m.t) {
    case 'type': {
      const i = at(m.field);
      if (i >= 0) fields[i] = [m.field, m.value];
      else fields.push([m.field, m.value]);
      return asMap(fields);
    }
    case 'nested': {
      const i = at(m.field);
      const inner =
        i >= 0 && fields[i][1].t === 'map' ? (fields[i][1] as Model & { t: 'map' }).entries.filter(([k]) => !(k.t === 'text' && k.v === m.key)) : [];
      const value = asMap([...inner.map(([k, v]) => [(k as { v: string }).v, v] as [string, Model]), [m.key, m.value]]);
      if (i >= 0) fields[i] = [m.field, value];
      else fields.push([m.field, value]);
      return asMap(fields);
    }
    case 'duplicate': {
      const [k, v] = fields[m.at % fields.length];
      fields.push([k, m.value ?? v]);
      return asMap(fields);
    }
    case 'unknown': {
      // Not a name any dialect gives a field: those are fields to ours.
      const known = ENVELOPE_FIELD_SET;
      const map = asMap(fields);
      for (const [k, v] of m.entries) if (!(k.t === 'text' && known.has(k.v))) map.entries.push([k, v]);
      return map;
    }
    case 'metadata': {
      const value: Model = { t: 'map', entries: m.entries.map(([k, v]) => [textKey(k), v]) };
      const i = at('metadata');
      if (i >= 0) fields[i] = ['metadata', value];
      else fields.push(['metadata', value]);
      return asMap(fields);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The properties
// ---------------------------------------------------------------------------------------------

describe('differential: the reference port and ours judge the same envelopes the same way', () => {
  // Not an assertion (the counts depend on the runs): which departures the inputs met, for the log.
  afterAll(() => {
    if (departures.size) console.info(`reference departures met: ${[...departures].map(([k, n]) => `${k} ×${n}`).join(', ')}`);
  });

  it('canonical envelopes, valid and breaking the matrix, the caps, must_understand and the signature shape', { timeout: TIMEOUT }, () => {
    let accepted = 0;
    let rejected = 0;
    fc.assert(
      fc.property(envelopeCase, (env) => {
        const { ref } = compare(encode(env), 'canonical');
        if (ref.accepted) accepted++;
        else rejected++;
      }),
      params('reference-canonical', 0.15),
    );
    // Both sides of the verdict were exercised.
    expect(accepted).toBeGreaterThan(0);
    expect(rejected).toBeGreaterThan(0);
  });

  it('every cell of the matrix and every cap, at its edge: each shape with each one-field change', () => {
    let accepted = 0;
    let cases = 0;
    for (const shape of SHAPES) {
      expect(compare(encode(shape), 'shape').ref.accepted, JSON.stringify(shape)).toBe(true);
      for (const change of [...toggles(shape), ...CAP_CASES]) {
        const { ref } = compare(encode(withChange(shape, change)), `${shape.kind} ${shape.operation ?? ''} with ${Object.keys(change).join(', ')}`);
        cases++;
        if (ref.accepted) accepted++;
      }
    }
    // Both verdicts are common: the sweep is not one-sided.
    expect(accepted).toBeGreaterThan(cases / 4);
    expect(accepted).toBeLessThan((cases * 3) / 4);
  });

  it('wrong field types, nested damage, repeated keys, unknown fields and any metadata', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(validEnvelope, modelMutation, (env, m) => {
        compare(encodeModel(mutateModel(env, m), MINIMAL), `model mutation ${m.t}`);
      }),
      params('reference-model', 0.15),
    );
  });

  it('any encoding of the same envelope: ours keeps its verdict; the port differs only by its CBOR strictness', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(envelopeCase, lenienceArb, styleArb, (env, lenience, style) => {
        fc.pre(env.kind !== undefined && env.conversation !== undefined && env.source !== undefined);
        const canonical = encode(env);
        const lenient = encodeModel(lenientModel(env, lenience), style);
        const { our: onCanonical } = compare(canonical, 'canonical');
        const { our } = compare(lenient, 'lenient');
        // Rust reads every well-formed encoding of an envelope as that envelope: so do we.
        expect(our.accepted, our.why).toBe(onCanonical.accepted);
      }),
      params('reference-lenient', 0.1),
    );
  });

  it('truncated, followed by more bytes, or with one bit flipped', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(envelopeCase, fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 4 }), fc.nat(), (env, cut, extra, flip) => {
        const bytes = encode(env);
        const truncated = bytes.subarray(0, cut % bytes.length);
        const { ref, our } = compare(truncated, 'truncated');
        expect([ref.accepted, our.accepted]).toEqual([false, false]);
        const longer = compare(cat(bytes, extra), 'trailing bytes');
        expect([longer.ref.accepted, longer.our.accepted]).toEqual([false, false]);
        const flipped = bytes.slice();
        flipped[(flip >> 3) % bytes.length] ^= 1 << (flip & 7);
        compare(flipped, 'one bit flipped');
      }),
      params('reference-damaged', 0.1),
    );
  });

  it('the laser fixtures', () => {
    // laser-wire's golden files, through both (records that are not envelopes: both reject).
    for (const name of [
      'agent_command',
      'agent_command_signed',
      'agent_response',
      'agent_event',
      'agent_chunk',
      'agent_chunk_open',
      'agent_chunk_terminal',
      'agent_status_task',
      'agent_status_card',
      'agent_status_run_metadata',
      'agent_error',
    ]) {
      const { ref, our } = compare(fixture(name), name);
      expect([ref.accepted, our.accepted], name).toEqual([true, true]);
    }
    for (const name of [
      'agent_must_understand',
      'agent_invalid_command_no_correlation',
      'agent_invalid_error_last',
      'agent_invalid_chunk_late_deadline',
      'agent_record',
      'agent_dead_letter',
    ]) {
      const { ref, our } = compare(fixture(name), name);
      expect([ref.accepted, our.accepted], name).toEqual([false, false]);
    }
  });
});

function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`../../../vectors/agdx/laser-wire-0.0.1/${name}.bin`, import.meta.url)));
}
