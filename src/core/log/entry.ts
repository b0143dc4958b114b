// What the log analysis (the record-level graph, chunk streams, folds; deadline and clock checks)
// reads of each record: a compact entry per record with an AGDX envelope, made once when the
// record is read. Nothing downstream of the entries looks at a record's bytes, envelope or views,
// so a reader that streams a large log can keep these entries and let the records go.
import type { Envelope, Kind, MetaValue, Usage } from '../agdx/envelope';
import { bytesEqual, toCrockford, ulidTimeMs, utf8OrNull } from '../bytes';
import { decodeCard } from '../folds/card';
import type { CardDecoding, RecordTime, TimeSource } from '../folds/model';
import { readCauseAt, repeatedBridgeHops, type CauseAt } from '../graph/keys';
import type { LogPosition, SignatureVerdict, Span } from '../model';

/** One record with an envelope, as the log analysis sees it. Immutable. */
export interface LogEntry {
  /** The record's place in the load: an index into the report's `records`. */
  readonly record: number;
  readonly input: number;
  /** The record's position inside its input (report `index`). */
  readonly index: number;
  /** A dead letter's payload: the record it was found in (such a payload was never delivered). */
  readonly parent: number | null;
  /**
   * Log order, compared as strings: log time (carried forward within the input to records that
   * have none, 0 before the first), then input, then position. Appending never reorders.
   */
  readonly sortKey: string;
  /** Iggy's append time (epoch µs), when the record has one. */
  readonly logTime: bigint | null;
  readonly logPosition: LogPosition | null;
  /** The record's time: its log time, else its record id's ULID time (ms × 1000), else null. */
  readonly time: bigint | null;
  readonly timeSource: TimeSource;

  // What the envelope says (ids in Crockford).
  readonly kind: Kind;
  readonly recordId: string | null;
  readonly conversation: string;
  readonly source: string;
  readonly target: string | null;
  readonly operation: string | null;
  readonly cause: string | null;
  /** cause_at read as a log position (null when absent or not 20 bytes). */
  readonly causeAt: CauseAt | null;
  readonly correlation: string | null;
  readonly channel: string | null;
  readonly sequence: bigint | null;
  readonly last: boolean;
  readonly finishReason: string | null;
  readonly usage: Usage | null;
  /** deadline_micros (epoch µs). */
  readonly deadline: bigint | null;
  readonly taskState: number | null;
  /** Metadata `run`: text, or an integer as its decimal text. */
  readonly run: string | null;
  /** Bridge ids metadata `bridge_hops` lists more than once (a routing loop), or null. */
  readonly bridgeLoop: readonly string[] | null;
  /** A status card's body, decoded. */
  readonly card: CardDecoding | null;
  /** A quarantine / unquarantine body as UTF-8 (null: no body, empty, or not UTF-8). */
  readonly quarantineTarget: string | null;
  /** A chunk's body (the reassembled text of its stream); null for every other kind. */
  readonly body: Uint8Array | null;

  // What the record's verdict says: these change with the keys (see withVerdicts).
  /** Quarantine facts rest on it. */
  readonly signature: SignatureVerdict;
  /** Not valid by the record's own findings (log-level findings aside). */
  readonly invalid: boolean;
}

/**
 * Where a field of a record is in its bytes (the span a log-level finding about that field points
 * at), or null. Asked only for the few records a log finding is about: the entries carry no spans.
 */
export type LocateField = (record: number, path: string) => Span | null;

/** The entries of a load, and what the analysis needs of the records that have no entry. */
export interface LogFacts {
  /** One per record with an envelope, in record order. */
  readonly entries: readonly LogEntry[];
  /** How many records the load has (with an entry or not). */
  readonly records: number;
  /** The latest log time of any record (with an envelope or not), or null. */
  readonly latestLogTime: bigint | null;
  /** Per input, the latest time of its records (log time, else ULID time), for deadline checks. */
  readonly latestTimeByInput: ReadonlyMap<number, bigint>;
}

/** What an entry is made from: a record's place and the parts of its verdict and data the log reads. */
export interface LogSource {
  input: number;
  index: number;
  /** The verdict's record id and conversation (the envelope's, in Crockford): made once, when read. */
  id: string | null;
  conversation: string | null;
  parent: number | null;
  logTimeMicros: bigint | null;
  logPosition: LogPosition | null;
  envelope: Envelope | null;
  signature: SignatureVerdict;
  invalid: boolean;
}

/** The metadata `run` of an envelope: text, or an integer as its decimal text. */
export function runId(meta: Map<string, MetaValue> | undefined): string | null {
  const v = meta?.get('run');
  if (!v) return null;
  if (v.type === 'text') return v.value;
  if (v.type === 'int') return v.value.toString();
  return null;
}

/** A record's time: its log time when known, else its record id's ULID time (ms → µs), else null. */
export function timeOf(logTime: bigint | null, recordId: Uint8Array | undefined): RecordTime {
  if (logTime !== null) return { time: logTime, source: 'log' };
  // An id whose first 48 bits are zero carries no time (it is not a ULID).
  if (recordId && recordId.length >= 6) {
    const ms = ulidTimeMs(recordId);
    if (ms > 0) return { time: BigInt(ms) * 1000n, source: 'ulid' };
  }
  return { time: null, source: null };
}

/** A record as a person finds it in the report: its record id when it has one, and its place. */
export function describeEntry(e: Pick<LogEntry, 'recordId' | 'kind' | 'input' | 'index'>): string {
  const place = `input ${e.input}, index ${e.index}`;
  return e.recordId !== null ? `record ${e.recordId} (${place})` : `the ${e.kind} at ${place} (it has no record id)`;
}

const pad = (n: bigint | number, width: number) => n.toString().padStart(width, '0');

/**
 * Builds a load's facts one record at a time, in record order: what a streaming reader feeds as it
 * goes. Records without an envelope get no entry, but their log times still count.
 */
export class LogFactsBuilder {
  private readonly entries: LogEntry[] = [];
  private count = 0;
  private latest: bigint | null = null;
  private readonly lastTime = new Map<number, bigint>();
  private readonly latestByInput = new Map<number, bigint>();
  // A log repeats its ids from record to record (a conversation's correlation and channel; a cause
  // naming the record before): the display form of the last one of each is reused.
  private readonly correlations = new LastId();
  private readonly channels = new LastId();
  private readonly recordIds = new LastId();

  /** Adds the next record of the load. */
  add(r: LogSource): void {
    const record = this.count++;
    const logTime = r.logTimeMicros;
    if (logTime !== null) {
      if (this.latest === null || logTime > this.latest) this.latest = logTime;
      if (logTime >= 0n) this.lastTime.set(r.input, logTime);
    }
    const env = r.envelope;
    const { time, source: timeSource } = timeOf(logTime, env?.record);
    if (time !== null) {
      const before = this.latestByInput.get(r.input);
      if (before === undefined || time > before) this.latestByInput.set(r.input, time);
    }
    if (!env) return;
    const sortKey = `${pad(this.lastTime.get(r.input) ?? 0n, 20)}:${pad(r.input, 6)}:${pad(r.index, 9)}`;
    const loop = repeatedBridgeHops(env.metadata);
    const quarantine = env.kind === 'status' && (env.operation === 'quarantine' || env.operation === 'unquarantine');
    const recordId = env.record ? (r.id ?? toCrockford(env.record)) : null;
    const cause = env.cause ? this.recordIds.of(env.cause) : null;
    if (env.record && recordId !== null) this.recordIds.remember(env.record, recordId);
    this.entries.push({
      record,
      input: r.input,
      index: r.index,
      parent: r.parent,
      sortKey,
      logTime,
      logPosition: r.logPosition,
      time,
      timeSource,
      kind: env.kind,
      recordId,
      conversation: r.conversation ?? toCrockford(env.conversation),
      source: env.source,
      target: env.target ?? null,
      operation: env.operation ?? null,
      cause,
      causeAt: env.cause_at ? readCauseAt(env.cause_at) : null,
      correlation: env.correlation ? this.correlations.of(env.correlation) : null,
      channel: env.channel ? this.channels.of(env.channel) : null,
      sequence: env.sequence === undefined ? null : BigInt(env.sequence),
      last: env.last === true,
      finishReason: env.finish_reason ?? null,
      usage: env.usage ?? null,
      deadline: env.deadline_micros === undefined ? null : BigInt(env.deadline_micros),
      taskState: env.task_state ?? null,
      run: runId(env.metadata),
      bridgeLoop: loop.length > 0 ? loop : null,
      card: env.kind === 'status' && env.operation === 'card' ? decodeCard(env.body) : null,
      quarantineTarget: quarantine && env.body && env.body.length > 0 ? utf8OrNull(env.body) : null,
      body: env.kind === 'chunk' ? (env.body ?? null) : null,
      signature: r.signature,
      invalid: r.invalid,
    });
  }

  facts(): LogFacts {
    return { entries: this.entries, records: this.count, latestLogTime: this.latest, latestTimeByInput: this.latestByInput };
  }
}

/** The Crockford form of an id, the last one's reused when the bytes are the same. */
class LastId {
  private bytes: Uint8Array | null = null;
  private id = '';

  of(bytes: Uint8Array): string {
    if (this.bytes && bytesEqual(this.bytes, bytes)) return this.id;
    this.remember(bytes, toCrockford(bytes));
    return this.id;
  }

  remember(bytes: Uint8Array, id: string): void {
    this.bytes = bytes;
    this.id = id;
  }
}

/** The facts of a whole load. */
export function logFacts(records: Iterable<LogSource>): LogFacts {
  const b = new LogFactsBuilder();
  for (const r of records) b.add(r);
  return b.facts();
}

/**
 * The same facts with each entry's verdict part taken from the records again (after the keys
 * changed): new entries, the envelope part shared. `verdictOf` gives a record's signature and
 * whether it is invalid by its own findings.
 */
export function withVerdicts(facts: LogFacts, verdictOf: (record: number) => { signature: SignatureVerdict; invalid: boolean }): LogFacts {
  return {
    ...facts,
    entries: facts.entries.map((e) => {
      const v = verdictOf(e.record);
      return v.signature === e.signature && v.invalid === e.invalid ? e : { ...e, signature: v.signature, invalid: v.invalid };
    }),
  };
}
