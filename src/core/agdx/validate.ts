// The per-kind validity matrix, the caps and must_understand (agdx-v1.md). The reference stops at
// the first violation; this lists every one, each with its rule id, field path and bytes.
import type { Span } from '../bytes';
import { hasControlChar, utf8Encode } from '../bytes';
import type { Finding, Severity } from '../model';
import type { DecodedEnvelope, Envelope, MetaValue } from './envelope';
import { CHUNK_PURPOSES, STATUS_OPERATIONS } from './dictionaries';

const byteLength = (s: string) => utf8Encode(s).length;

/** A metadata value's size for the caps: a string's byte length; a list: sum of 1 + item size; else 9. */
export function metaValueSize(v: MetaValue): number {
  if (v.type === 'text') return byteLength(v.value);
  if (v.type === 'list') return v.items.reduce((n, x) => n + 1 + metaValueSize(x), 0);
  return 9;
}

type Presence = 'R' | 'O' | 'X';

export function validateEnvelope(decoded: DecodedEnvelope): Finding[] {
  const { envelope: env, locations } = decoded;
  const findings: Finding[] = [];
  const spanOf = (path: string): Span | null => locations.get(path)?.value ?? null;
  const add = (rule: string, severity: Severity, path: string | null, message: string, span: Span | null = path ? spanOf(path) : null) =>
    findings.push({ rule, severity, path, message, span });
  const matrix = (field: string, message: string) => add(`agdx/matrix/${field}`, 'error', field, message);
  const k = env.kind;

  const check = (field: string, has: boolean, rule: Presence, why = '') => {
    if (rule === 'R' && !has) matrix(field, `${k} requires ${field}${why}`);
    if (rule === 'X' && has) matrix(field, `${k} must not carry ${field}${why}`);
  };

  const isChunk = k === 'chunk';
  const seq0 = isChunk && env.sequence !== undefined && BigInt(env.sequence) === 0n;
  const hasBody = env.body !== undefined && env.body.length > 0;

  check('record', !!env.record, k === 'chunk' ? 'O' : 'R');
  check('correlation', !!env.correlation, k === 'event' ? 'O' : k === 'status' ? (env.operation === 'task' ? 'R' : 'O') : 'R', k === 'status' ? ' when operation is task' : '');
  check('channel', !!env.channel, isChunk ? 'R' : k === 'error' ? 'O' : 'X');
  if (k === 'error') {
    if (env.sequence !== undefined && !env.channel) matrix('sequence', 'error may carry sequence only with channel');
  } else check('sequence', env.sequence !== undefined, isChunk ? 'R' : 'X');
  check('last', !!env.last, isChunk || k === 'status' ? 'O' : 'X', ' (last = true)');
  if (isChunk) {
    if (env.finish_reason !== undefined && !env.last) matrix('finish_reason', 'chunk may carry finish_reason only with last');
  } else check('finish_reason', env.finish_reason !== undefined, k === 'response' ? 'O' : 'X');
  check('idempotency_key', env.idempotency_key !== undefined, k === 'command' || k === 'response' || k === 'event' ? 'O' : 'X');
  if (isChunk) {
    if (env.deadline_micros !== undefined && !seq0) matrix('deadline_micros', 'chunk may carry deadline_micros only on sequence 0');
  } else check('deadline_micros', env.deadline_micros !== undefined, k === 'command' ? 'O' : 'X');
  if (k === 'status') check('task_state', env.task_state !== undefined, env.operation === 'task' ? 'R' : 'O', env.operation === 'task' ? ' when operation is task' : '');
  else check('task_state', env.task_state !== undefined, k === 'response' || k === 'error' ? 'O' : 'X');

  if (k === 'status') {
    if (env.operation === undefined) matrix('operation', `status requires operation (one of ${STATUS_OPERATIONS.join(', ')})`);
    else if (!STATUS_OPERATIONS.includes(env.operation)) {
      matrix('operation', `status operation ${JSON.stringify(env.operation)} is not one of ${STATUS_OPERATIONS.join(', ')}`);
    }
  } else if (isChunk && env.sequence !== undefined) {
    if (seq0) {
      if (env.operation === undefined) matrix('operation', `the opening chunk (sequence 0) requires operation (one of ${CHUNK_PURPOSES.join(', ')})`);
      else if (!CHUNK_PURPOSES.includes(env.operation)) {
        matrix('operation', `chunk purpose ${JSON.stringify(env.operation)} is not one of ${CHUNK_PURPOSES.join(', ')}`);
      }
    } else if (env.operation !== undefined) matrix('operation', 'chunk may carry operation only on sequence 0');
  }
  check('tool', env.tool !== undefined, k === 'status' ? 'X' : 'O');
  if (isChunk) {
    if (env.usage && !env.last) matrix('usage', 'chunk may carry usage only with last');
  } else check('usage', !!env.usage, k === 'command' ? 'X' : 'O');
  if (isChunk) {
    if (!hasBody && !env.last) matrix('body', 'chunk requires a non-empty body unless it is the last');
  } else if (k !== 'status' && !hasBody) matrix('body', `${k} requires a non-empty body`);

  findings.push(...checkCaps(env, spanOf));

  if (env.must_understand !== undefined) {
    const mask = BigInt(env.must_understand).toString(16).padStart(16, '0');
    add('agdx/must-understand', 'error', 'must_understand', `must_understand has bits this inspector does not implement (unmet mask 0x${mask}): a receiver must reject the message`);
  }
  return findings;
}

function checkCaps(env: Envelope, spanOf: (path: string) => Span | null): Finding[] {
  const out: Finding[] = [];
  const cap = (name: string, path: string, message: string) =>
    out.push({ rule: `agdx/cap/${name}`, severity: 'error', path, message, span: spanOf(path) });
  const capText = (name: 'operation' | 'tool' | 'finish_reason' | 'idempotency_key', max: number, min = 0) => {
    const v = env[name];
    if (v === undefined) return;
    const n = byteLength(v);
    if (n > max) cap(name, name, `${name} is ${n} bytes, more than ${max}`);
    else if (n < min) cap(name, name, `${name} is empty; it must be ${min}..${max} bytes`);
  };
  capText('operation', 256);
  capText('tool', 256);
  capText('finish_reason', 256);
  capText('idempotency_key', 64, 1);
  for (const field of ['source', 'target'] as const) {
    const v = env[field];
    if (v === undefined) continue;
    const n = byteLength(v);
    if (n === 0) cap('agent_id', field, `${field} is empty; an agent id is 1..256 bytes`);
    else if (n > 256) cap('agent_id', field, `${field} is ${n} bytes, more than 256`);
    if (hasControlChar(v)) cap('agent_id', field, `${field} holds a control character`);
  }
  if (env.metadata) {
    if (env.metadata.size > 32) cap('metadata', 'metadata', `metadata has ${env.metadata.size} entries, more than 32`);
    let total = 0;
    for (const [key, value] of env.metadata) {
      const kn = byteLength(key);
      const vn = metaValueSize(value);
      total += kn + vn;
      if (kn > 256) cap('metadata', `metadata.${key}`, `metadata key is ${kn} bytes, more than 256`);
      if (vn > 1024) cap('metadata', `metadata.${key}`, `metadata value of ${JSON.stringify(key)} is ${vn} bytes, more than 1024`);
    }
    if (total > 8192) cap('metadata', 'metadata', `metadata keys plus values are ${total} bytes, more than 8192`);
  }
  return out;
}
