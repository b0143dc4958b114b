// AGDX code dictionaries (u8 codes). Unknown codes pass through as `unrecognized-N`.

export const TASK_STATES: Record<number, string> = {
  1: 'submitted',
  2: 'working',
  3: 'input-required',
  4: 'completed',
  5: 'canceled',
  6: 'failed',
  7: 'rejected',
  8: 'auth-required',
  9: 'unknown',
};
export const TERMINAL_TASK_STATES = new Set([4, 5, 6, 7]);

export const CONTENT_TYPES: Record<number, string> = {
  0: 'raw',
  1: 'json',
  2: 'msgpack',
  3: 'cbor',
  4: 'bson',
  5: 'avro',
  6: 'protobuf',
  7: 'arrow',
  8: 'ref',
  255: 'any',
};

export const ERROR_CODES: Record<number, string> = {
  1: 'invalid_request',
  2: 'unauthorized',
  3: 'unsupported',
  4: 'deadline_exceeded',
  5: 'cancelled',
  6: 'tool_failure',
  7: 'internal',
};

export const DEAD_LETTER_REASONS: Record<number, string> = {
  1: 'retry_exhausted',
  2: 'rejected',
  3: 'decode_failed',
  4: 'deadline_exceeded',
};

export const HEALTH: Record<number, string> = { 1: 'healthy', 2: 'degraded', 3: 'unavailable' };

export const SIGNATURE_SCHEMES: Record<number, string> = { 1: 'ed25519' };

export const STATUS_OPERATIONS = ['task', 'card', 'progress', 'quarantine', 'unquarantine'];
export const CHUNK_PURPOSES = ['chat', 'reasoning', 'tool_args'];

export function codeName(dict: Record<number, string>, code: number): string {
  return dict[code] ?? `unrecognized-${code}`;
}
