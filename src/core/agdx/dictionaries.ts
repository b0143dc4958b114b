// AGDX code dictionaries (u8 codes). Unknown codes pass through as `unrecognized-N`.

import { LATEST } from './dialects';

/** Task states by code, as every dialect between them names them (dialects.ts: 0.7 added 10 paused). */
export const TASK_STATES: Readonly<Record<number, string>> = LATEST.taskStates;
export const TERMINAL_TASK_STATES: ReadonlySet<number> = LATEST.terminal;

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

export const CHUNK_PURPOSES = ['chat', 'reasoning', 'tool_args'];

export function codeName(dict: Readonly<Record<number, string>>, code: number): string {
  return dict[code] ?? `unrecognized-${code}`;
}
