// What the session fold reads of a record's body (SessionNote): a session status's body, or a
// parked / unparked event's SessionParking, read once when the log's entries are made, with the
// readers the record's own checks use (agdx/shapes.ts). A body that is not its shape is noted as
// null: the record's findings (agdx/session/body, agdx/session/parking) say why.
import type { Envelope } from './envelope';
import { DIALECT_07 } from './dialects';
import { bodyItem, readSessionBody, readSessionParking, ShapeError, type SessionBody, type SessionParking } from './shapes';

/**
 * What the session fold reads of a record's body, decoded once when the log's entries are made:
 * a session status's SessionStart / SessionTransition / SessionEnd, or a
 * parked / unparked event's SessionParking. `body` / `parking` is null when the body is not its
 * shape (the record's own findings say why; the fold only notes it).
 */
export type SessionNote = { kind: 'status'; body: SessionBody | null } | { kind: 'parking'; op: 'parked' | 'unparked'; parking: SessionParking | null };

/** Reads the shape or returns null when the body is not it (anything else is a bug and throws). */
function orNull<T>(read: () => T): T | null {
  try {
    return read();
  } catch (e) {
    if (e instanceof ShapeError) return null;
    throw e;
  }
}

/** The note of a record the session fold reads, or null for every other record. */
export function sessionNoteOf(env: Envelope): SessionNote | null {
  const body = env.body;
  if (env.kind === 'status' && env.operation === DIALECT_07.sessionOperation) {
    const state = env.task_state;
    if (state === undefined || !body || body.length === 0) return { kind: 'status', body: null };
    return { kind: 'status', body: orNull(() => readSessionBody(bodyItem(body, 0, body.length, 'session body'), state, DIALECT_07.terminal)) };
  }
  if (env.kind === 'event' && (env.operation === 'session_parked' || env.operation === 'session_unparked')) {
    const op = env.operation === 'session_parked' ? 'parked' : 'unparked';
    if (!body || body.length === 0) return { kind: 'parking', op, parking: null };
    return { kind: 'parking', op, parking: orNull(() => readSessionParking(bodyItem(body, 0, body.length, 'session parking'))) };
  }
  return null;
}
