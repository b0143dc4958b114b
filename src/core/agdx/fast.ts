// A fast path for bulk loading: reads an envelope straight from its bytes, without building a CBOR
// item tree, and only when the bytes are exactly canonical (shortest heads, definite lengths, keys
// in declaration order, no nulls, no tags, shortest floats, sorted metadata). Anything else returns
// null and the general decoder (envelope.ts) handles it, so the fast path never decides a case the
// general one would decide differently: on canonical bytes both give the same Envelope.
import { numberToHalf } from '../cbor/encoder';
import { halfToNumber } from '../cbor/reader';
import type { Envelope, MetaValue, SignatureCapsule, Usage } from './envelope';
import { ENVELOPE_FIELDS, KINDS, USAGE_FIELDS } from './envelope';
import { METADATA_MAX_ENTRIES, METADATA_MAX_VALUE_BYTES } from './validate';

const enc = new TextEncoder();
const FIELD_BYTES = ENVELOPE_FIELDS.map((f) => enc.encode(f));
const USAGE_BYTES = USAGE_FIELDS.map((f) => enc.encode(f));
const SIG_FIELDS = ['scheme', 'key_id', 'bytes', 'context'] as const;
const SIG_BYTES = SIG_FIELDS.map((f) => enc.encode(f));
const CTX_FIELDS = ['content_type', 'agent_version'] as const;
const CTX_BYTES = CTX_FIELDS.map((f) => enc.encode(f));
const KIND_SET = new Set<string>(KINDS);
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

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

class Fast {
  pos: number;
  constructor(
    readonly b: Uint8Array,
    start: number,
  ) {
    this.pos = start;
  }

  /** A minimal head of `major`; returns its argument (number or bigint). */
  head(major: number): number | bigint {
    const b = this.b;
    if (this.pos >= b.length) throw NOT_FAST;
    const ib = b[this.pos++];
    if (ib >> 5 !== major) throw NOT_FAST;
    const ai = ib & 31;
    if (ai < 24) return ai;
    const p = this.pos;
    if (ai === 24) {
      if (p + 1 > b.length || b[p] < 24) throw NOT_FAST;
      this.pos += 1;
      return b[p];
    }
    if (ai === 25) {
      if (p + 2 > b.length) throw NOT_FAST;
      const v = (b[p] << 8) | b[p + 1];
      if (v <= 0xff) throw NOT_FAST;
      this.pos += 2;
      return v;
    }
    if (ai === 26) {
      if (p + 4 > b.length) throw NOT_FAST;
      const v = ((b[p] << 24) >>> 0) + (b[p + 1] << 16) + (b[p + 2] << 8) + b[p + 3];
      if (v <= 0xffff) throw NOT_FAST;
      this.pos += 4;
      return v;
    }
    if (ai === 27) {
      if (p + 8 > b.length) throw NOT_FAST;
      const hi = ((b[p] << 24) >>> 0) + (b[p + 1] << 16) + (b[p + 2] << 8) + b[p + 3];
      const lo = ((b[p + 4] << 24) >>> 0) + (b[p + 5] << 16) + (b[p + 6] << 8) + b[p + 7];
      if (hi === 0) throw NOT_FAST;
      this.pos += 8;
      return hi < 0x200000 ? hi * 0x100000000 + lo : (BigInt(hi) << 32n) | BigInt(lo);
    }
    throw NOT_FAST;
  }

  len(major: number): number {
    const n = this.head(major);
    if (typeof n !== 'number' || n > this.b.length - this.pos) throw NOT_FAST;
    return n;
  }

  bytes(): Uint8Array {
    const n = this.len(2);
    const out = this.b.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  fixedBytes(size: number): Uint8Array {
    if (this.b[this.pos] !== 0x40 + size) throw NOT_FAST;
    this.pos++;
    if (this.pos + size > this.b.length) throw NOT_FAST;
    const out = this.b.subarray(this.pos, this.pos + size);
    this.pos += size;
    return out;
  }

  text(): string {
    return this.textContent(this.len(3));
  }

  /** `n` bytes of UTF-8 text at the current position. */
  textContent(n: number): string {
    const b = this.b;
    const p = this.pos;
    this.pos += n;
    if (n < 64) {
      let ascii = true;
      for (let i = p; i < p + n; i++) {
        if (b[i] > 0x7f) {
          ascii = false;
          break;
        }
      }
      if (ascii) return String.fromCharCode.apply(null, b.subarray(p, p + n) as unknown as number[]);
    }
    try {
      return utf8.decode(b.subarray(p, p + n));
    } catch {
      throw NOT_FAST;
    }
  }

  uint(max?: number): number | bigint {
    const v = this.head(0);
    if (max !== undefined && (typeof v !== 'number' || v > max)) throw NOT_FAST;
    return v;
  }

  /** Matches the next key against `names` from index `from` on (declaration order); returns its index. */
  key(names: Uint8Array[], from: number): number {
    const b = this.b;
    const ib = b[this.pos];
    let n: number;
    let p: number;
    if (ib >= 0x60 && ib < 0x78) {
      n = ib - 0x60;
      p = this.pos + 1;
    } else if (ib === 0x78) {
      n = b[this.pos + 1];
      if (n < 24) throw NOT_FAST;
      p = this.pos + 2;
    } else throw NOT_FAST;
    for (let i = from; i < names.length; i++) {
      const name = names[i];
      if (name.length !== n) continue;
      let same = true;
      for (let j = 0; j < n; j++) {
        if (b[p + j] !== name[j]) {
          same = false;
          break;
        }
      }
      if (same) {
        this.pos = p + n;
        return i;
      }
    }
    throw NOT_FAST;
  }

  float(): number {
    const b = this.b;
    const ib = b[this.pos];
    const p = this.pos + 1;
    let v: number;
    if (ib === 0xf9) {
      if (p + 2 > b.length) throw NOT_FAST;
      v = halfToNumber((b[p] << 8) | b[p + 1]);
      this.pos = p + 2;
      if (Number.isNaN(v) && !(b[p] === 0x7e && b[p + 1] === 0)) throw NOT_FAST;
      return v;
    }
    const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
    if (ib === 0xfa) {
      if (p + 4 > b.length) throw NOT_FAST;
      v = dv.getFloat32(p);
      this.pos = p + 4;
      if (Number.isNaN(v) || numberToHalf(v) !== null) throw NOT_FAST;
      return v;
    }
    if (ib === 0xfb) {
      if (p + 8 > b.length) throw NOT_FAST;
      v = dv.getFloat64(p);
      this.pos = p + 8;
      if (Number.isNaN(v) || Math.fround(v) === v) throw NOT_FAST;
      return v;
    }
    throw NOT_FAST;
  }

  meta(inList: boolean): MetaValue {
    const ib = this.b[this.pos];
    const major = ib >> 5;
    if (major === 3) return { type: 'text', value: this.text() };
    if (major === 0) return { type: 'int', value: this.head(0) };
    if (major === 1) {
      const a = this.head(1);
      return { type: 'int', value: typeof a === 'number' && a < Number.MAX_SAFE_INTEGER ? -1 - a : -1n - BigInt(a) };
    }
    if (ib === 0xf4 || ib === 0xf5) {
      this.pos++;
      return { type: 'bool', value: ib === 0xf5 };
    }
    if (ib === 0xf6) {
      this.pos++;
      return { type: 'null' };
    }
    if (ib === 0xf9 || ib === 0xfa || ib === 0xfb) return { type: 'float', value: this.float() };
    if (major === 4 && !inList) {
      const n = this.len(4);
      // Each item adds at least 1 to the value's size: a longer list breaks the cap, so it has a
      // finding and goes the general way, which counts its items before building any.
      if (n > METADATA_MAX_VALUE_BYTES) throw NOT_FAST;
      const items: MetaValue[] = [];
      for (let i = 0; i < n; i++) items.push(this.meta(true));
      return { type: 'list', items };
    }
    throw NOT_FAST;
  }
}

/** Bytewise comparison of two ranges (metadata keys must be strictly ascending). */
function less(b: Uint8Array, a0: number, a1: number, c0: number, c1: number): boolean {
  const n = Math.min(a1 - a0, c1 - c0);
  for (let i = 0; i < n; i++) if (b[a0 + i] !== b[c0 + i]) return b[a0 + i] < b[c0 + i];
  return a1 - a0 < c1 - c0;
}

/** The envelope at `start`, when its bytes are canonical; null sends the caller to the general decoder. */
export function readCanonicalEnvelope(bytes: Uint8Array, start: number): FastEnvelope | null {
  const r = new Fast(bytes, start);
  try {
    const count = r.len(5);
    // Every field in one literal: the same hidden class for every envelope (absent = undefined).
    const env: Partial<Envelope> = {
      kind: undefined,
      record: undefined,
      conversation: undefined,
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
    let bodyStart = -1;
    let bodyEnd = -1;
    let last = -1;
    for (let i = 0; i < count; i++) {
      const f = r.key(FIELD_BYTES, last + 1);
      last = f;
      switch (ENVELOPE_FIELDS[f]) {
        case 'kind': {
          const k = r.text();
          if (!KIND_SET.has(k)) throw NOT_FAST;
          env.kind = k as Envelope['kind'];
          break;
        }
        case 'record':
          env.record = r.fixedBytes(16);
          break;
        case 'conversation':
          env.conversation = r.fixedBytes(16);
          break;
        case 'source':
          env.source = r.text();
          break;
        case 'target':
          env.target = r.text();
          break;
        case 'cause':
          env.cause = r.fixedBytes(16);
          break;
        case 'cause_at':
          env.cause_at = r.fixedBytes(20);
          break;
        case 'correlation':
          env.correlation = r.fixedBytes(16);
          break;
        case 'channel':
          env.channel = r.fixedBytes(16);
          break;
        case 'idempotency_key':
          env.idempotency_key = r.text();
          break;
        case 'deadline_micros':
          env.deadline_micros = r.uint();
          break;
        case 'sequence':
          env.sequence = r.uint();
          break;
        case 'last':
          if (bytes[r.pos] !== 0xf5) throw NOT_FAST;
          r.pos++;
          env.last = true;
          break;
        case 'finish_reason':
          env.finish_reason = r.text();
          break;
        case 'task_state':
          env.task_state = r.uint(255) as number;
          break;
        case 'operation':
          env.operation = r.text();
          break;
        case 'tool':
          env.tool = r.text();
          break;
        case 'usage': {
          const n = r.len(5);
          const u: Partial<Usage> = {};
          let lastKey = -1;
          for (let j = 0; j < n; j++) {
            lastKey = r.key(USAGE_BYTES, lastKey + 1);
            u[USAGE_FIELDS[lastKey]] = r.uint();
          }
          if (u.input_tokens === undefined || u.output_tokens === undefined) throw NOT_FAST;
          env.usage = u as Usage;
          break;
        }
        case 'metadata': {
          const n = r.len(5);
          // Past the cap there is a finding, so the general way: nothing is built here for a map bomb.
          if (n > METADATA_MAX_ENTRIES) throw NOT_FAST;
          const m = new Map<string, MetaValue>();
          let prev0 = -1;
          let prev1 = -1;
          for (let j = 0; j < n; j++) {
            const keyLength = r.len(3);
            const c0 = r.pos;
            const key = r.textContent(keyLength);
            // Strictly ascending bytewise keys: sorted and without duplicates.
            if (prev0 >= 0 && !less(bytes, prev0, prev1, c0, r.pos)) throw NOT_FAST;
            prev0 = c0;
            prev1 = r.pos;
            m.set(key, r.meta(false));
          }
          env.metadata = m;
          break;
        }
        case 'must_understand': {
          const v = r.uint();
          if (v === 0) throw NOT_FAST;
          env.must_understand = v;
          break;
        }
        case 'body': {
          const n = r.len(2);
          if (n === 0) throw NOT_FAST;
          bodyStart = r.pos;
          bodyEnd = r.pos + n;
          env.body = bytes.subarray(bodyStart, bodyEnd);
          r.pos = bodyEnd;
          break;
        }
        case 'signature': {
          const n = r.len(5);
          if (n !== 3 && n !== 4) throw NOT_FAST;
          const sig: Partial<SignatureCapsule> = {};
          let lastKey = -1;
          for (let j = 0; j < n; j++) {
            lastKey = r.key(SIG_BYTES, lastKey + 1);
            if (lastKey === 0) sig.scheme = r.uint(255) as number;
            else if (lastKey === 1) sig.key_id = r.bytes();
            else if (lastKey === 2) sig.bytes = r.bytes();
            else {
              const cn = r.len(5);
              const ctx: NonNullable<SignatureCapsule['context']> = {};
              let lastCtx = -1;
              for (let c = 0; c < cn; c++) {
                lastCtx = r.key(CTX_BYTES, lastCtx + 1);
                if (lastCtx === 0) ctx.content_type = r.uint(255) as number;
                else ctx.agent_version = r.uint(0xffffffff) as number;
              }
              sig.context = ctx;
            }
          }
          if (sig.scheme === undefined || !sig.key_id || !sig.bytes) throw NOT_FAST;
          env.signature = sig as SignatureCapsule;
          break;
        }
      }
    }
    if (env.kind === undefined || env.conversation === undefined || env.source === undefined) return null;
    return { envelope: env as Envelope, end: r.pos, bodyStart, bodyEnd };
  } catch (e) {
    if (e === NOT_FAST) return null;
    throw e;
  }
}
