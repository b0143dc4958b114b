// Writes laser-sdk 0.7 session records with the project's own encoder (canonical.ts in the 0.7
// field order, cbor/encoder.ts for the bodies), and lays them out as an Iggy HTTP export with the
// 0.7 header block: what the sample conversation tree (scripts/make-sessions.ts), the benchmark's
// 0.7 log and the session fold's tests are made of. Bodies carry the fields the 0.7 port writes,
// in its order.
import { toBase64, toCrockford } from '../../src/core/bytes';
import { CborWriter, type CborValue } from '../../src/core/cbor/encoder';
import { encodeEnvelope } from '../../src/core/agdx/canonical';
import { DIALECT_07 } from '../../src/core/agdx/dialects';
import type { Envelope, Usage } from '../../src/core/agdx/envelope';

const te = new TextEncoder();

/** A 16-byte id whose last bytes are `n` (big-endian), after a fixed prefix (a ULID time when `ms` is given). */
export function sessionId(n: number, ms = 0): Uint8Array {
  const id = new Uint8Array(16);
  let t = ms;
  for (let i = 5; i >= 0; i--) {
    id[i] = t % 256;
    t = Math.floor(t / 256);
  }
  let v = n;
  for (let i = 15; i >= 6 && v > 0; i--) {
    id[i] = v % 256;
    v = Math.floor(v / 256);
  }
  return id;
}

export const cborBody = (v: CborValue): Uint8Array => new CborWriter().value(v).finish();

/** A log position's 20 bytes (cause_at's layout). */
export function positionBytes(p: { stream: number; topic: number; partition: number; offset: bigint | number }): Uint8Array {
  const b = new Uint8Array(20);
  const dv = new DataView(b.buffer);
  dv.setUint32(0, p.stream);
  dv.setUint32(4, p.topic);
  dv.setUint32(8, p.partition);
  dv.setBigUint64(12, BigInt(p.offset));
  return b;
}

export interface StartBody {
  label?: string;
  namespace?: string;
  agent: string;
  sdk?: { language: string; version: string };
  parent?: Uint8Array;
  root?: Uint8Array;
  idle_timeout_micros?: bigint;
  budget?: { tokens?: bigint; cost_micros?: bigint };
  tags?: string[];
}

export const startBody = (s: StartBody): Uint8Array =>
  cborBody({
    label: s.label,
    namespace: s.namespace,
    agent: s.agent,
    sdk: s.sdk ?? { language: 'typescript', version: '0.7.0' },
    parent: s.parent,
    root: s.root,
    idle_timeout_micros: s.idle_timeout_micros,
    budget: s.budget && { tokens: s.budget.tokens, cost_micros: s.budget.cost_micros },
    tags: s.tags ?? [],
  } as CborValue);

export const transitionBody = (actor?: string, acknowledges?: Uint8Array): Uint8Array => cborBody({ actor, acknowledges } as CborValue);

export const endBody = (reason?: string, error?: { code: number; message?: string; retryable?: boolean }): Uint8Array =>
  cborBody({ reason, error: error && { code: error.code, message: error.message, retryable: error.retryable ?? false } } as CborValue);

/** A SessionParking of the log record at `source` (a Message source reference with its topic generation). */
export const parkingBody = (
  source: { stream: number; topic: number; partition: number; offset: bigint | number; generation: bigint | number },
  role: string,
  request: Uint8Array,
): Uint8Array =>
  cborBody({
    source: {
      Message: {
        stream: source.stream,
        topic: source.topic,
        partition: source.partition,
        offset: BigInt(source.offset),
        generation: BigInt(source.generation),
      },
    },
    role,
    request,
  });

/** What a session record is written from: the envelope's fields, the session's lineage filled in. */
export interface SessionRecord {
  /** Microseconds after the export's start. */
  at: number;
  env: Envelope;
}

/** A session status in `state` (1 submitted, 2 working, 10 paused, 4 completed, …) with its body. */
export function sessionStatus(conversation: Uint8Array, record: Uint8Array, source: string, state: number, body: Uint8Array): Envelope {
  return { kind: 'status', record, conversation, source, operation: 'session', task_state: state, last: DIALECT_07.terminal.has(state) || undefined, body };
}

export const usage = (input: number, output: number, cost?: number): Usage => ({ input_tokens: input, output_tokens: output, cost_micros: cost });

const header = (name: string, kind: string, value: Uint8Array) => ({
  key: { kind: 'string', value: toBase64(te.encode(name)) },
  value: { kind, value: toBase64(value) },
});

/**
 * The records as one Iggy HTTP JSON export (the 0.7 and later shape), offsets from `firstOffset` in
 * order, each with the header block the 0.7 port stamps: agdx.av, agdx.ct, the lineage headers,
 * agdx.to (`*` without a target), gen_ai.agent.id, gen_ai.conversation.id as text.
 */
export function iggyExport(records: readonly SessionRecord[], options: { start: number; firstOffset?: number; partition?: number }): string {
  const first = options.firstOffset ?? 0;
  const messages = records.map((r, i) => {
    const payload = encodeEnvelope(r.env);
    const e = r.env;
    const body = e.body;
    const ct = body && body.length > 0 && (body[0] === 0x7b || body[0] === 0x5b) ? 1 : 3;
    const hs = [header('agdx.av', 'uint32', new Uint8Array([1, 0, 0, 0])), header('agdx.ct', 'uint8', new Uint8Array([ct]))];
    if (e.parent) hs.push(header('agdx.parent_conv', 'string', te.encode(toCrockford(e.parent))));
    if (e.root) hs.push(header('agdx.root_conv', 'string', te.encode(toCrockford(e.root))));
    hs.push(header('agdx.to', 'string', te.encode(e.target ?? '*')));
    hs.push(header('gen_ai.agent.id', 'string', te.encode(e.source)));
    hs.push(header('gen_ai.conversation.id', 'string', te.encode(toCrockford(e.conversation))));
    return {
      header: {
        checksum: 0,
        id: i + 1,
        offset: first + i,
        timestamp: options.start + r.at,
        origin_timestamp: options.start + r.at,
        user_headers_length: 0,
        payload_length: payload.length,
        reserved: 0,
      },
      payload: toBase64(payload),
      user_headers: hs,
    };
  });
  return `${JSON.stringify({ partition_id: options.partition ?? 1, current_offset: first + records.length - 1, count: records.length, messages }, null, 2)}\n`;
}
