// The per-kind validity matrix, the caps and must_understand (agdx-v1.md). The reference stops at
// the first violation; this lists every one, each with its rule id, field path and bytes.
import type { Span } from '../bytes';
import { hasControlChar, utf8Length } from '../bytes';
import { finding as ruleFinding, type CapName, type FindingRuleId, type MatrixField } from '../rules';
import { bytesEqual, toCrockford } from '../bytes';
import type { DecodedEnvelope, Envelope, MetaValue } from './envelope';
import { CHUNK_PURPOSES } from './dictionaries';
import { DIALECT_001, dialectOf, type Dialect, type DialectVerdict } from './dialects';
import { sessionBodyValid } from './fast-session';
import { dialectHeaders } from './headers';
import type { Header } from './iggy';
import { bodyHasKey, bodyItem, readSessionBody, ShapeError, startLineageMismatch } from './shapes';
import { type DecodeError, type Finding, NO_FINDINGS, type Severity } from '../verdict';

const byteLength = utf8Length;

/** A metadata value's size for the caps: a string's byte length; a list: sum of 1 + item size; else 9. */
/** agdx-v1 metadata caps the fast path also leans on (it leaves an envelope past them to the general decoder). */
export const METADATA_MAX_ENTRIES = 32;
export const METADATA_MAX_VALUE_BYTES = 1024;

export function metaValueSize(v: MetaValue): number {
  if (v.type === 'text') return byteLength(v.value);
  if (v.type === 'list') return v.items.reduce((n, x) => n + 1 + metaValueSize(x), 0);
  return 9;
}

type Presence = 'R' | 'O' | 'X';
type SpanOf = (path: string) => Span | null;

// The presence rules that depend on nothing but the kind (agdx-v1.md matrix); the conditional
// ones (status with operation task, chunk sequence 0, error sequence with channel, …) are below.
const SIMPLE: Record<Extract<MatrixField, 'record' | 'channel' | 'last' | 'idempotency_key' | 'tool'>, Record<string, Presence>> = {
  record: { command: 'R', response: 'R', event: 'R', chunk: 'O', status: 'R', error: 'R' },
  channel: { command: 'X', response: 'X', event: 'X', chunk: 'R', status: 'X', error: 'O' },
  last: { command: 'X', response: 'X', event: 'X', chunk: 'O', status: 'O', error: 'X' },
  idempotency_key: { command: 'O', response: 'O', event: 'O', chunk: 'X', status: 'X', error: 'X' },
  tool: { command: 'O', response: 'O', event: 'O', chunk: 'O', status: 'X', error: 'O' },
};

/** Adds a finding to `out` (made on the first finding: most envelopes have none). */
function finding(out: Finding[] | null, rule: FindingRuleId, severity: Severity, path: string | null, message: string, span: Span | null): Finding[] {
  const list = out ?? [];
  list.push(ruleFinding(rule, path, message, span, severity));
  return list;
}

function matrix(out: Finding[] | null, spanOf: SpanOf, field: MatrixField, message: string): Finding[] {
  return finding(out, `agdx/matrix/${field}`, 'error', field, message, spanOf(field));
}

/** R and X of one field: a finding when a required field is absent or a forbidden one present. */
function presence(out: Finding[] | null, spanOf: SpanOf, kind: string, field: MatrixField, has: boolean, rule: Presence, why = ''): Finding[] | null {
  if (rule === 'R' && !has) return matrix(out, spanOf, field, `${kind} requires ${field}${why}`);
  if (rule === 'X' && has) return matrix(out, spanOf, field, `${kind} must not carry ${field}${why}`);
  return out;
}

/** The dialect an envelope's fields and (when it has them) its log headers show (dialects.ts). */
export function envelopeDialect(env: Envelope, headers?: readonly Header[] | null): DialectVerdict {
  return dialectOf(env as unknown as Parameters<typeof dialectOf>[0], bodyHasKey, headers?.length ? dialectHeaders(headers) : null);
}

/**
 * What the dialect's reader refuses while it decodes, beyond a field's type (dialects.ts
 * `idsAtDecode`: the 0.7 port parses agent ids and idempotency keys as it reads them): the decode
 * error, in the port's words, or null. 0.0.1 reads such values and the caps report them (below).
 */
export function decodeRefusal(env: Envelope, dialect: Dialect, spanOf: SpanOf): DecodeError | null {
  if (!dialect.idsAtDecode) return null;
  const source = agentIdRefusal(env.source);
  if (source !== null) return refusal(dialect, spanOf, 'source', source);
  const target = env.target !== undefined ? agentIdRefusal(env.target) : null;
  if (target !== null) return refusal(dialect, spanOf, 'target', target);
  const key = env.idempotency_key;
  if (key !== undefined) {
    if (key.length === 0) return refusal(dialect, spanOf, 'idempotency_key', 'idempotency key must not be empty');
    const n = byteLength(key);
    if (n > 64) return refusal(dialect, spanOf, 'idempotency_key', `idempotency key is ${n}B, exceeds cap 64B`);
  }
  return null;
}

/** What the 0.7 reader refuses in an agent id, in its words, or null. */
function agentIdRefusal(v: string): string | null {
  if (v.length === 0) return 'agent id must not be empty';
  const n = byteLength(v);
  if (n > 256) return `agent id is ${n}B, exceeds cap 256B`;
  if (hasControlChar(v)) return 'agent id must not contain control characters';
  return null;
}

function refusal(dialect: Dialect, spanOf: SpanOf, field: string, why: string): DecodeError {
  return { code: 'agdx/field-type', message: `${field}: ${why} (the ${dialect.id} reader refuses it while decoding)`, offset: spanOf(field)?.[0] ?? null };
}

export function validateEnvelope(decoded: DecodedEnvelope, dialect: Dialect = DIALECT_001, bodyAt?: BodyAt): readonly Finding[] {
  return validateFields(decoded.envelope, (path) => decoded.locations.get(path)?.value ?? null, dialect, bodyAt);
}

/**
 * Where the body's content is, when its bytes are at hand: `bytes[start, end)` (the record's bytes,
 * so a finding inside the body points at its own bytes). Without it the body is read from
 * `env.body` and such a finding has the body's span.
 */
export interface BodyAt {
  bytes: Uint8Array;
  start: number;
  end: number;
}

/**
 * The matrix, the caps and must_understand over a decoded envelope, by the rules of `dialect` (the
 * one its fields show, dialects.ts; 0.0.1 when the caller does not say); `spanOf` locates a field's
 * bytes. A 0.0.1 record is judged exactly as agdx-v1.md says; a 0.7 one as the 0.7 port validates
 * it: its lineage, and a session status's state, `last` and body.
 */
export function validateFields(env: Envelope, spanOf: SpanOf, dialect: Dialect = DIALECT_001, bodyAt?: BodyAt): readonly Finding[] {
  // Most records have every field their kind asks for and none it forbids, which their fields'
  // presence alone shows (matrixSettled): the matrix's checks are skipped for them, and the lineage
  // (whose findings come first when the matrix has none) is all that is left of it.
  let out = matrixSettled(env)
    ? dialect.lineage && (env.parent || env.root)
      ? checkLineage(null, env, spanOf)
      : null
    : matrixFindings(env, spanOf, dialect, bodyAt);
  out = checkCaps(out, env, spanOf, dialect);

  if (env.must_understand !== undefined) {
    const mask = BigInt(env.must_understand).toString(16).padStart(16, '0');
    out = finding(
      out,
      'agdx/must-understand',
      dialect.mustUnderstand,
      'must_understand',
      dialect.mustUnderstand === 'error'
        ? `must_understand has bits this inspector does not implement (unmet mask 0x${mask}): a receiver must reject the message`
        : `must_understand has bits this inspector does not implement (unmet mask 0x${mask}): the envelope is valid, but a receiver that implements none of them refuses it when it handles it`,
      spanOf('must_understand'),
    );
  }
  return out ?? NO_FINDINGS;
}

// The fields whose presence the matrix rules on for command, response, event and error, a bit each
// (tool is optional for all four, and operation is ruled on only for status and chunk).
const RECORD = 1;
const CORRELATION = 2;
const CHANNEL = 4;
const SEQUENCE = 8;
const LAST = 16;
const FINISH_REASON = 32;
const IDEMPOTENCY_KEY = 64;
const DEADLINE = 128;
const TASK_STATE = 256;
const USAGE = 512;
const BODY = 1024;

/**
 * For the kinds whose matrix rules rest on which fields are there and nothing else (agdx-v1.md):
 * the fields each requires and those it forbids. An error's sequence needs its channel, and
 * status and chunk have rules on values (an operation, sequence 0, a session): those are left to
 * matrixFindings. validate.test.ts holds this to matrixFindings over every combination of fields.
 */
const SETTLED_BY_KIND: Readonly<Record<string, { readonly required: number; readonly forbidden: number }>> = {
  command: { required: RECORD | CORRELATION | BODY, forbidden: CHANNEL | SEQUENCE | LAST | FINISH_REASON | TASK_STATE | USAGE },
  response: { required: RECORD | CORRELATION | BODY, forbidden: CHANNEL | SEQUENCE | LAST | DEADLINE },
  event: { required: RECORD | BODY, forbidden: CHANNEL | SEQUENCE | LAST | FINISH_REASON | DEADLINE | TASK_STATE },
  error: { required: RECORD | CORRELATION | BODY, forbidden: LAST | FINISH_REASON | IDEMPOTENCY_KEY | DEADLINE },
};

/**
 * Whether the matrix has nothing to say of the envelope, shown by which of its fields are there:
 * true only where matrixFindings would find nothing but the lineage's (false says nothing: the
 * matrix is then asked).
 */
export function matrixSettled(env: Envelope): boolean {
  const rules = Object.hasOwn(SETTLED_BY_KIND, env.kind) ? SETTLED_BY_KIND[env.kind] : undefined;
  if (rules === undefined) return false;
  const has =
    (env.record ? RECORD : 0) |
    (env.correlation ? CORRELATION : 0) |
    (env.channel ? CHANNEL : 0) |
    (env.sequence !== undefined ? SEQUENCE : 0) |
    (env.last ? LAST : 0) |
    (env.finish_reason !== undefined ? FINISH_REASON : 0) |
    (env.idempotency_key !== undefined ? IDEMPOTENCY_KEY : 0) |
    (env.deadline_micros !== undefined ? DEADLINE : 0) |
    (env.task_state !== undefined ? TASK_STATE : 0) |
    (env.usage ? USAGE : 0) |
    (env.body !== undefined && env.body.length > 0 ? BODY : 0);
  if ((has & rules.required) !== rules.required || (has & rules.forbidden) !== 0) return false;
  // An error may carry a sequence only with a channel.
  return (has & (SEQUENCE | CHANNEL)) !== SEQUENCE;
}

/**
 * The matrix's findings (and the lineage's, in their place among them): the presence rules by
 * kind, the conditional ones, and a session status's.
 */
export function matrixFindings(env: Envelope, spanOf: SpanOf, dialect: Dialect = DIALECT_001, bodyAt?: BodyAt): Finding[] | null {
  let out: Finding[] | null = null;
  const k = env.kind;
  const isChunk = k === 'chunk';
  const seq0 = isChunk && env.sequence !== undefined && (env.sequence === 0 || env.sequence === 0n);
  const hasBody = env.body !== undefined && env.body.length > 0;
  const task = env.operation === 'task';

  out = presence(out, spanOf, k, 'record', !!env.record, SIMPLE.record[k]);
  if (dialect.lineage && (env.parent || env.root)) out = checkLineage(out, env, spanOf);
  out = presence(
    out,
    spanOf,
    k,
    'correlation',
    !!env.correlation,
    k === 'event' ? 'O' : k === 'status' ? (task ? 'R' : 'O') : 'R',
    k === 'status' ? ' when operation is task' : '',
  );
  out = presence(out, spanOf, k, 'channel', !!env.channel, SIMPLE.channel[k]);
  if (k === 'error') {
    if (env.sequence !== undefined && !env.channel) out = matrix(out, spanOf, 'sequence', 'error may carry sequence only with channel');
  } else out = presence(out, spanOf, k, 'sequence', env.sequence !== undefined, isChunk ? 'R' : 'X');
  out = presence(out, spanOf, k, 'last', !!env.last, SIMPLE.last[k], ' (last = true)');
  if (isChunk) {
    if (env.finish_reason !== undefined && !env.last) out = matrix(out, spanOf, 'finish_reason', 'chunk may carry finish_reason only with last');
  } else out = presence(out, spanOf, k, 'finish_reason', env.finish_reason !== undefined, k === 'response' ? 'O' : 'X');
  out = presence(out, spanOf, k, 'idempotency_key', env.idempotency_key !== undefined, SIMPLE.idempotency_key[k]);
  if (isChunk) {
    if (env.deadline_micros !== undefined && !seq0) out = matrix(out, spanOf, 'deadline_micros', 'chunk may carry deadline_micros only on sequence 0');
  } else out = presence(out, spanOf, k, 'deadline_micros', env.deadline_micros !== undefined, k === 'command' ? 'O' : 'X');
  const stateRequired = k === 'status' && env.operation !== undefined && dialect.taskStateFor.includes(env.operation);
  if (k === 'status')
    out = presence(
      out,
      spanOf,
      k,
      'task_state',
      env.task_state !== undefined,
      stateRequired ? 'R' : 'O',
      stateRequired ? ` when operation is ${env.operation}` : '',
    );
  else out = presence(out, spanOf, k, 'task_state', env.task_state !== undefined, k === 'response' || k === 'error' ? 'O' : 'X');

  if (k === 'status') {
    const ops = dialect.statusOperations;
    if (env.operation === undefined) out = matrix(out, spanOf, 'operation', `status requires operation (one of ${ops.join(', ')})`);
    else if (!ops.includes(env.operation)) {
      out = matrix(out, spanOf, 'operation', `status operation ${JSON.stringify(env.operation)} is not one of ${ops.join(', ')}`);
    }
  } else if (isChunk && env.sequence !== undefined) {
    if (seq0) {
      if (env.operation === undefined)
        out = matrix(out, spanOf, 'operation', `the opening chunk (sequence 0) requires operation (one of ${CHUNK_PURPOSES.join(', ')})`);
      else if (!CHUNK_PURPOSES.includes(env.operation)) {
        out = matrix(out, spanOf, 'operation', `chunk purpose ${JSON.stringify(env.operation)} is not one of ${CHUNK_PURPOSES.join(', ')}`);
      }
    } else if (env.operation !== undefined) out = matrix(out, spanOf, 'operation', 'chunk may carry operation only on sequence 0');
  }
  out = presence(out, spanOf, k, 'tool', env.tool !== undefined, SIMPLE.tool[k]);
  if (isChunk) {
    if (env.usage && !env.last) out = matrix(out, spanOf, 'usage', 'chunk may carry usage only with last');
  } else out = presence(out, spanOf, k, 'usage', !!env.usage, k === 'command' ? 'X' : 'O');
  if (isChunk) {
    if (!hasBody && !env.last) out = matrix(out, spanOf, 'body', 'chunk requires a non-empty body unless it is the last');
  } else if (k !== 'status' && !hasBody) out = matrix(out, spanOf, 'body', `${k} requires a non-empty body`);
  const session = k === 'status' && dialect.sessionOperation !== null && env.operation === dialect.sessionOperation;
  if (session && !hasBody)
    out = matrix(out, spanOf, 'body', `status requires body when operation is ${env.operation}: a session status carries its start, transition or end`);
  if (session) out = checkSession(out, env, spanOf, dialect, hasBody, bodyAt);

  return out;
}

/** 0.7 lineage: root needs parent; neither names the record's own conversation. */
function checkLineage(out: Finding[] | null, env: Envelope, spanOf: SpanOf): Finding[] | null {
  if (env.root && !env.parent)
    out = finding(
      out,
      'agdx/lineage/root-needs-parent',
      'error',
      'root',
      'root requires parent: a record names the root of its session tree only with the parent it was spawned from',
      spanOf('root'),
    );
  const self = env.parent && bytesEqual(env.parent, env.conversation) ? 'parent' : env.root && bytesEqual(env.root, env.conversation) ? 'root' : null;
  if (self)
    out = finding(
      out,
      'agdx/lineage/self',
      'error',
      self,
      `parent and root must differ from conversation: ${self} names the record's own conversation`,
      spanOf(self),
    );
  return out;
}

/**
 * A 0.7 session status: `last` set exactly when the state is terminal, and the body the state calls
 * for (a SessionStart when submitted, or working with the agent or SDK named; a SessionEnd when
 * terminal; a SessionTransition otherwise), read as the port reads it, a start's lineage the
 * envelope's. task_state and the body being there are the matrix's (above); without a state there
 * is nothing more to judge, as the port stops there.
 */
function checkSession(out: Finding[] | null, env: Envelope, spanOf: SpanOf, dialect: Dialect, hasBody: boolean, bodyAt: BodyAt | undefined): Finding[] | null {
  const state = env.task_state;
  if (state === undefined) return out;
  if (!!env.last !== dialect.terminal.has(state)) {
    const why = env.last ? `last is set, but ${state} is not a terminal state` : `the state ${state} is terminal, but last is not set`;
    out = finding(out, 'agdx/session/last', 'error', 'last', `session last must match terminal task state: ${why}`, spanOf('last') ?? spanOf('task_state'));
  }
  if (!hasBody) return out;
  const at = bodyAt ?? { bytes: env.body!, start: 0, end: env.body!.length };
  // The bodies laser-sdk writes are checked from their bytes; anything else is read in full.
  if (sessionBodyValid(at.bytes, at.start, at.end, state, dialect.terminal, env.parent, env.root)) return out;
  const whole = spanOf('body');
  try {
    const item = bodyItem(at.bytes, at.start, at.end, 'session body');
    const body = readSessionBody(item, state, dialect.terminal);
    if (body.shape === 'start') {
      const mismatch = startLineageMismatch(body.value, env.parent, env.root);
      if (mismatch) out = finding(out, 'agdx/session/lineage', 'error', 'body', `${mismatch}: ${lineageWords(body.value, env)}`, whole);
    }
  } catch (e) {
    if (!(e instanceof ShapeError)) throw e;
    const span = e.item && bodyAt ? ([e.item.start, e.item.end] as Span) : whole;
    out = finding(out, 'agdx/session/body', 'error', e.path, e.message, span);
  }
  return out;
}

/** The start body's parent and root against the envelope's, in words. */
function lineageWords(start: { parent?: Uint8Array; root?: Uint8Array }, env: Envelope): string {
  const id = (b: Uint8Array | undefined) => (b ? toCrockford(b) : 'none');
  return `the start body names parent ${id(start.parent)}, root ${id(start.root)}; the envelope parent ${id(env.parent)}, root ${id(env.root)}`;
}

/**
 * Whether an agent id is 1..256 characters of printable ASCII (each a byte, none a control): within
 * every cap, seen in one pass (most are; any other is measured and searched in full).
 */
function plainAgentId(v: string): boolean {
  if (v.length === 0 || v.length > 256) return false;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

function cap(out: Finding[] | null, spanOf: SpanOf, name: CapName, path: string, message: string): Finding[] {
  return finding(out, `agdx/cap/${name}`, 'error', path, message, spanOf(path));
}

function capText(out: Finding[] | null, spanOf: SpanOf, name: CapName, v: string | undefined, max: number, min: number): Finding[] | null {
  if (v === undefined) return out;
  const n = byteLength(v);
  if (n > max) return cap(out, spanOf, name, name, `${name} is ${n} bytes, more than ${max}`);
  if (n < min) return cap(out, spanOf, name, name, `${name} is empty; it must be ${min}..${max} bytes`);
  return out;
}

function capAgent(out: Finding[] | null, spanOf: SpanOf, field: string, v: string | undefined): Finding[] | null {
  if (v === undefined || plainAgentId(v)) return out;
  const n = byteLength(v);
  if (n === 0) out = cap(out, spanOf, 'agent_id', field, `${field} is empty; an agent id is 1..256 bytes`);
  else if (n > 256) out = cap(out, spanOf, 'agent_id', field, `${field} is ${n} bytes, more than 256`);
  if (hasControlChar(v)) out = cap(out, spanOf, 'agent_id', field, `${field} holds a control character`);
  return out;
}

function checkCaps(out: Finding[] | null, env: Envelope, spanOf: SpanOf, dialect: Dialect): Finding[] | null {
  out = capText(out, spanOf, 'operation', env.operation, 256, 0);
  out = capText(out, spanOf, 'tool', env.tool, 256, 0);
  out = capText(out, spanOf, 'finish_reason', env.finish_reason, 256, 0);
  // A dialect whose reader refuses an agent id or idempotency key outside these caps while decoding
  // (decodeRefusal, which every reader asks first) has none left to report here.
  if (!dialect.idsAtDecode) {
    out = capText(out, spanOf, 'idempotency_key', env.idempotency_key, 64, 1);
    out = capAgent(out, spanOf, 'source', env.source);
    out = capAgent(out, spanOf, 'target', env.target);
  }
  if (env.metadata) {
    if (env.metadata.size > METADATA_MAX_ENTRIES)
      out = cap(out, spanOf, 'metadata', 'metadata', `metadata has ${env.metadata.size} entries, more than ${METADATA_MAX_ENTRIES}`);
    let total = 0;
    for (const [key, value] of env.metadata) {
      const kn = byteLength(key);
      const vn = metaValueSize(value);
      total += kn + vn;
      if (kn > 256) out = cap(out, spanOf, 'metadata', `metadata.${key}`, `metadata key is ${kn} bytes, more than 256`);
      if (vn > METADATA_MAX_VALUE_BYTES)
        out = cap(out, spanOf, 'metadata', `metadata.${key}`, `metadata value of ${JSON.stringify(key)} is ${vn} bytes, more than ${METADATA_MAX_VALUE_BYTES}`);
    }
    if (total > 8192) out = cap(out, spanOf, 'metadata', 'metadata', `metadata keys plus values are ${total} bytes, more than 8192`);
  }
  return out;
}
