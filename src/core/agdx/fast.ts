// A fast path for bulk loading: reads an envelope straight from its bytes, without building a CBOR
// item tree, and only when the bytes are exactly canonical (shortest heads, definite lengths, keys
// in declaration order, no nulls, no tags, shortest floats, sorted metadata). Anything else returns
// null and the general decoder (envelope.ts) handles it, so the fast path never decides a case the
// general one would decide differently: on canonical bytes both give the same Envelope.
import { numberToHalf } from '../cbor/encoder';
import { halfToNumber } from '../cbor/reader';
import { utf8Range } from '../bytes';
import { KINDS, LATEST, type Kind, type WireType } from './dialects';
import type { Envelope, MetaValue, SignatureCapsule, Usage } from './envelope';
import { USAGE_FIELDS } from './envelope';
import { METADATA_MAX_ENTRIES, METADATA_MAX_VALUE_BYTES } from './validate';

const enc = new TextEncoder();
// The fields as the newest dialect lists them (dialects.ts): their names' bytes, how each is
// written (as a small number, for a jump table), and their names (envelopeOf's, checked below).
const FIELDS = LATEST.fields;
const FIELD_KEYS = keys(FIELDS.map((f) => f.name));
const FIELD_NAMES = FIELDS.map((f) => f.name);
const WIRE_CODES: Record<WireType, number> = {
  kind: 0,
  id: 1,
  position: 2,
  text: 3,
  uint: 4,
  u8: 5,
  true: 6,
  nonzero: 7,
  bytes: 8,
  usage: 9,
  metadata: 10,
  signature: 11,
};
const FIELD_WIRE = Uint8Array.from(FIELDS, (f) => WIRE_CODES[f.wire]);
/**
 * A new envelope with every field of the newest dialect absent, written out as one literal: every
 * envelope the fast path makes has one hidden class. It lists the fields in the table's order,
 * which is checked when this module loads: a dialect that adds a field fails here until the field
 * is added here and in `store`.
 */
function blank(): Record<string, unknown> {
  return {
    kind: undefined,
    record: undefined,
    conversation: undefined,
    parent: undefined,
    root: undefined,
    source: undefined,
    target: undefined,
    cause: undefined,
    cause_at: undefined,
    correlation: undefined,
    channel: undefined,
    idempotency_key: undefined,
    deadline_micros: undefined,
    sequence: undefined,
    last: undefined,
    finish_reason: undefined,
    task_state: undefined,
    operation: undefined,
    tool: undefined,
    usage: undefined,
    metadata: undefined,
    must_understand: undefined,
    body: undefined,
    signature: undefined,
  };
}

/**
 * Stores field `f` (its index in the table) of `env`: one named store per field, each site seeing
 * one property (a store under a name that varies was a megamorphic keyed store, and collecting the
 * values in an array first cost a copy and a reset per record).
 */
function store(env: Record<string, unknown>, f: number, v: unknown): void {
  switch (f) {
    case 0:
      env.kind = v;
      break;
    case 1:
      env.record = v;
      break;
    case 2:
      env.conversation = v;
      break;
    case 3:
      env.parent = v;
      break;
    case 4:
      env.root = v;
      break;
    case 5:
      env.source = v;
      break;
    case 6:
      env.target = v;
      break;
    case 7:
      env.cause = v;
      break;
    case 8:
      env.cause_at = v;
      break;
    case 9:
      env.correlation = v;
      break;
    case 10:
      env.channel = v;
      break;
    case 11:
      env.idempotency_key = v;
      break;
    case 12:
      env.deadline_micros = v;
      break;
    case 13:
      env.sequence = v;
      break;
    case 14:
      env.last = v;
      break;
    case 15:
      env.finish_reason = v;
      break;
    case 16:
      env.task_state = v;
      break;
    case 17:
      env.operation = v;
      break;
    case 18:
      env.tool = v;
      break;
    case 19:
      env.usage = v;
      break;
    case 20:
      env.metadata = v;
      break;
    case 21:
      env.must_understand = v;
      break;
    case 22:
      env.body = v;
      break;
    default:
      env.signature = v;
      break;
  }
}

// The literal's keys and the stores' fields follow the table, checked once as the module loads.
{
  const probe = blank();
  if (Object.keys(probe).join() !== FIELD_NAMES.join()) throw new TypeError("fast.ts: blank() does not list the newest dialect's fields in their order");
  for (let f = 0; f < FIELD_NAMES.length; f++) store(probe, f, f);
  if (FIELD_NAMES.some((name, f) => probe[name] !== f)) throw new TypeError("fast.ts: store() does not store the newest dialect's fields by their index");
}
const USAGE_KEYS = keys(USAGE_FIELDS);
const SIG_FIELDS = ['scheme', 'key_id', 'bytes', 'context'] as const;
const SIG_KEYS = keys(SIG_FIELDS);
const CTX_FIELDS = ['content_type', 'agent_version'] as const;
const CTX_KEYS = keys(CTX_FIELDS);
const KIND_KEYS = keys(KINDS);

/** Thrown inside the fast reader when the bytes leave the canonical subset. */
const NOT_FAST = Symbol('not-fast');

export interface FastEnvelope {
  envelope: Envelope;
  /** Offset just past the envelope. */
  end: number;
  /** The body's content bytes, when there is a body. */
  bodyStart: number;
  bodyEnd: number;
}

/**
 * The 16-byte ids met in one input, by their bytes, so that a repeated id (the conversation of
 * every record of it, a correlation, the record a cause names) is one shared view rather than a new
 * one per field: most of what a decoded log keeps is these views. Made per input by the caller
 * (it holds views of that input, so it must not outlive it). A direct-mapped table that keeps each
 * slot's id (four 32-bit words) beside its view, so a lookup reads this table and not the input again; a
 * collision only costs a new view.
 */
export class IdViews {
  private readonly mask: number;
  /** Each slot's id as four 32-bit words (compared word by word, never read from the input again). */
  private readonly held: Int32Array;
  private readonly views: (Uint8Array | undefined)[];

  /** `inputLength`: the size of the input, which bounds how many ids it can hold (and so the table's). */
  constructor(inputLength: number) {
    // An envelope with an id takes more than 32 bytes: a small input gets a small table, a large
    // one 4096 slots (about 100 KB, next to megabytes of input).
    let slots = 16;
    while (slots < 4096 && slots * 32 < inputLength) slots *= 2;
    this.mask = slots - 1;
    this.held = new Int32Array(slots * 4);
    this.views = new Array<Uint8Array | undefined>(slots).fill(undefined);
  }

  /** The view of `bytes[at, at + 16)`: one made before for the same 16 bytes, or a new one. */
  view(bytes: Uint8Array, at: number): Uint8Array {
    // The four 32-bit words, each multiplied on its own (not a chain of 16 multiplies), then mixed.
    const w0 = (bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3];
    const w1 = (bytes[at + 4] << 24) | (bytes[at + 5] << 16) | (bytes[at + 6] << 8) | bytes[at + 7];
    const w2 = (bytes[at + 8] << 24) | (bytes[at + 9] << 16) | (bytes[at + 10] << 8) | bytes[at + 11];
    const w3 = (bytes[at + 12] << 24) | (bytes[at + 13] << 16) | (bytes[at + 14] << 8) | bytes[at + 15];
    let h = Math.imul(w0, 0x9e3779b1) ^ Math.imul(w1, 0x85ebca77) ^ Math.imul(w2, 0xc2b2ae3d) ^ Math.imul(w3, 0x27d4eb2f);
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
    h ^= h >>> 13;
    const slot = h & this.mask;
    const held = this.held;
    const o = slot << 2;
    const seen = this.views[slot];
    if (seen !== undefined && held[o] === w0 && held[o + 1] === w1 && held[o + 2] === w2 && held[o + 3] === w3) return seen;
    // A miss is about one id a record (its own): the view made as viewOf makes one.
    const made = new Uint8Array(bytes.buffer, bytes.byteOffset + at, 16);
    this.views[slot] = made;
    held[o] = w0;
    held[o + 1] = w1;
    held[o + 2] = w2;
    held[o + 3] = w3;
    return made;
  }
}

// The reader's state: the bytes and the position in them. Module-level rather than an object per
// envelope (this runs once per record of a large log); every read sets both before it starts, and
// nothing here calls out, so no two reads interleave.
let b: Uint8Array = new Uint8Array(0);
let pos = 0;
/** Where the bytes the read may use end (a window of `b`, without a view made for it per read). */
let limit = 0;
let ids: IdViews | null = null;
/** The buffer and offset of `b`. */
let bBuffer: ArrayBufferLike = new ArrayBuffer(0);
let bOffset = 0;

/**
 * `n` bytes of the input being read at `at`, as a view: the constructor, not `subarray`, which goes
 * through the species lookup and took twice as long per view (four or more views a record), over
 * the input's buffer and offset as read when the read began (bBuffer, bOffset: getters each).
 */
const viewOf = (at: number, n: number): Uint8Array => new Uint8Array(bBuffer, bOffset + at, n);

/** A minimal head of `major`; returns its argument (number or bigint). */
function head(major: number): number | bigint {
  if (pos >= limit) throw NOT_FAST;
  const ib = b[pos++];
  if (ib >> 5 !== major) throw NOT_FAST;
  const ai = ib & 31;
  if (ai < 24) return ai;
  const p = pos;
  if (ai === 24) {
    if (p + 1 > limit || b[p] < 24) throw NOT_FAST;
    pos += 1;
    return b[p];
  }
  if (ai === 25) {
    if (p + 2 > limit) throw NOT_FAST;
    const v = (b[p] << 8) | b[p + 1];
    if (v <= 0xff) throw NOT_FAST;
    pos += 2;
    return v;
  }
  if (ai === 26) {
    if (p + 4 > limit) throw NOT_FAST;
    const v = ((b[p] << 24) >>> 0) + (b[p + 1] << 16) + (b[p + 2] << 8) + b[p + 3];
    if (v <= 0xffff) throw NOT_FAST;
    pos += 4;
    return v;
  }
  if (ai === 27) {
    if (p + 8 > limit) throw NOT_FAST;
    const hi = ((b[p] << 24) >>> 0) + (b[p + 1] << 16) + (b[p + 2] << 8) + b[p + 3];
    const lo = ((b[p + 4] << 24) >>> 0) + (b[p + 5] << 16) + (b[p + 6] << 8) + b[p + 7];
    if (hi === 0) throw NOT_FAST;
    pos += 8;
    return hi < 0x200000 ? hi * 0x100000000 + lo : (BigInt(hi) << 32n) | BigInt(lo);
  }
  throw NOT_FAST;
}

function len(major: number): number {
  const n = head(major);
  if (typeof n !== 'number' || n > limit - pos) throw NOT_FAST;
  return n;
}

function bytes(): Uint8Array {
  const n = len(2);
  const out = viewOf(pos, n);
  pos += n;
  return out;
}

/** A 16-byte id: shared with an earlier field of the same bytes when the caller keeps IdViews. */
function id(): Uint8Array {
  if (b[pos] !== 0x50) throw NOT_FAST;
  pos++;
  if (pos + 16 > limit) throw NOT_FAST;
  const out = ids !== null ? ids.view(b, pos) : viewOf(pos, 16);
  pos += 16;
  return out;
}

function fixedBytes(size: number): Uint8Array {
  if (b[pos] !== 0x40 + size) throw NOT_FAST;
  pos++;
  if (pos + size > limit) throw NOT_FAST;
  const out = viewOf(pos, size);
  pos += size;
  return out;
}

function text(): string {
  return textContent(len(3));
}

/** `n` bytes of UTF-8 text at the current position. */
function textContent(n: number): string {
  const p = pos;
  pos += n;
  const t = utf8Range(b, p, p + n);
  if (t === null) throw NOT_FAST;
  return t;
}

/** The kind, matched by its bytes: the shared constant string, never a new one. */
function kind(): Kind {
  // A kind is text matched as a key is (not a kind, or not one spelt exactly: the general decoder
  // names the problem).
  return KINDS[key(KIND_KEYS, 0)];
}

function uint(max?: number): number | bigint {
  const v = head(0);
  if (max !== undefined && (typeof v !== 'number' || v > max)) throw NOT_FAST;
  return v;
}

/**
 * Keys to match (key()), in declaration order, each also as its length and its first four bytes
 * packed in one number: a key is compared four bytes at once first, then byte by byte from the
 * fifth (matching every key byte by byte was a twentieth of a bulk read).
 */
interface Keys {
  readonly names: readonly Uint8Array[];
  readonly lengths: Int32Array;
  readonly heads: Int32Array;
}

function keys(names: readonly string[]): Keys {
  const bytes = names.map((n) => enc.encode(n));
  return { names: bytes, lengths: Int32Array.from(bytes, (n) => n.length), heads: Int32Array.from(bytes, (n) => headOf(n, 0, n.length)) };
}

/** The first four bytes (fewer when shorter) of `bytes[at, at + n)`, packed big-endian. */
function headOf(bytes: Uint8Array, at: number, n: number): number {
  let h = 0;
  for (let i = 0; i < 4 && i < n; i++) h = (h << 8) | bytes[at + i];
  return h;
}

/** Matches the next key against `keys` from index `from` on (declaration order); returns its index. */
function key(table: Keys, from: number): number {
  const ib = b[pos];
  let n: number;
  let p: number;
  if (ib >= 0x60 && ib < 0x78) {
    n = ib - 0x60;
    p = pos + 1;
  } else if (ib === 0x78) {
    n = b[pos + 1];
    if (n < 24) throw NOT_FAST;
    p = pos + 2;
  } else throw NOT_FAST;
  if (p + n > limit) throw NOT_FAST;
  const head = n >= 4 ? (b[p] << 24) | (b[p + 1] << 16) | (b[p + 2] << 8) | b[p + 3] : headOf(b, p, n);
  const { names, lengths, heads } = table;
  for (let i = from; i < names.length; i++) {
    if (lengths[i] !== n || heads[i] !== head) continue;
    const name = names[i];
    let j = 4;
    while (j < n && b[p + j] === name[j]) j++;
    if (j >= n) {
      pos = p + n;
      return i;
    }
  }
  throw NOT_FAST;
}

function float(): number {
  const ib = b[pos];
  const p = pos + 1;
  let v: number;
  if (ib === 0xf9) {
    if (p + 2 > limit) throw NOT_FAST;
    v = halfToNumber((b[p] << 8) | b[p + 1]);
    pos = p + 2;
    if (Number.isNaN(v) && !(b[p] === 0x7e && b[p + 1] === 0)) throw NOT_FAST;
    return v;
  }
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (ib === 0xfa) {
    if (p + 4 > limit) throw NOT_FAST;
    v = dv.getFloat32(p);
    pos = p + 4;
    if (Number.isNaN(v) || numberToHalf(v) !== null) throw NOT_FAST;
    return v;
  }
  if (ib === 0xfb) {
    if (p + 8 > limit) throw NOT_FAST;
    v = dv.getFloat64(p);
    pos = p + 8;
    if (Number.isNaN(v) || Math.fround(v) === v) throw NOT_FAST;
    return v;
  }
  throw NOT_FAST;
}

function meta(inList: boolean): MetaValue {
  const ib = b[pos];
  const major = ib >> 5;
  if (major === 3) return { type: 'text', value: text() };
  if (major === 0) return { type: 'int', value: head(0) };
  if (major === 1) {
    const a = head(1);
    return { type: 'int', value: typeof a === 'number' && a < Number.MAX_SAFE_INTEGER ? -1 - a : -1n - BigInt(a) };
  }
  if (ib === 0xf4 || ib === 0xf5) {
    pos++;
    return { type: 'bool', value: ib === 0xf5 };
  }
  if (ib === 0xf6) {
    pos++;
    return { type: 'null' };
  }
  if (ib === 0xf9 || ib === 0xfa || ib === 0xfb) return { type: 'float', value: float() };
  if (major === 4 && !inList) {
    const n = len(4);
    // Each item adds at least 1 to the value's size: a longer list breaks the cap, so it has a
    // finding and goes the general way, which counts its items before building any.
    if (n > METADATA_MAX_VALUE_BYTES) throw NOT_FAST;
    const items: MetaValue[] = [];
    for (let i = 0; i < n; i++) items.push(meta(true));
    return { type: 'list', items };
  }
  throw NOT_FAST;
}

/** Bytewise comparison of two ranges (metadata keys must be strictly ascending). */
function less(b: Uint8Array, a0: number, a1: number, c0: number, c1: number): boolean {
  const n = Math.min(a1 - a0, c1 - c0);
  for (let i = 0; i < n; i++) if (b[a0 + i] !== b[c0 + i]) return b[a0 + i] < b[c0 + i];
  return a1 - a0 < c1 - c0;
}

/**
 * The envelope at `start`, when its bytes are canonical and end by `end`; null sends the caller to
 * the general decoder. With `idViews` (one per input), repeated ids share one view.
 */
export function readCanonicalEnvelope(bytes: Uint8Array, start: number, idViews?: IdViews, end = bytes.length): FastEnvelope | null {
  return withReader(bytes, start, end, idViews ?? null, readEnvelope, null);
}

/**
 * `read` over `bytes[start, end)`, with the reader's state set for it; `notFast` when the bytes
 * are not what it reads (it threw NOT_FAST). The state holds no input after.
 */
function withReader<T, N>(bytes: Uint8Array, start: number, end: number, idViews: IdViews | null, read: () => T, notFast: N): T | N {
  b = bytes;
  bBuffer = bytes.buffer;
  bOffset = bytes.byteOffset;
  pos = start;
  limit = Math.min(end, bytes.length);
  ids = idViews;
  try {
    return read();
  } catch (e) {
    if (e === NOT_FAST) return notFast;
    throw e;
  } finally {
    b = EMPTY;
    bBuffer = EMPTY_BUFFER;
    ids = null;
  }
}

const EMPTY = new Uint8Array(0);
const EMPTY_BUFFER = EMPTY.buffer;

/** The keys of an error body plainErrorBody knows, in the order it numbers them. */
const ERROR_BODY_KEYS = keys(['code', 'message', 'retryable']);
const CODE = 0;
const MESSAGE = 1;
/** The longest message (and the largest code) plainErrorBody decides: one byte of length after the head. */
const ONE_BYTE = 255;

/**
 * Whether the error body `bytes[start, end)` is certainly one readBody (bodies.ts) reads without a
 * finding, judged over its bytes by this reader, with no item tree: bulk loading's shortcut
 * (import/fast-record.ts), where an error record's body tree was a fifth of a large log's import.
 * It says so of the bodies laser writes: a map of `code` (0..255), and `message` (ASCII text of
 * at most 255 bytes) and `retryable` (a bool) when there, each once, in any order, every head in
 * its shortest form, and nothing after the map. Anything else (a detail map, a tag, another key,
 * non-ASCII text) is false: not wrong, only not decided here, and readBody reads it.
 * bodies.test.ts holds readBody to no finding on every body this says true of.
 */
export function plainErrorBody(bytes: Uint8Array, start: number, end: number): boolean {
  return withReader(bytes, start, end, null, readPlainErrorBody, false);
}

function readPlainErrorBody(): boolean {
  const entries = len(5);
  if (entries < 1 || entries > ERROR_BODY_KEYS.names.length) return false;
  let seen = 0;
  for (let n = 0; n < entries; n++) {
    const k = key(ERROR_BODY_KEYS, 0);
    if (seen & (1 << k)) return false;
    seen |= 1 << k;
    if (k === CODE) uint(ONE_BYTE);
    else if (k === MESSAGE) {
      const length = len(3);
      if (length > ONE_BYTE) return false;
      for (let i = pos; i < pos + length; i++) if (b[i] >= 0x80) return false;
      pos += length;
    } else if (pos < limit && (b[pos] === 0xf4 || b[pos] === 0xf5)) pos++;
    else return false;
  }
  return (seen & (1 << CODE)) !== 0 && pos === limit;
}

function readEnvelope(): FastEnvelope | null {
  const count = len(5);
  const env = blank();
  let bodyStart = -1;
  let bodyEnd = -1;
  let last = -1;
  for (let i = 0; i < count; i++) {
    const f = key(FIELD_KEYS, last + 1);
    last = f;
    let v: unknown;
    // On how the field is written (a jump table, not a comparison per field name).
    switch (FIELD_WIRE[f]) {
      case 0: // kind
        v = kind();
        break;
      case 1: // id
        v = id();
        break;
      case 2: // position
        v = fixedBytes(20);
        break;
      case 3: // text
        v = text();
        break;
      case 4: // uint
        v = uint();
        break;
      case 5: // u8
        v = uint(255);
        break;
      case 6: // true (written only when true)
        if (b[pos] !== 0xf5) throw NOT_FAST;
        pos++;
        v = true;
        break;
      case 7: // nonzero (written only when not 0)
        v = uint();
        if (v === 0) throw NOT_FAST;
        break;
      case 8: {
        // bytes (written only when not empty)
        const n = len(2);
        if (n === 0) throw NOT_FAST;
        bodyStart = pos;
        bodyEnd = pos + n;
        v = viewOf(bodyStart, n);
        pos = bodyEnd;
        break;
      }
      case 9:
        v = usage();
        break;
      case 10:
        v = metadata();
        break;
      default:
        v = signature();
        break;
    }
    store(env, f, v);
  }
  // A one-byte value (true, false, null) is taken without a bounds check: one just past the limit
  // leaves the envelope to the general decoder, as it does where the bytes end.
  if (pos > limit) throw NOT_FAST;
  if (env.kind === undefined || env.conversation === undefined || env.source === undefined) return null;
  return { envelope: env as unknown as Envelope, end: pos, bodyStart, bodyEnd };
}

function usage(): Usage {
  const n = len(5);
  const u: Partial<Usage> = {};
  let lastKey = -1;
  for (let j = 0; j < n; j++) {
    lastKey = key(USAGE_KEYS, lastKey + 1);
    u[USAGE_FIELDS[lastKey]] = uint();
  }
  if (u.input_tokens === undefined || u.output_tokens === undefined) throw NOT_FAST;
  return u as Usage;
}

function metadata(): Map<string, MetaValue> {
  const n = len(5);
  // Past the cap there is a finding, so the general way: nothing is built here for a map bomb.
  if (n > METADATA_MAX_ENTRIES) throw NOT_FAST;
  const m = new Map<string, MetaValue>();
  let prev0 = -1;
  let prev1 = -1;
  for (let j = 0; j < n; j++) {
    const keyLength = len(3);
    const c0 = pos;
    const k = textContent(keyLength);
    // Strictly ascending bytewise keys: sorted and without duplicates.
    if (prev0 >= 0 && !less(b, prev0, prev1, c0, pos)) throw NOT_FAST;
    prev0 = c0;
    prev1 = pos;
    m.set(k, meta(false));
  }
  return m;
}

function signature(): SignatureCapsule {
  const n = len(5);
  if (n !== 3 && n !== 4) throw NOT_FAST;
  const sig: Partial<SignatureCapsule> = {};
  let lastKey = -1;
  for (let j = 0; j < n; j++) {
    lastKey = key(SIG_KEYS, lastKey + 1);
    if (lastKey === 0) sig.scheme = uint(255) as number;
    else if (lastKey === 1) sig.key_id = bytes();
    else if (lastKey === 2) sig.bytes = bytes();
    else {
      const cn = len(5);
      const ctx: NonNullable<SignatureCapsule['context']> = {};
      let lastCtx = -1;
      for (let c = 0; c < cn; c++) {
        lastCtx = key(CTX_KEYS, lastCtx + 1);
        if (lastCtx === 0) ctx.content_type = uint(255) as number;
        else ctx.agent_version = uint(0xffffffff) as number;
      }
      sig.context = ctx;
    }
  }
  if (sig.scheme === undefined || !sig.key_id || !sig.bytes) throw NOT_FAST;
  return sig as SignatureCapsule;
}
