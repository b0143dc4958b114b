// Trust: a valid signature is trusted when its key is registered for the record's signer,
// unrevoked and inside its window at the record's time. quarantine and unquarantine need an
// operator key. Each decision says why, in words.
import type { RegisteredKey } from './keys';

export interface TrustSubject {
  /** The agent the record claims as its source. */
  source: string;
  /** The status operation, when there is one. */
  operation: string | null;
  kind: string | null;
  /** The record's log timestamp (epoch µs), when an export gave it. */
  logTimeMicros: bigint | null;
  /** The record id's ULID time (epoch ms), when it has a record id. */
  ulidTimeMs: number | null;
}

export interface TrustDecision {
  trusted: boolean;
  reason: string;
}

export function needsOperator(subject: TrustSubject): boolean {
  return subject.kind === 'status' && (subject.operation === 'quarantine' || subject.operation === 'unquarantine');
}

export function decideTrust(key: RegisteredKey, subject: TrustSubject): TrustDecision {
  const operator = needsOperator(subject);
  if (key.revoked) return { trusted: false, reason: `key ${key.id} is revoked` };
  if (operator && key.kind !== 'operator') {
    return { trusted: false, reason: `a ${subject.operation} must be signed by an operator key; key ${key.id} is an agent key of ${key.agent || 'no agent'}` };
  }
  if (!operator && key.agent !== subject.source) {
    return {
      trusted: false,
      reason: key.agent ? `key ${key.id} is registered for ${JSON.stringify(key.agent)}, not for the record's source ${JSON.stringify(subject.source)}` : `key ${key.id} is not registered for any agent`,
    };
  }
  let at: bigint | null = null;
  let when = '';
  if (subject.logTimeMicros !== null) {
    at = subject.logTimeMicros;
    when = 'the record\'s log time';
  } else if (subject.ulidTimeMs !== null) {
    at = BigInt(subject.ulidTimeMs) * 1000n;
    when = 'the record id\'s ULID time';
  }
  const bounded = key.notBeforeMicros !== null || key.notAfterMicros !== null;
  if (at === null) {
    return { trusted: true, reason: `registered ${key.kind} key of ${key.agent || 'an operator'}${bounded ? '; its validity window was not checked: the record has no log time and no record id' : ''}` };
  }
  if (key.notBeforeMicros !== null && at < key.notBeforeMicros) return { trusted: false, reason: `${when} is before key ${key.id}'s window opens` };
  if (key.notAfterMicros !== null && at > key.notAfterMicros) return { trusted: false, reason: `${when} is after key ${key.id}'s window closed` };
  return { trusted: true, reason: `registered ${key.kind} key of ${key.agent || 'an operator'}${bounded ? `, inside its window at ${when}` : ''}` };
}
