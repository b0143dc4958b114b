// Generators for AGDX envelopes: any value the decoder can hold, its canonical bytes, any lenient
// encoding of the same value (key order, wide heads, indefinite lengths, tags, explicit nulls,
// unknown fields), its JSON view, and Ed25519 signing with a public test seed.
import * as ed from '@noble/ed25519';
import fc from 'fast-check';
import { fromHex } from '../../src/core/bytes';
import { signingInput } from '../../src/core/agdx/verify';
import { ENVELOPE_FIELD_SET, ENVELOPE_FIELDS, KINDS, type Envelope, type MetaValue } from '../../src/core/agdx/envelope';
import { keyId, type RegisteredKey } from '../../src/core/keys/keys';
import { encodeModel, uint64Arb, wellFormedString, type Model } from './fuzz';

/** The reader's number-or-bigint for an unsigned value. */
const asRead = (v: bigint): number | bigint => (v < 2n ** 53n ? Number(v) : v);

const id16 = fc.uint8Array({ minLength: 16, maxLength: 16 });

/** Metadata keys sorted bytewise by UTF-8, as a BTreeMap is (computed here independently). */
function sortBytewise(keys: string[]): string[] {
  const enc = new TextEncoder();
  return [...keys].sort((a, b) => {
    const x = enc.encode(a);
    const y = enc.encode(b);
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
    return x.length - y.length;
  });
}

const metaScalar: fc.Arbitrary<MetaValue> = fc.oneof(
  wellFormedString.map((value) => ({ type: 'text' as const, value })),
  uint64Arb.map((v) => ({ type: 'int' as const, value: asRead(v) })),
  uint64Arb.map((v) => ({ type: 'int' as const, value: v === 0n ? 0 : v <= 2n ** 53n - 1n ? -Number(v) : -v })),
  fc.oneof(fc.double(), fc.constantFrom(NaN, Infinity, -Infinity, -0, 0.5, 1e300, 5e-324)).map((value) => ({ type: 'float' as const, value })),
  fc.boolean().map((value) => ({ type: 'bool' as const, value })),
  fc.constant({ type: 'null' as const }),
);

const metaValue: fc.Arbitrary<MetaValue> = fc.oneof(
  metaScalar,
  fc.array(metaScalar, { maxLength: 4 }).map((items) => ({ type: 'list' as const, items })),
);

const metadataArb: fc.Arbitrary<Map<string, MetaValue>> = fc
  .uniqueArray(
    fc.tuple(fc.oneof(wellFormedString, fc.constantFrom('__proto__', 'constructor', 'role', 'bridge_hops', '\u{10000}', '\uffff', '\ue000')), metaValue),
    {
      maxLength: 6,
      selector: ([k]) => k,
    },
  )
  .map((entries) => {
    const byKey = new Map(entries);
    return new Map(sortBytewise([...byKey.keys()]).map((k) => [k, byKey.get(k)!]));
  });

export const envelopeArb: fc.Arbitrary<Envelope> = fc
  .record(
    {
      kind: fc.constantFrom(...KINDS),
      record: id16,
      conversation: id16,
      source: wellFormedString,
      target: wellFormedString,
      cause: id16,
      cause_at: fc.uint8Array({ minLength: 20, maxLength: 20 }),
      correlation: id16,
      channel: id16,
      idempotency_key: wellFormedString,
      deadline_micros: uint64Arb.map(asRead),
      sequence: uint64Arb.map(asRead),
      last: fc.constant(true as const),
      finish_reason: wellFormedString,
      task_state: fc.integer({ min: 0, max: 255 }),
      operation: fc.oneof(wellFormedString, fc.constantFrom('task', 'card', 'progress', 'quarantine', 'unquarantine', 'chat', 'reasoning', 'tool_args')),
      tool: wellFormedString,
      usage: fc.record(
        {
          input_tokens: uint64Arb.map(asRead),
          output_tokens: uint64Arb.map(asRead),
          reasoning_output_tokens: uint64Arb.map(asRead),
          cache_read_input_tokens: uint64Arb.map(asRead),
          cache_creation_input_tokens: uint64Arb.map(asRead),
        },
        { requiredKeys: ['input_tokens', 'output_tokens'] },
      ),
      metadata: metadataArb,
      must_understand: uint64Arb.filter((v) => v !== 0n).map(asRead),
      body: fc.uint8Array({ minLength: 1, maxLength: 48 }),
      signature: fc.record(
        {
          scheme: fc.integer({ min: 0, max: 255 }),
          key_id: fc.uint8Array({ maxLength: 10 }),
          bytes: fc.uint8Array({ maxLength: 70 }),
          context: fc.record({ content_type: fc.integer({ min: 0, max: 255 }), agent_version: fc.integer({ min: 0, max: 0xffffffff }) }, { requiredKeys: [] }),
        },
        { requiredKeys: ['scheme', 'key_id', 'bytes'] },
      ),
    },
    { requiredKeys: ['kind', 'conversation', 'source'] },
  )
  .map((e) => e as Envelope);

/** Envelope fields in wire order, each as a model value. */
export function envelopeFields(env: Envelope): [string, Model][] {
  const out: [string, Model][] = [];
  const text = (v: string): Model => ({ t: 'text', v });
  const bytes = (v: Uint8Array): Model => ({ t: 'bytes', v });
  const uint = (v: number | bigint): Model => ({ t: 'uint', v: BigInt(v) });
  const map = (entries: [string, Model][]): Model => ({ t: 'map', entries: entries.map(([k, v]) => [text(k), v]) });
  const meta = (v: MetaValue): Model => {
    switch (v.type) {
      case 'text':
        return text(v.value);
      case 'int':
        return BigInt(v.value) >= 0n ? uint(v.value) : { t: 'nint', v: BigInt(v.value) };
      case 'float': {
        const dv = new DataView(new ArrayBuffer(8));
        dv.setFloat64(0, v.value);
        return { t: 'float', bits: dv.getBigUint64(0), width: 64 };
      }
      case 'bool':
        return { t: 'simple', v: v.value ? 21 : 20 };
      case 'null':
        return { t: 'simple', v: 22 };
      case 'list':
        return { t: 'array', items: v.items.map(meta) };
    }
  };
  const add = (k: string, v: Model | undefined) => {
    if (v) out.push([k, v]);
  };
  add('kind', text(env.kind));
  add('record', env.record && bytes(env.record));
  add('conversation', bytes(env.conversation));
  add('parent', env.parent && bytes(env.parent));
  add('root', env.root && bytes(env.root));
  add('source', text(env.source));
  add('target', env.target !== undefined ? text(env.target) : undefined);
  add('cause', env.cause && bytes(env.cause));
  add('cause_at', env.cause_at && bytes(env.cause_at));
  add('correlation', env.correlation && bytes(env.correlation));
  add('channel', env.channel && bytes(env.channel));
  add('idempotency_key', env.idempotency_key !== undefined ? text(env.idempotency_key) : undefined);
  add('deadline_micros', env.deadline_micros !== undefined ? uint(env.deadline_micros) : undefined);
  add('sequence', env.sequence !== undefined ? uint(env.sequence) : undefined);
  add('last', env.last ? { t: 'simple', v: 21 } : undefined);
  add('finish_reason', env.finish_reason !== undefined ? text(env.finish_reason) : undefined);
  add('task_state', env.task_state !== undefined ? uint(env.task_state) : undefined);
  add('operation', env.operation !== undefined ? text(env.operation) : undefined);
  add('tool', env.tool !== undefined ? text(env.tool) : undefined);
  if (env.usage) {
    const u = env.usage;
    add(
      'usage',
      map(
        (['input_tokens', 'output_tokens', 'reasoning_output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens', 'cost_micros'] as const)
          .filter((k) => u[k] !== undefined)
          .map((k) => [k, uint(u[k]!)]),
      ),
    );
  }
  if (env.metadata) add('metadata', map([...env.metadata].map(([k, v]) => [k, meta(v)])));
  add('must_understand', env.must_understand !== undefined ? uint(env.must_understand) : undefined);
  add('body', env.body && bytes(env.body));
  if (env.signature) {
    const s = env.signature;
    const entries: [string, Model][] = [
      ['scheme', uint(s.scheme)],
      ['key_id', bytes(s.key_id)],
      ['bytes', bytes(s.bytes)],
    ];
    if (s.context) {
      const c: [string, Model][] = [];
      if (s.context.content_type !== undefined) c.push(['content_type', uint(s.context.content_type)]);
      if (s.context.agent_version !== undefined) c.push(['agent_version', uint(s.context.agent_version)]);
      entries.push(['context', map(c)]);
    }
    add('signature', map(entries));
  }
  return out;
}

export interface Lenience {
  /** A permutation seed for the field order (0 = wire order). */
  shuffle: number;
  /** Fields wrapped in a tag (by index). */
  tagged: number[];
  /** Absent optional fields written as explicit null. */
  nulls: string[];
  /** Unknown fields added. */
  unknown: [string, Model][];
}

/** The fields the model always writes (the required ones, and last and must_understand with their defaults). */
const ALWAYS_WRITTEN: ReadonlySet<string> = new Set(['kind', 'conversation', 'source', 'last', 'must_understand']);
/** The fields an envelope may leave out, in declaration order. */
export const OPTIONAL_FIELDS = ENVELOPE_FIELDS.filter((f) => !ALWAYS_WRITTEN.has(f));

/** An envelope as a model written leniently: same meaning, other bytes. */
export function lenientModel(env: Envelope, l: Lenience): Model {
  const fields = envelopeFields(env);
  const present = new Set(fields.map(([k]) => k));
  for (const n of l.nulls) if (!present.has(n)) fields.push([n, { t: 'simple', v: 22 }]);
  const known: ReadonlySet<string> = ENVELOPE_FIELD_SET;
  for (const [k, v] of l.unknown) if (!known.has(k) && !fields.some(([f]) => f === k)) fields.push([k, v]);
  // A deterministic shuffle.
  let s = l.shuffle;
  for (let i = fields.length - 1; i > 0 && s !== 0; i--) {
    s = (Math.imul(s, 1103515245) + 12345) | 0;
    const j = Math.abs(s) % (i + 1);
    [fields[i], fields[j]] = [fields[j], fields[i]];
  }
  return {
    t: 'map',
    entries: fields.map(([k, v], i) => [{ t: 'text', v: k }, l.tagged.includes(i) ? { t: 'tag', tag: 24n + BigInt(i), item: v } : v] as [Model, Model]),
  };
}

export const lenienceArb: fc.Arbitrary<Lenience> = fc.record({
  shuffle: fc.integer(),
  tagged: fc.array(fc.nat(24), { maxLength: 3 }),
  nulls: fc.subarray(OPTIONAL_FIELDS, { maxLength: 3 }),
  unknown: fc.array(
    fc.tuple(
      fc.oneof(wellFormedString, fc.constantFrom('__proto__', 'constructor', 'x-extra')),
      fc.oneof(fc.constant<Model>({ t: 'uint', v: 1n }), fc.constant<Model>({ t: 'text', v: 'javascript:alert(1)' })),
    ),
    { maxLength: 2 },
  ),
});

/**
 * A comparable form of an envelope: ints as `int:` strings whatever their JS type, floats by their
 * exact value (-0 and NaN kept apart), bytes as hex, Maps as entry lists.
 */
export function normEnvelope(v: unknown): unknown {
  if (typeof v === 'bigint') return `int:${v}`;
  if (typeof v === 'number') return `int:${BigInt(v)}`;
  if (v instanceof Uint8Array) return `hex:${Buffer.from(v).toString('hex')}`;
  if (v instanceof Map) return [...v].map(([k, x]) => [k, normEnvelope(x)]);
  if (Array.isArray(v)) return v.map(normEnvelope);
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (o.type === 'float') {
      const f = o.value as number;
      return `float:${Number.isNaN(f) ? 'NaN' : Object.is(f, -0) ? '-0' : String(f)}`;
    }
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(o).sort()) if (o[k] !== undefined) out[k] = normEnvelope(o[k]);
    return out;
  }
  return v;
}

/** The JSON view of an envelope (byte strings as arrays of integers), or null when a float has no JSON form. */
export function jsonView(env: Envelope): string | null {
  let ok = true;
  const num = (v: number | bigint) => BigInt(v).toString();
  const meta = (m: MetaValue): string => {
    switch (m.type) {
      case 'text':
        return JSON.stringify(m.value);
      case 'int':
        return num(m.value);
      case 'float': {
        if (!Number.isFinite(m.value)) {
          ok = false;
          return 'null';
        }
        if (Object.is(m.value, -0)) return '-0.0';
        const t = String(m.value);
        return /[.e]/.test(t) ? t : `${t}.0`;
      }
      case 'bool':
        return String(m.value);
      case 'null':
        return 'null';
      case 'list':
        return `[${m.items.map(meta).join(',')}]`;
    }
  };
  const value = (k: string, v: unknown): string => {
    if (v instanceof Uint8Array) return `[${Array.from(v).join(',')}]`;
    if (typeof v === 'string') return JSON.stringify(v);
    if (typeof v === 'number' || typeof v === 'bigint') return num(v);
    if (typeof v === 'boolean') return String(v);
    if (k === 'metadata') return `{${[...(v as Map<string, MetaValue>)].map(([mk, mv]) => `${JSON.stringify(mk)}:${meta(mv)}`).join(',')}}`;
    return `{${Object.entries(v as object)
      .filter(([, x]) => x !== undefined)
      .map(([ik, x]) => `${JSON.stringify(ik)}:${value(ik, x)}`)
      .join(',')}}`;
  };
  const text = `{${Object.entries(env)
    .filter(([, x]) => x !== undefined)
    .map(([k, x]) => `${JSON.stringify(k)}:${value(k, x)}`)
    .join(',')}}`;
  return ok ? text : null;
}

export const SEED7 = new Uint8Array(32).fill(7);

export function keyFor(seed: Uint8Array, agent: string): RegisteredKey {
  const pub = ed.getPublicKey(seed);
  return { id: keyId(pub), agent, algorithm: 'ed25519', publicKey: pub, kind: 'operator', notBeforeMicros: null, notAfterMicros: null, revoked: false };
}

/** The envelope signed (Ed25519, scheme 1) by `seed`. */
export function signEnvelope(env: Envelope, seed: Uint8Array): Envelope {
  const pub = ed.getPublicKey(seed);
  const unsigned: Envelope = { ...env, signature: { scheme: 1, key_id: fromHex(keyId(pub))!, bytes: new Uint8Array(64) } };
  return { ...unsigned, signature: { ...unsigned.signature!, bytes: ed.sign(signingInput(unsigned), seed) } };
}

// ---------------------------------------------------------------------------------------------
// The laser-sdk 0.7 dialect: lineage, cost, paused, session statuses and the bodies of their own
// ---------------------------------------------------------------------------------------------

/** A CBOR value of a body, as a model: maps of text keys, byte strings, integers, text, lists. */
type BodyValue = string | number | bigint | boolean | null | Uint8Array | BodyValue[] | { [key: string]: BodyValue };

function bodyModel(v: BodyValue): Model {
  if (v === null) return { t: 'simple', v: 22 };
  if (typeof v === 'boolean') return { t: 'simple', v: v ? 21 : 20 };
  if (typeof v === 'string') return { t: 'text', v };
  if (typeof v === 'number' || typeof v === 'bigint') return BigInt(v) >= 0n ? { t: 'uint', v: BigInt(v) } : { t: 'nint', v: BigInt(v) };
  if (v instanceof Uint8Array) return { t: 'bytes', v };
  if (Array.isArray(v)) return { t: 'array', items: v.map(bodyModel) };
  return { t: 'map', entries: Object.entries(v).map(([k, x]) => [{ t: 'text', v: k }, bodyModel(x)] as [Model, Model]) };
}

const position20 = fc.uint8Array({ minLength: 20, maxLength: 20 });
const agentName = fc.oneof(fc.constantFrom('planner', 'critic', ''), wellFormedString);
const smallUint = fc.oneof(fc.nat(1000), fc.constant(2 ** 32), fc.constant(-1));
const sourceRef: fc.Arbitrary<BodyValue> = fc.oneof(
  fc.record({
    Message: fc.record(
      { stream: smallUint, topic: smallUint, partition: smallUint, offset: fc.nat(), generation: fc.nat() },
      { requiredKeys: ['stream', 'topic', 'partition', 'offset'] },
    ),
  }),
  fc.record({ Memory: fc.record({ id: wellFormedString }) }),
  fc.record({ Kv: fc.record({ namespace: wellFormedString, key: wellFormedString }) }),
  fc.constant('Message'),
);

/** The values of each 0.7 body shape: mostly well formed, with fields left out or of another type now and then. */
const SHAPES: Record<string, fc.Arbitrary<BodyValue>> = {
  start: fc.record(
    {
      label: wellFormedString,
      namespace: fc.oneof(fc.constant('agents'), wellFormedString),
      agent: agentName,
      sdk: fc.record({ language: fc.constant('typescript'), version: fc.constant('0.7.0') }, { requiredKeys: ['language'] }),
      parent: fc.oneof(id16, fc.uint8Array({ maxLength: 17 })),
      root: id16,
      idle_timeout_micros: fc.oneof(fc.nat(), fc.constant('soon')),
      budget: fc.record({ tokens: fc.nat(), cost_micros: fc.nat() }, { requiredKeys: [] }),
      tags: fc.array(fc.oneof(fc.constant('demo'), wellFormedString), { maxLength: 18 }),
    },
    { requiredKeys: ['agent', 'sdk'] },
  ),
  transition: fc.record({ actor: agentName, acknowledges: fc.oneof(position20, fc.uint8Array({ maxLength: 21 })) }, { requiredKeys: [] }),
  end: fc.record(
    {
      reason: wellFormedString,
      error: fc.record({ code: fc.oneof(fc.nat(255), fc.constant(256)), message: wellFormedString, retryable: fc.boolean() }, { requiredKeys: ['code'] }),
    },
    { requiredKeys: [] },
  ),
  session_parking: fc.record({ source: sourceRef, role: agentName, request: position20 }, { requiredKeys: ['source', 'role'] }),
  state_delta: fc.record(
    {
      base_revision: fc.nat(),
      patch: fc.array(
        fc.oneof(
          fc.record({
            op: fc.constantFrom('add', 'replace', 'test'),
            path: fc.constant('/a'),
            value: fc.oneof(fc.nat(), wellFormedString, fc.constant(2 ** 53)),
          }),
          fc.record({ op: fc.constant('remove'), path: fc.constant('/a') }),
          fc.record({ op: fc.constantFrom('move', 'copy', 'increment'), from: fc.constant('/b'), path: fc.constant('/a') }, { requiredKeys: ['op', 'path'] }),
        ),
        { maxLength: 4 },
      ),
      op_id: fc.oneof(fc.constant('op-1'), fc.constant('')),
    },
    { requiredKeys: ['base_revision', 'patch'] },
  ),
  state_snapshot: fc.record(
    { base_revision: fc.nat(), document: fc.oneof(fc.constant({ goal: 'ship' }), fc.constant(new Uint8Array(1))) },
    { requiredKeys: ['base_revision'] },
  ),
  context_manifest: fc.record(
    {
      policy: fc.constant('recent'),
      policy_version: fc.constant('1'),
      fragments: fc.array(
        fc.oneof(
          fc.record({ Message: fc.record({ at: sourceRef, tokens: fc.nat(100), bytes: fc.nat(400) }) }),
          fc.record({
            Memory: fc.record(
              { id: wellFormedString, digest: fc.uint8Array({ minLength: 31, maxLength: 32 }), tokens: fc.nat(100), bytes: fc.nat(400) },
              { requiredKeys: ['tokens', 'bytes'] },
            ),
          }),
          fc.record({ State: fc.record({ key: fc.constant('goal'), revision: fc.nat(), tokens: fc.nat(100), bytes: fc.nat(400) }) }),
        ),
        { maxLength: 3 },
      ),
      tokens: fc.nat(),
      bytes: fc.nat(),
      frontier: fc.array(fc.oneof(fc.tuple(fc.nat(10), fc.nat(10), fc.nat()), fc.tuple(fc.nat(10), fc.nat(10))), { maxLength: 2 }),
      correlation: id16,
    },
    { requiredKeys: ['policy', 'policy_version', 'fragments', 'tokens', 'bytes', 'frontier'] },
  ),
  context_compaction: fc.record(
    {
      summary_at: sourceRef,
      covered: fc.array(fc.tuple(fc.nat(10), fc.nat(10), fc.nat(), fc.nat()), { maxLength: 2 }),
      summarizer: fc.record({ name: fc.constant('s'), version: fc.constant('1') }),
    },
    { requiredKeys: ['summary_at', 'covered'] },
  ),
  context_retrieval: fc.record(
    {
      query: wellFormedString,
      items: fc.array(fc.tuple(wellFormedString, fc.oneof(fc.nat(), fc.constant('0.5') as fc.Arbitrary<BodyValue>)), { maxLength: 3 }),
    },
    { requiredKeys: ['items'] },
  ),
};

/** A body of `shape` (a well-formed value or one broken here and there), as CBOR. */
const shapedBody = (shape: string): fc.Arbitrary<Uint8Array> => SHAPES[shape].map((v) => encodeModel(bodyModel(v)));

/** The operations 0.7 gives a body of its own, by kind, and the shape of each. */
const SHAPED: [Envelope['kind'], string, string][] = [
  ['event', 'session_parked', 'session_parking'],
  ['event', 'session_unparked', 'session_parking'],
  ['event', 'state_delta', 'state_delta'],
  ['event', 'state_snapshot', 'state_snapshot'],
  ['event', 'context_assembled', 'context_manifest'],
  ['event', 'context_compacted', 'context_compaction'],
  ['event', 'context_retrieved', 'context_retrieval'],
];

/**
 * Envelopes of the laser-sdk 0.7 dialect: any envelope of envelopeArb with lineage (now and then
 * naming its own conversation, or a root alone), a cost, task state paused, a session status of any
 * state with a start, transition or end body, or an event with one of 0.7's bodies.
 */
/** Envelopes a 0.7 reader accepts as they are (so lineage, states and bodies decide their verdicts). */
const valid07Base: fc.Arbitrary<Envelope> = fc
  .record({
    kind: fc.constantFrom('command', 'event', 'response', 'status'),
    record: id16,
    conversation: id16,
    source: fc.constantFrom('planner', 'critic', 'ünïcode-agent'),
    correlation: id16,
    body: fc.uint8Array({ minLength: 1, maxLength: 24 }),
    usage: fc.record({ input_tokens: fc.nat(), output_tokens: fc.nat() }),
    task_state: fc.integer({ min: 1, max: 10 }),
  })
  .map(({ kind, usage, task_state, ...rest }) => {
    const env: Envelope = { kind, ...rest };
    if (kind === 'response') env.usage = usage;
    if (kind === 'status') Object.assign(env, { operation: 'task', task_state });
    return env;
  });

export const envelope07Arb: fc.Arbitrary<Envelope> = fc
  .tuple(
    fc.oneof(envelopeArb, valid07Base),
    fc.record(
      {
        parent: fc.oneof(id16, fc.constant('conversation' as const)),
        root: fc.oneof(id16, fc.constant('conversation' as const)),
        cost_micros: uint64Arb.map(asRead),
        paused: fc.constant(true),
      },
      { requiredKeys: [] },
    ),
    fc.oneof(
      { weight: 2, arbitrary: fc.constant(null) },
      {
        weight: 3,
        arbitrary: fc
          .tuple(fc.oneof(fc.integer({ min: 1, max: 11 }), fc.constant(200)), fc.constantFrom('start', 'transition', 'end'), fc.boolean())
          .chain(([state, shape, last]) => shapedBody(shape).map((body) => ({ kind: 'status' as const, operation: 'session', state, last, body }))),
      },
      {
        weight: 2,
        arbitrary: fc
          .constantFrom(...SHAPED)
          .chain(([kind, operation, shape]) => shapedBody(shape).map((body) => ({ kind, operation, state: null, last: false, body }))),
      },
    ),
  )
  .map(([base, extra, shaped]) => {
    const env: Envelope = { ...base };
    if (extra.parent) env.parent = extra.parent === 'conversation' ? env.conversation : extra.parent;
    if (extra.root) env.root = extra.root === 'conversation' ? env.conversation : extra.root;
    if (extra.cost_micros !== undefined && env.usage) env.usage = { ...env.usage, cost_micros: extra.cost_micros };
    if (extra.paused) env.task_state = 10;
    if (shaped) {
      env.kind = shaped.kind;
      env.operation = shaped.operation;
      env.body = shaped.body;
      if (shaped.state !== null) env.task_state = shaped.state;
      else delete env.task_state;
      if (shaped.last) env.last = true;
      else delete env.last;
    }
    return env;
  });
