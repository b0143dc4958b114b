// A record as the page lists it (RecordSummary): its verdict, with the log's findings about it
// counted in, its operation and its time (log time, else its id's ULID time) for the list's columns.
import { trustNote } from '../core/keys/trust-note';
import type { InspectedRecord } from '../core/records';
import { hasBody } from '../core/share/redact';
import { agdxRecordTime } from '../core/time';
import { allFindings, isValid, type Finding } from '../core/verdict';
import type { HandlerContext, RequestType } from '../wire/protocol';
import { packSummaries, type RecordSummary, type SummaryPack } from '../wire/summary-pack';
import type { EnvelopeSaid, SummaryCounts, SummaryKept } from './summary-columns';

/** A record as the page lists it: its verdict with the log's findings about it counted in. */
export function summarize(key: number, r: InspectedRecord, logFindings?: readonly Finding[], redacted = false): RecordSummary {
  return summaryFrom(key, r, { ...summaryCounts(r, logFindings, redacted), ...envelopeSaid(r) });
}

/** What a record's summary counts with the log's findings about it (summarize), without the summary. */
export function summaryCounts(r: InspectedRecord, logFindings?: readonly Finding[], redacted = false): SummaryCounts {
  const v = r.verdict;
  let errors = 0;
  let warnings = 0;
  for (const f of allFindings(v, logFindings)) {
    if (f.severity === 'error') errors++;
    else if (f.severity === 'warning') warnings++;
  }
  return { valid: isValid(v, logFindings), errors, warnings, redacted: redacted && hasBody(r) };
}

/** What a record's summary reads of its envelope: its operation, and its time (log time, else its id's ULID time). */
function envelopeSaid({ verdict: v, data }: InspectedRecord): EnvelopeSaid {
  // Read once: a bulk-read record's envelope, once let go, is read again from the input each time.
  const envelope = data.envelope;
  const time = agdxRecordTime(v.logTimeMicros, envelope?.record);
  return {
    operation: envelope?.operation ?? null,
    timeMs: time ? Number(time.micros / 1000n) : null,
    timeFrom: time ? (v.logTimeMicros !== null ? 'log' : 'id') : null,
  };
}

/** A summary from its verdict and what it says beyond it (summarize, or the summary columns). */
export function summaryFrom(key: number, { verdict: v }: InspectedRecord, kept: SummaryKept): RecordSummary {
  return {
    key,
    input: v.input,
    index: v.index,
    format: v.format,
    kind: v.kind,
    id: v.id,
    conversation: v.conversation,
    source: v.source,
    target: v.target,
    decoded: v.decoded,
    valid: kept.valid,
    errorCode: v.error?.code ?? null,
    signature: v.signature.status,
    trusted: v.signature.trusted,
    trustNote: trustNote(v.signature),
    errors: kept.errors,
    warnings: kept.warnings,
    summary: v.summary,
    redacted: kept.redacted,
    dialect: v.dialect,
    displayType: v.displayType,
    operation: kept.operation,
    timeMs: kept.timeMs,
    timeFrom: kept.timeFrom,
  };
}

/** Summaries packed for the crossing, their buffer handed over with the reply. */
export function packed<K extends RequestType>(records: ReadonlyArray<RecordSummary>, ctx: HandlerContext<K>): SummaryPack {
  const pack = packSummaries(records);
  ctx.transfer(pack.cols.buffer);
  return pack;
}
