// Trust, one decision for both families: a valid signature is trusted when an entry of the reader's
// own registry backs its signer (AGDX: the key registered for the record's source, an operator key
// of that source for quarantine / unquarantine; AgentDNA: the signer's DID), unrevoked, and the
// record's time lies inside the entry's window. The time that decides is one the signature covers
// (AGDX: the record id's ULID time; AgentDNA: the envelope's epoch): a key holder can backdate it,
// but nobody else can change it. A time from around the record (an Iggy export's log time), which
// anyone who rewraps the bytes can set, only narrows trust: when there is one, it must lie inside
// the window too. A window with no signed time for the record is not satisfied. Nothing else makes
// a signature trusted: a DID that matches its own signature is only *bound*. Each decision says
// why, in words, naming the times that decided.
import { agdxLogTime, agdxSignedTime, isoFromMicros, type RecordTimeOf } from '../time';
import { entryLabel, isDidEntry, type RegistryEntry } from './keys';

export interface TrustSubject {
  /** The identity the record claims: an AGDX source, an AgentDNA signer DID. */
  claimed: string;
  /** The operation when only an operator entry may back the record (AGDX quarantine / unquarantine). */
  operatorOnly: string | null;
  /** When the record was made, by a time its signature covers; null when it carries none. */
  time: RecordTimeOf | null;
  /** Why there is no signed time, in words (used when `time` is null and an entry has a window). */
  noTime: string;
  /**
   * A time the record's wrapper gives (an Iggy export's log time), which no signature covers; null
   * when there is none. It can only narrow trust: a window must hold it as well as `time`.
   */
  wrapperTime?: RecordTimeOf | null;
}

export interface TrustDecision {
  trusted: boolean;
  reason: string;
}

/** Only an operator key may sign these (report.md, Key files). */
export function needsOperator(kind: string | null, operation: string | null | undefined): boolean {
  return kind === 'status' && (operation === 'quarantine' || operation === 'unquarantine');
}

/**
 * What the trust decision needs of an AGDX record: its source, operation, its signed time (the
 * record id's ULID time) and its log time, when it has one (not signed: it can only narrow trust).
 */
export function agdxTrustSubject(
  env: { source: string; kind: string; operation?: string | null; record?: Uint8Array | null },
  logTimeMicros: bigint | null,
): TrustSubject {
  const log = agdxLogTime(logTimeMicros);
  return {
    claimed: env.source,
    operatorOnly: needsOperator(env.kind, env.operation) ? env.operation! : null,
    time: agdxSignedTime(env.record),
    noTime: `the record id carries no ULID time, the only time its signature covers${log ? ` (${at(log)} is not signed, so it cannot stand in for one)` : ''}`,
    wrapperTime: log,
  };
}

function at(time: RecordTimeOf): string {
  const iso = isoFromMicros(time.micros);
  return `${time.from} (${iso ?? `${time.micros} µs`})`;
}

/** Why `t` is outside the entry's window, or null when it is inside. */
function outside(entry: RegistryEntry, label: string, t: RecordTimeOf): string | null {
  if (entry.notBeforeMicros !== null && t.micros < entry.notBeforeMicros) return `${at(t)} is before ${label}'s window opens`;
  if (entry.notAfterMicros !== null && t.micros > entry.notAfterMicros) return `${at(t)} is after ${label}'s window closed`;
  return null;
}

/** Whether one registry entry backs a valid signature of `subject`, and why. */
export function decideTrust(entry: RegistryEntry, subject: TrustSubject): TrustDecision {
  const label = entryLabel(entry);
  if (entry.revoked) return { trusted: false, reason: `${label} is revoked in your registry` };
  if (subject.operatorOnly !== null && entry.kind !== 'operator') {
    return { trusted: false, reason: `a ${subject.operatorOnly} must be signed by an operator key; ${label} is registered as an agent's, not an operator's` };
  }
  if (isDidEntry(entry) && entry.did !== subject.claimed) return { trusted: false, reason: `${label} is not the signer's DID` };
  if (!isDidEntry(entry) && entry.agent !== subject.claimed) {
    // An operator key backs a quarantine only from its own agent: a record whose source claims
    // another is that operator's word under someone else's name.
    const operator = subject.operatorOnly !== null ? `: a ${subject.operatorOnly} is backed only when its source is the operator key's own agent` : '';
    return {
      trusted: false,
      reason: entry.agent
        ? `${label} is registered for ${JSON.stringify(entry.agent)}, not for the record's source ${JSON.stringify(subject.claimed)}${operator}`
        : `${label} is not registered for any agent`,
    };
  }
  const bounded = entry.notBeforeMicros !== null || entry.notAfterMicros !== null;
  const whose = isDidEntry(entry)
    ? `DID registered for ${entry.agent ? JSON.stringify(entry.agent) : 'no named agent'}`
    : `registered ${entry.kind} key of ${entry.agent || 'an operator'}`;
  if (!bounded) return { trusted: true, reason: whose };
  const t = subject.time;
  if (t === null) return { trusted: false, reason: `${label} is valid only inside a window, and ${subject.noTime}: the window cannot be satisfied` };
  const signed = outside(entry, label, t);
  if (signed !== null) return { trusted: false, reason: signed };
  const w = subject.wrapperTime ?? null;
  if (w === null) return { trusted: true, reason: `${whose}, inside its window at ${at(t)}` };
  const wrapper = outside(entry, label, w);
  if (wrapper !== null) {
    return {
      trusted: false,
      reason: `${wrapper}, though ${at(t)} is inside it; ${w.from} is not signed and can only narrow trust`,
    };
  }
  return { trusted: true, reason: `${whose}, inside its window at ${at(t)} and at ${at(w)} (not signed)` };
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
