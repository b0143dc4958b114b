// What an Iggy export's log time adds to a record it wraps. The log time is the log's word, not the
// sender's: no signature covers it, so a signed record lists it as not covered, and trust is judged
// by the record id's ULID time (the one its signature covers) with the log time only narrowing it
// (keys/trust.ts). When a signed record's two times disagree by more than the clock-skew bound,
// that is a finding (an unsigned record has no signed time: its record id is as open to rewriting
// as the log time around it).
import type { Span } from '../bytes';
import { finding } from '../rules';
import { agdxSignedTime, formatDuration, isoFromMicros } from '../time';
import type { RecordDraft } from './build';
import type { Finding } from '../verdict';

/** How far a log time and a record id's ULID time may drift apart (clocks, queues) before it is said. */
export const LOG_TIME_SKEW_MICROS = 300_000_000n;

/** The `not_covered` path of a record's log time (the report's field name for it). */
export const LOG_TIME_PATH = 'log_time_micros';

const when = (micros: bigint) => isoFromMicros(micros) ?? `${micros} µs`;

/** agdx/log-time/skew when the record's log time and its record id's time are further apart than the bound, else null. */
export function logTimeSkew(recordId: Uint8Array | null | undefined, logTimeMicros: bigint | null, span: Span | null): Finding | null {
  const signed = agdxSignedTime(recordId);
  if (signed === null || logTimeMicros === null) return null;
  const by = logTimeMicros - signed.micros;
  if ((by < 0n ? -by : by) <= LOG_TIME_SKEW_MICROS) return null;
  return finding(
    'agdx/log-time/skew',
    'record',
    `the log time ${when(logTimeMicros)} is ${formatDuration(by < 0n ? -by : by)} ${by < 0n ? 'before' : 'after'} the record id's ULID time ${when(signed.micros)}, more than the ${formatDuration(LOG_TIME_SKEW_MICROS)} clocks may drift; the signature covers the record id's time, not the log time`,
    span,
  );
}

/**
 * A record read from a message of an export, with what the message's log time adds: the log time
 * listed as not covered by the record's signature (it never is), and, for an envelope the message
 * carries itself (`recordSpan` given: a dead letter's payload was appended later, by design), the
 * skew finding when its times disagree. An unsigned record is left as it is.
 */
export function withLogTime(d: RecordDraft, skew: { recordSpan: Span | null } | null): RecordDraft {
  if (d.logTimeMicros === null || d.envelope === null || d.signature.status === 'unsigned') return d;
  const found = skew ? logTimeSkew(d.envelope.record, d.logTimeMicros, skew.recordSpan) : null;
  return {
    ...d,
    findings: found ? [...d.findings, found] : d.findings,
    signature: d.signature.not_covered.includes(LOG_TIME_PATH) ? d.signature : { ...d.signature, not_covered: [...d.signature.not_covered, LOG_TIME_PATH] },
  };
}
