// Trust, one decision for both families: a valid signature is trusted when an entry of the reader's
// own registry backs its signer (AGDX: the key registered for the record's source, or an operator
// key for quarantine / unquarantine; AgentDNA: the signer's DID), unrevoked, and the record's time
// lies inside the entry's window. A window with no known time for the record is not satisfied.
// Nothing else makes a signature trusted: a DID that matches its own signature is only *bound*.
// Each decision says why, in words.
import { agdxRecordTime, isoFromMicros, type RecordTimeOf } from '../time';
import { entryLabel, isDidEntry, type RegistryEntry } from './keys';

export interface TrustSubject {
  /** The identity the record claims: an AGDX source, an AgentDNA signer DID. */
  claimed: string;
  /** The operation when only an operator entry may back the record (AGDX quarantine / unquarantine). */
  operatorOnly: string | null;
  /** When the record was made; null when that is not known. */
  time: RecordTimeOf | null;
  /** Why the time is not known, in words (used when `time` is null and an entry has a window). */
  noTime: string;
}

export interface TrustDecision {
  trusted: boolean;
  reason: string;
}

/** Only an operator key may sign these (report.md, Key files). */
export function needsOperator(kind: string | null, operation: string | null | undefined): boolean {
  return kind === 'status' && (operation === 'quarantine' || operation === 'unquarantine');
}

/** What the trust decision needs of an AGDX record: its source, operation and time (log time, else ULID time). */
export function agdxTrustSubject(
  env: { source: string; kind: string; operation?: string | null; record?: Uint8Array | null },
  logTimeMicros: bigint | null,
): TrustSubject {
  return {
    claimed: env.source,
    operatorOnly: needsOperator(env.kind, env.operation) ? env.operation! : null,
    time: agdxRecordTime(logTimeMicros, env.record),
    noTime: 'the record has no log time and no record id time',
  };
}

function at(time: RecordTimeOf): string {
  const iso = isoFromMicros(time.micros);
  return `${time.from} (${iso ?? `${time.micros} µs`})`;
}

/** Whether one registry entry backs a valid signature of `subject`, and why. */
export function decideTrust(entry: RegistryEntry, subject: TrustSubject): TrustDecision {
  const label = entryLabel(entry);
  if (entry.revoked) return { trusted: false, reason: `${label} is revoked in your registry` };
  if (subject.operatorOnly !== null && entry.kind !== 'operator') {
    return { trusted: false, reason: `a ${subject.operatorOnly} must be signed by an operator key; ${label} is registered as an agent's, not an operator's` };
  }
  if (subject.operatorOnly === null) {
    if (isDidEntry(entry) && entry.did !== subject.claimed) return { trusted: false, reason: `${label} is not the signer's DID` };
    if (!isDidEntry(entry) && entry.agent !== subject.claimed) {
      return {
        trusted: false,
        reason: entry.agent
          ? `${label} is registered for ${JSON.stringify(entry.agent)}, not for the record's source ${JSON.stringify(subject.claimed)}`
          : `${label} is not registered for any agent`,
      };
    }
  }
  const bounded = entry.notBeforeMicros !== null || entry.notAfterMicros !== null;
  const whose = isDidEntry(entry)
    ? `DID registered for ${entry.agent ? JSON.stringify(entry.agent) : 'no named agent'}`
    : `registered ${entry.kind} key of ${entry.agent || 'an operator'}`;
  if (!bounded) return { trusted: true, reason: whose };
  const t = subject.time;
  if (t === null) return { trusted: false, reason: `${label} is valid only inside a window, and ${subject.noTime}: the window cannot be satisfied` };
  if (entry.notBeforeMicros !== null && t.micros < entry.notBeforeMicros) return { trusted: false, reason: `${at(t)} is before ${label}'s window opens` };
  if (entry.notAfterMicros !== null && t.micros > entry.notAfterMicros) return { trusted: false, reason: `${at(t)} is after ${label}'s window closed` };
  return { trusted: true, reason: `${whose}, inside its window at ${t.from}` };
}

/**
 * One answer from the decisions of several entries that match the same signature: a revocation of
 * the signer's identity wins over another registration of it, then any entry that backs it.
 */
export function decideAmong(entries: readonly RegistryEntry[], subject: TrustSubject): (TrustDecision & { entry: RegistryEntry }) | null {
  if (entries.length === 0) return null;
  const decisions = entries.map((entry) => ({ entry, ...decideTrust(entry, subject) }));
  return decisions.find((d) => d.entry.revoked) ?? decisions.find((d) => d.trusted) ?? decisions[0];
}
