// What the log analysis (the record-level graph, chunk streams, folds; deadline and clock checks)
// reads of each record: a compact entry per record with an AGDX envelope, made once when the
// record is read. Nothing downstream of the entries looks at a record's bytes, envelope or views,
// so a reader that streams a large log can keep these entries and let the records go.
import { type Envelope, KINDS, type Kind, type MetaValue, type Usage } from '../agdx/envelope';
import { bytesEqual, toCrockford, ulidTimeMs, utf8OrNull } from '../bytes';
import { type CardDecoding, decodeCard } from '../agdx/card';
import { type CauseAt, readCauseAt } from '../agdx/cause-at';
import { sessionNoteOf, type SessionNote } from '../agdx/session-note';
import type { LogPosition, SignatureVerdict, Span } from '../model';
import { StringTable } from '../string-table';
import { sameSignature } from '../verdict';
import { Column } from './grow';
import { IdTable } from './ids';
import { type EntryPlaces, EntryPlacesBuilder } from './places';
import { SparseIntegers, SparseValues } from './sparse';

export type { EntryPlaces } from './places';

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
  /**
   * The entry's position in log order among the load's entries, from 0: what comparing sortKeys
   * gives (ties, only where a load repeats a place, in record order), as a number.
   */
  readonly logOrder: number;
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
  /** 0.7: the conversation this one was spawned from, and the first of its tree (Crockford). */
  readonly parentConversation: string | null;
  readonly rootConversation: string | null;
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
  /** A session status's or parked / unparked event's body, as the session fold reads it. */
  readonly session: SessionNote | null;

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

/**
 * The entries' record ids and causes as numbers in one table of ids (LogEntry.recordId and cause
 * are their Crockford text, made when asked): what the graph indexes records by.
 */
export interface EntryIds {
  /** By entry: the number of its record id in `table`, or −1. */
  readonly record: Int32Array;
  /** By entry: the number of the id its cause names, or −1. */
  readonly cause: Int32Array;
  readonly table: IdTable;
  /** By entry: its conversation's number (equal numbers, equal conversations). */
  readonly conversation: Int32Array;
}

/** What a report's record says of an entry (LogFacts.reportParts). */
export type ReportParts = Pick<LogEntry, 'record' | 'index' | 'kind' | 'recordId' | 'conversation' | 'source' | 'target' | 'signature' | 'logTime'>;
export type ReportPartsSequence = Pick<readonly ReportParts[], 'length' | 'at'>;

/**
 * What the timing rules read of each entry, by entry, over the facts' columns. It holds those
 * columns and no others: the command line's report keeps it through its second pass, when the rest
 * of the facts may be let go.
 */
export class EntryTimes {
  private readonly kinds: Uint8Array;
  private readonly times: TimeColumns;
  private readonly deadlines: SparseIntegers;
  private readonly correlations: Int32Array;
  private readonly strings: readonly string[];

  constructor(c: Columns) {
    this.kinds = c.kind;
    this.times = timeColumns(c);
    this.deadlines = c.sparse.deadline;
    this.correlations = c.correlation;
    this.strings = c.strings;
  }

  kind(k: number): Kind {
    return KINDS[this.kinds[k]];
  }
  time(k: number): bigint | null {
    return timeAt(this.times, k);
  }
  /** Entry k's time as a number, null when it has none, undefined when a number cannot hold it (time() has it). */
  plainTime(k: number): number | null | undefined {
    const log = this.times.logTime.get(k);
    if (log !== undefined) return typeof log === 'bigint' ? undefined : log;
    const ms = ulidMsAt(this.times, k);
    return ms > 0 ? ms * 1000 : null;
  }
  timeSource(k: number): TimeSource {
    return timeSourceAt(this.times, k);
  }
  deadline(k: number): bigint | null {
    return this.deadlines.bigint(k);
  }
  /** The same of its deadline as plainTime. */
  plainDeadline(k: number): number | null | undefined {
    const d = this.deadlines.get(k);
    return d === undefined ? null : typeof d === 'bigint' ? undefined : d;
  }
  correlation(k: number): string | null {
    return textAt(this.correlations, this.strings, k);
  }
}

/**
 * What an entry's time is made from (timeOf): its log time when it has one, else its record id's
 * ULID time. Kept as those, not as a column of times: the log times are kept anyway, and so are the
 * ids, whose first 6 bytes are the ULID time (9 bytes an entry saved).
 */
interface TimeColumns {
  readonly logTime: SparseIntegers;
  readonly record: Int32Array;
  readonly table: IdTable;
}

function timeColumns(c: Columns): TimeColumns {
  return { logTime: c.sparse.logTime, record: c.ids.record, table: c.ids.table };
}

/** Entry k's record id's ULID time in ms, or 0 when it has none (no id, shorter than 6 bytes, or its first 48 bits zero). */
function ulidMsAt(t: TimeColumns, k: number): number {
  const n = t.record[k];
  return n < 0 ? 0 : t.table.ulidMs(n);
}

/** Entry k's time, as timeOf gives it. */
function timeAt(t: TimeColumns, k: number): bigint | null {
  const log = t.logTime.get(k);
  if (log !== undefined) return BigInt(log);
  const ms = ulidMsAt(t, k);
  return ms > 0 ? BigInt(ms) * 1000n : null;
}

function timeSourceAt(t: TimeColumns, k: number): TimeSource {
  return t.logTime.get(k) !== undefined ? 'log' : ulidMsAt(t, k) > 0 ? 'ulid' : null;
}

/** Entry k's text in a column of string numbers (−1: null): StringTable.at over the table's list, held without the table's index of strings. */
function textAt(column: Int32Array, strings: readonly string[], k: number): string | null {
  const i = column[k];
  return i < 0 ? null : strings[i];
}

/**
 * Entries read by position (a list of them is one): a large log's analysis reads its entries
 * through one, each made when read, so no object per entry is kept (a million were 48 MB).
 */
export type EntrySequence = Pick<readonly LogEntry[], 'length' | 'at'> & Iterable<LogEntry>;

/** The entries of a load, and what the analysis needs of the records that have no entry. */
export interface LogFacts {
  /**
   * One per record with an envelope, in record order, as a list: made when first asked for and
   * kept (what a view or a key change reads). The analysis reads inRecordOrder / inLogOrder.
   */
  readonly entries: readonly LogEntry[];
  /** The entries in record order, each made when read (the list's once it is made). */
  inRecordOrder(): EntrySequence;
  /** The same in log order (LogEntry.logOrder). */
  inLogOrder(): EntrySequence;
  /**
   * The entries in record order with only what a report's record says of them: holding these
   * holds those columns only (the command line's second pass writes clean records from them,
   * cli/report-columns.ts, while the rest of the facts is let go), or the list once it is made (a
   * key change's renewed entries have verdicts of their own).
   */
  reportParts(): ReportPartsSequence;
  /** The entries' record ids and causes, by entry. */
  readonly ids: EntryIds;
  /** By entry: its record's number, input and index (the record graph's nodes are the entries: it reads these). */
  readonly places: EntryPlaces;
  /** By entry: what the timing rules read (analysis/timing.ts), over the entries' columns. */
  readonly times: EntryTimes;
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
  /** The verdict's conversation (the envelope's, in Crockford): made once, when read. */
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

/** Where a record's time came from: Iggy's log time, the record id's ULID time, or nowhere. */
export type TimeSource = 'log' | 'ulid' | null;

export interface RecordTime {
  /** Epoch microseconds, or null when the record has neither a log time nor a ULID time. */
  time: bigint | null;
  source: TimeSource;
}

/** Bridge ids that metadata `bridge_hops` lists more than once. */
function repeatedBridgeHops(meta: Map<string, MetaValue> | undefined): string[] {
  const hops = meta?.get('bridge_hops');
  if (hops?.type !== 'list') return [];
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const h of hops.items) {
    if (h.type !== 'text') continue;
    if (seen.has(h.value)) repeated.add(h.value);
    seen.add(h.value);
  }
  return [...repeated];
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

/** An entry's kind as its number in KINDS (a validated envelope has one of them). */
function kindNumber(kind: Kind): number {
  const i = KINDS.indexOf(kind);
  if (i < 0) throw new TypeError(`LogFactsBuilder: an envelope of kind ${JSON.stringify(kind)}`);
  return i;
}

/** The widths sortKey pads its numbers to: within them, comparing the strings compares the numbers. */
const INPUT_WIDTH = 6;
const INDEX_WIDTH = 9;

const int32 = () => new Column((n) => new Int32Array(n));

/** Chunk bodies copied out of the input (LogFactsBuilder's copyBodies), many to a block. */
class BodyCopies {
  private readonly blocks: Uint8Array[] = [];
  private used = BODY_BLOCK;

  /**
   * A copy of the bytes: a number (where in which block: a view object for each of a large log's
   * chunks costs more than its bytes), or a copy of its own when large.
   */
  copy(bytes: Uint8Array): number | Uint8Array {
    if (bytes.length > LARGE_BODY) return bytes.slice();
    if (this.blocks.length === 0 || this.used + bytes.length > BODY_BLOCK) {
      this.blocks.push(new Uint8Array(BODY_BLOCK));
      this.used = 0;
    }
    const block = this.blocks.length - 1;
    this.blocks[block].set(bytes, this.used);
    const at = (block * BODY_BLOCK + this.used) * (LARGE_BODY + 1) + bytes.length;
    this.used += bytes.length;
    return at;
  }

  /** The bytes `copy` gave this number for. */
  bytes(at: number): Uint8Array {
    const length = at % (LARGE_BODY + 1);
    const start = (at - length) / (LARGE_BODY + 1);
    const block = Math.floor(start / BODY_BLOCK);
    const offset = start % BODY_BLOCK;
    return this.blocks[block].subarray(offset, offset + length);
  }
}

const BODY_BLOCK = 65536;
/** Larger bodies are copied each on its own. */
const LARGE_BODY = 4096;

/**
 * The entries of a load, column by column: what an entry says, one typed array (or table) per
 * field, so a large log costs a few dozen bytes per record rather than an object with thirty
 * fields. What most records lack is kept by record, for those that have it.
 */
interface Columns {
  readonly strings: readonly string[];
  /** Each entry's record, input and index. */
  readonly places: EntryPlaces;
  /**
   * The log time sortKey carries, in two 32-bit halves; one past 64 bits (a hostile export) in
   * `bigCarried`. Null: 0 for every entry (no record before it in its input had a log time, as in
   * any CBOR sequence), which a large log would otherwise keep as 8 bytes an entry.
   */
  readonly carried: { readonly high: Uint32Array; readonly low: Uint32Array } | null;
  readonly bigCarried: ReadonlyMap<number, bigint>;
  /** Position in log order; null: each entry's own number (a log read in its order). */
  readonly rank: Int32Array | null;
  /** Bit 1: last. */
  readonly flags: Uint8Array;
  /** In KINDS. */
  readonly kind: Uint8Array;
  // Indices into `strings` (-1: null).
  readonly conversation: Int32Array;
  readonly source: Int32Array;
  readonly target: Int32Array;
  readonly operation: Int32Array;
  readonly correlation: Int32Array;
  readonly channel: Int32Array;
  readonly ids: EntryIds;
  /** The fields most records lack, by entry. */
  readonly sparse: Sparse;
  /** The chunk bodies copied out (LogFactsOptions.copyBodies). */
  readonly bodies: BodyCopies | null;
  /** The records' verdict parts as read (an entry renewed by withVerdicts has its own). */
  readonly verdicts: {
    /** By entry, or (`numbers`) the distinct ones a shared table kept, each entry's by its number. */
    readonly signature: readonly SignatureVerdict[];
    readonly numbers: Int32Array | null;
    readonly invalid: Uint8Array;
  };
}

interface Sparse {
  /** A dead letter's payload's record (few have one). */
  parent: SparseIntegers;
  logTime: SparseIntegers;
  logPosition: SparseValues<LogPosition>;
  causeAt: SparseValues<CauseAt>;
  sequence: SparseIntegers;
  finishReason: SparseValues<string>;
  usage: SparseValues<Usage>;
  deadline: SparseIntegers;
  taskState: SparseIntegers;
  run: SparseValues<string>;
  bridgeLoop: SparseValues<readonly string[]>;
  card: SparseValues<CardDecoding>;
  quarantineTarget: SparseValues<string>;
  /** Crockford ids of the envelope's parent / root conversations. */
  parentConversation: SparseValues<string>;
  rootConversation: SparseValues<string>;
  session: SparseValues<SessionNote>;
  /** The bytes, or where BodyCopies keeps them. */
  body: SparseValues<Uint8Array | number>;
}

/** Sparse columns with nothing in them: a builder's, before its first entry. */
function emptySparse(): Sparse {
  return {
    parent: new SparseIntegers(),
    logTime: new SparseIntegers(),
    logPosition: new SparseValues(),
    causeAt: new SparseValues(),
    sequence: new SparseIntegers(),
    finishReason: new SparseValues(),
    usage: new SparseValues(),
    deadline: new SparseIntegers(),
    taskState: new SparseIntegers(),
    run: new SparseValues(),
    bridgeLoop: new SparseValues(),
    card: new SparseValues(),
    quarantineTarget: new SparseValues(),
    parentConversation: new SparseValues(),
    rootConversation: new SparseValues(),
    session: new SparseValues(),
    body: new SparseValues(),
  };
}

const LAST = 1;

/**
 * An entry as a view of its load's columns, two fields (a large log has a million): its verdict
 * part read from the load's verdicts, or its own once withVerdicts renews it (RenewedEntry).
 */
class PackedEntry implements LogEntry {
  constructor(
    protected readonly c: Columns,
    protected readonly k: number,
  ) {}

  get signature(): SignatureVerdict {
    const v = this.c.verdicts;
    return v.numbers === null ? v.signature[this.k] : v.signature[v.numbers[this.k]];
  }
  get invalid(): boolean {
    return this.c.verdicts.invalid[this.k] === 1;
  }

  withVerdict(signature: SignatureVerdict, invalid: boolean): PackedEntry {
    return new RenewedEntry(this.c, this.k, signature, invalid);
  }

  private text(column: Int32Array): string | null {
    return textAt(column, this.c.strings, this.k);
  }

  get record(): number {
    return this.c.places.record(this.k);
  }
  get input(): number {
    return this.c.places.input(this.k);
  }
  get index(): number {
    return this.c.places.index(this.k);
  }
  get parent(): number | null {
    const p = this.c.sparse.parent.get(this.k);
    return p === undefined ? null : Number(p);
  }
  get sortKey(): string {
    return sortKeyAt(this.c, this.k);
  }
  get logOrder(): number {
    return this.c.rank === null ? this.k : this.c.rank[this.k];
  }
  get logTime(): bigint | null {
    return this.c.sparse.logTime.bigint(this.k);
  }
  get logPosition(): LogPosition | null {
    return this.c.sparse.logPosition.get(this.k) ?? null;
  }
  get time(): bigint | null {
    return timeAt(timeColumns(this.c), this.k);
  }
  get timeSource(): TimeSource {
    return timeSourceAt(timeColumns(this.c), this.k);
  }
  get kind(): Kind {
    return KINDS[this.c.kind[this.k]];
  }
  get recordId(): string | null {
    return this.c.ids.table.text(this.c.ids.record[this.k]);
  }
  get conversation(): string {
    return this.text(this.c.conversation)!;
  }
  get source(): string {
    return this.text(this.c.source)!;
  }
  get target(): string | null {
    return this.text(this.c.target);
  }
  get operation(): string | null {
    return this.text(this.c.operation);
  }
  get cause(): string | null {
    return this.c.ids.table.text(this.c.ids.cause[this.k]);
  }
  get causeAt(): CauseAt | null {
    return this.c.sparse.causeAt.get(this.k) ?? null;
  }
  get correlation(): string | null {
    return this.text(this.c.correlation);
  }
  get channel(): string | null {
    return this.text(this.c.channel);
  }
  get sequence(): bigint | null {
    return this.c.sparse.sequence.bigint(this.k);
  }
  get last(): boolean {
    return (this.c.flags[this.k] & LAST) !== 0;
  }
  get finishReason(): string | null {
    return this.c.sparse.finishReason.get(this.k) ?? null;
  }
  get usage(): Usage | null {
    return this.c.sparse.usage.get(this.k) ?? null;
  }
  get deadline(): bigint | null {
    return this.c.sparse.deadline.bigint(this.k);
  }
  get taskState(): number | null {
    const v = this.c.sparse.taskState.get(this.k);
    return v === undefined ? null : Number(v);
  }
  get run(): string | null {
    return this.c.sparse.run.get(this.k) ?? null;
  }
  get bridgeLoop(): readonly string[] | null {
    return this.c.sparse.bridgeLoop.get(this.k) ?? null;
  }
  get card(): CardDecoding | null {
    return this.c.sparse.card.get(this.k) ?? null;
  }
  get quarantineTarget(): string | null {
    return this.c.sparse.quarantineTarget.get(this.k) ?? null;
  }
  get parentConversation(): string | null {
    return this.c.sparse.parentConversation.get(this.k) ?? null;
  }
  get rootConversation(): string | null {
    return this.c.sparse.rootConversation.get(this.k) ?? null;
  }
  get session(): SessionNote | null {
    return this.c.sparse.session.get(this.k) ?? null;
  }
  get body(): Uint8Array | null {
    const b = this.c.sparse.body.get(this.k);
    return b === undefined ? null : typeof b === 'number' ? this.c.bodies!.bytes(b) : b;
  }
}

/** An entry whose verdict part is its own (the keys changed), the rest its load's. */
class RenewedEntry extends PackedEntry {
  constructor(
    c: Columns,
    k: number,
    private readonly ownSignature: SignatureVerdict,
    private readonly ownInvalid: boolean,
  ) {
    super(c, k);
  }
  override get signature(): SignatureVerdict {
    return this.ownSignature;
  }
  override get invalid(): boolean {
    return this.ownInvalid;
  }
}

/** Entries over a load's columns, each made when read: in record order, or by `order` (entry numbers). */
class PackedSequence implements EntrySequence {
  readonly length: number;
  constructor(
    private readonly c: Columns,
    private readonly order: Int32Array | null,
  ) {
    this.length = c.places.length;
  }

  /** As a list's `at`: a negative position counts from the end. */
  at(i: number): LogEntry | undefined {
    const n = Math.trunc(i) || 0;
    const p = n < 0 ? n + this.length : n;
    if (p < 0 || p >= this.length) return undefined;
    return new PackedEntry(this.c, this.order === null ? p : this.order[p]);
  }

  *[Symbol.iterator](): Iterator<LogEntry> {
    for (let i = 0; i < this.length; i++) yield this.at(i)!;
  }
}

/** A load's facts over its columns: the entries made when first asked for. */
class PackedFacts implements LogFacts {
  private list: readonly PackedEntry[] | null;

  constructor(
    private readonly c: Columns,
    readonly records: number,
    readonly latestLogTime: bigint | null,
    readonly latestTimeByInput: ReadonlyMap<number, bigint>,
    entries: readonly PackedEntry[] | null = null,
  ) {
    this.list = entries;
  }

  get ids(): EntryIds {
    return this.c.ids;
  }

  get places(): EntryPlaces {
    return this.c.places;
  }

  get times(): EntryTimes {
    return (this.timeColumns ??= new EntryTimes(this.c));
  }
  private timeColumns: EntryTimes | null = null;

  get entries(): readonly LogEntry[] {
    return this.made();
  }

  /** The list, made now if it is not yet. */
  private made(): readonly PackedEntry[] {
    if (this.list === null) {
      const n = this.c.places.length;
      const list = new Array<PackedEntry>(n);
      for (let k = 0; k < n; k++) list[k] = new PackedEntry(this.c, k);
      this.list = list;
    }
    return this.list;
  }

  inRecordOrder(): EntrySequence {
    return this.list ?? new PackedSequence(this.c, null);
  }

  inLogOrder(): EntrySequence {
    const rank = this.c.rank;
    if (rank === null) return this.inRecordOrder();
    const byOrder = new Int32Array(rank.length);
    for (let k = 0; k < rank.length; k++) byOrder[rank[k]] = k;
    const list = this.list;
    if (list === null) return new PackedSequence(this.c, byOrder);
    const ordered = new Array<LogEntry>(list.length);
    for (let i = 0; i < list.length; i++) ordered[i] = list[byOrder[i]];
    return ordered;
  }

  reportParts(): ReportPartsSequence {
    // The columns ReportParts reads, the others empty: an entry's other fields are not to be read
    // through these (ReportParts leaves them out), and their columns are not held.
    const c = this.c;
    const none = new Int32Array(0);
    const parts: Columns = {
      ...c,
      carried: null,
      bigCarried: new Map(),
      rank: null,
      flags: new Uint8Array(0),
      operation: none,
      correlation: none,
      channel: none,
      sparse: { ...emptySparse(), logTime: c.sparse.logTime },
      bodies: null,
    };
    return this.list !== null ? this.list : new PackedSequence(parts, null);
  }

  /** The same facts, each entry's verdict part as `verdictOf` gives it (a new entry where it changed). */
  withVerdicts(verdictOf: (record: number) => { signature: SignatureVerdict; invalid: boolean }): PackedFacts {
    const entries = this.made().map((e) => {
      const v = verdictOf(e.record);
      return v.signature === e.signature && v.invalid === e.invalid ? e : e.withVerdict(v.signature, v.invalid);
    });
    return new PackedFacts(this.c, this.records, this.latestLogTime, this.latestTimeByInput, entries);
  }
}

export interface LogFactsOptions {
  /**
   * Copy each chunk's body out of the record's bytes (default: keep a view of them). A reader that
   * lets each input go once it is read sets it, so no entry holds the input's buffer.
   */
  copyBodies?: boolean;
  /**
   * Keep equal signature verdicts once (default: each record's own). Most records of a log share
   * one (unsigned, or signed by the same key): a reader that keeps no record sets it. An app that
   * compares an entry's verdict with its record's by identity (withVerdicts) leaves it unset.
   */
  shareSignatures?: boolean;
}

/** At most this many distinct verdicts are shared; past it, each further one is kept as it is. */
const SHARED_SIGNATURES = 4096;
/** How many verdicts shared last are compared before a key is made. */
const RECENT_SIGNATURES = 4;

/** Equal signature verdicts, one object each, numbered: an entry keeps its verdict's number (4 bytes, not a reference's 8). */
class SignatureTable {
  /** The verdicts by number. */
  readonly list: SignatureVerdict[] = [];
  private readonly keyed = new Map<string, number>();
  /** The numbers shared last, the latest first. */
  private readonly recent: number[] = [];

  numberOf(v: SignatureVerdict): number {
    // A log's records alternate among a few verdicts (unsigned, and one per signing key): those
    // shared last are compared first (the same object at once, an equal one field by field),
    // before a key is made of the verdict.
    const { recent, list } = this;
    for (let i = 0; i < recent.length; i++) if (sameSignature(list[recent[i]], v)) return recent[i];
    const key = JSON.stringify([v.status, v.scheme, v.key_id, v.signer, v.trusted, v.context_match, v.not_covered, v.reason]);
    let n = this.keyed.get(key);
    if (n === undefined) {
      n = list.length;
      // Frozen (a copy: the record's own stays as it is), so a report writer may keep its text.
      list.push(Object.freeze({ ...v, not_covered: Object.freeze([...v.not_covered]) as string[] }));
      if (this.keyed.size < SHARED_SIGNATURES) this.keyed.set(key, n);
    }
    recent.unshift(n);
    if (recent.length > RECENT_SIGNATURES) recent.pop();
    return n;
  }
}

/**
 * Builds a load's facts one record at a time, in record order: what a streaming reader feeds as it
 * goes. Records without an envelope get no entry, but their log times still count.
 */
export class LogFactsBuilder {
  private count = 0;
  private latest: bigint | null = null;
  private readonly lastTime = new Map<number, bigint>();
  private readonly latestByInput = new Map<number, bigint>();
  // A log repeats its ids from record to record (a conversation's correlation and channel): the
  // display form of the last one of each is reused.
  private readonly correlations = new LastId();
  private readonly channels = new LastId();
  private readonly conversationIds = new LastId();
  private readonly ids = new IdTable();
  private readonly table = new StringTable();
  private readonly bodies: BodyCopies | null;
  private readonly places = new EntryPlacesBuilder();
  private readonly col = {
    flags: new Column((n) => new Uint8Array(n)),
    invalid: new Column((n) => new Uint8Array(n)),
    kind: new Column((n) => new Uint8Array(n)),
    conversation: int32(),
    source: int32(),
    target: int32(),
    operation: int32(),
    correlation: int32(),
    channel: int32(),
    recordId: int32(),
    cause: int32(),
    signatureNumber: int32(),
  };
  private readonly bigCarried = new Map<number, bigint>();
  /** The carried log times' columns, made at the first entry whose carried time is not 0 (Columns.carried). */
  private carried: { high: Column<Uint32Array>; low: Column<Uint32Array> } | null = null;
  /** Each entry's own verdict (without a shared table). */
  private readonly signature: SignatureVerdict[] = [];
  private entryCount = 0;
  private readonly sparse: Sparse = emptySparse();
  /** Whether every entry so far has a sortKey whose numbers fit their widths (then ranks compare numbers). */
  private fits = true;

  private readonly signatures: SignatureTable | null;

  constructor(options: LogFactsOptions = {}) {
    this.bodies = options.copyBodies ? new BodyCopies() : null;
    this.signatures = options.shareSignatures ? new SignatureTable() : null;
  }

  private taken = false;

  /** Adds the next record of the load. */
  add(r: LogSource): void {
    if (this.taken) throw new TypeError('LogFactsBuilder: the facts were taken; start a new builder');
    const record = this.count++;
    const logTime = r.logTimeMicros;
    if (logTime !== null) {
      if (this.latest === null || logTime > this.latest) this.latest = logTime;
      if (logTime >= 0n) this.lastTime.set(r.input, logTime);
    }
    const env = r.envelope;
    // An entry's time is not kept: it is made from its log time and id when asked (TimeColumns).
    const { time } = timeOf(logTime, env?.record);
    if (time !== null) {
      const before = this.latestByInput.get(r.input);
      if (before === undefined || time > before) this.latestByInput.set(r.input, time);
    }
    if (!env) return;
    const k = this.entryCount++;
    const c = this.col;
    const t = this.table;
    const carried = this.lastTime.get(r.input) ?? 0n;
    if (carried >= 1n << 64n) {
      this.bigCarried.set(k, carried);
      this.fits = false;
    }
    if (r.input >= 10 ** INPUT_WIDTH || r.index >= 10 ** INDEX_WIDTH) this.fits = false;
    this.places.add(record, r.input, r.index);
    if (r.parent !== null) this.sparse.parent.set(k, r.parent);
    if (carried !== 0n && this.carried === null) {
      this.carried = { high: new Column((n) => new Uint32Array(n)), low: new Column((n) => new Uint32Array(n)) };
      for (let j = 0; j < k; j++) {
        this.carried.high.push(0);
        this.carried.low.push(0);
      }
    }
    if (this.carried !== null) {
      this.carried.high.push(Number((carried >> 32n) & 0xffffffffn));
      this.carried.low.push(Number(carried & 0xffffffffn));
    }
    c.flags.push(env.last === true ? LAST : 0);
    c.invalid.push(r.invalid ? 1 : 0);
    if (this.signatures) c.signatureNumber.push(this.signatures.numberOf(r.signature));
    else this.signature.push(r.signature);
    const loop = repeatedBridgeHops(env.metadata);
    const quarantine = env.kind === 'status' && (env.operation === 'quarantine' || env.operation === 'unquarantine');
    c.recordId.push(env.record ? this.ids.intern(env.record) : -1);
    c.cause.push(env.cause ? this.ids.intern(env.cause) : -1);
    c.kind.push(kindNumber(env.kind));
    c.conversation.push(t.id(r.conversation ?? toCrockford(env.conversation)));
    c.source.push(t.id(env.source));
    c.target.push(t.id(env.target));
    c.operation.push(t.id(env.operation));
    c.correlation.push(t.id(env.correlation ? this.correlations.of(env.correlation) : null));
    c.channel.push(t.id(env.channel ? this.channels.of(env.channel) : null));
    const s = this.sparse;
    if (logTime !== null) s.logTime.set(k, logTime);
    if (r.logPosition) s.logPosition.set(k, r.logPosition);
    const causeAt = env.cause_at ? readCauseAt(env.cause_at) : null;
    if (causeAt) s.causeAt.set(k, causeAt);
    if (env.sequence !== undefined) s.sequence.set(k, env.sequence);
    if (env.finish_reason !== undefined) s.finishReason.set(k, env.finish_reason);
    if (env.usage) s.usage.set(k, env.usage);
    if (env.deadline_micros !== undefined) s.deadline.set(k, env.deadline_micros);
    if (env.task_state !== undefined) s.taskState.set(k, env.task_state);
    const run = runId(env.metadata);
    if (run !== null) s.run.set(k, run);
    if (loop.length > 0) s.bridgeLoop.set(k, loop);
    if (env.kind === 'status' && env.operation === 'card') s.card.set(k, decodeCard(env.body));
    const target = quarantine && env.body && env.body.length > 0 ? utf8OrNull(env.body) : null;
    if (target !== null) s.quarantineTarget.set(k, target);
    if (env.parent) s.parentConversation.set(k, this.conversationIds.of(env.parent));
    if (env.root) s.rootConversation.set(k, this.conversationIds.of(env.root));
    const note = sessionNoteOf(env);
    if (note) s.session.set(k, note);
    if (env.kind === 'chunk' && env.body) s.body.set(k, this.bodies ? this.bodies.copy(env.body) : env.body);
  }

  /** The load's facts: once, at the end (the columns are handed over, not copied). */
  facts(): LogFacts {
    if (this.taken) throw new TypeError('LogFactsBuilder: the facts were taken already');
    this.taken = true;
    const c = this.col;
    const conversation = c.conversation.done();
    const columns: Columns = {
      strings: this.table.strings,
      places: this.places.done(),
      carried: this.carried && { high: this.carried.high.done(), low: this.carried.low.done() },
      bigCarried: this.bigCarried,
      rank: null,
      flags: c.flags.done(),
      kind: c.kind.done(),
      conversation,
      source: c.source.done(),
      target: c.target.done(),
      operation: c.operation.done(),
      correlation: c.correlation.done(),
      channel: c.channel.done(),
      ids: { record: c.recordId.done(), cause: c.cause.done(), table: this.ids, conversation },
      sparse: this.sparse,
      bodies: this.bodies,
      verdicts: this.signatures
        ? { signature: this.signatures.list, numbers: c.signatureNumber.done(), invalid: c.invalid.done() }
        : { signature: this.signature, numbers: null, invalid: c.invalid.done() },
    };
    this.ids.seal();
    for (const column of Object.values(this.sparse)) column.trim();
    const ranked: Columns = { ...columns, rank: logRanks(columns, this.fits) };
    return new PackedFacts(ranked, this.count, this.latest, this.latestByInput);
  }
}

/**
 * Each entry's position in log order (by sortKey; ties, which only a load repeating a place can
 * have, in record order). Within their widths the numbers compare as the strings do; past them the
 * strings are compared.
 */
function logRanks(c: Columns, fits: boolean): Int32Array | null {
  const n = c.places.length;
  const { carried, places } = c;
  const input = (k: number) => places.input(k);
  const index = (k: number) => places.index(k);
  const hi = carried?.high;
  const lo = carried?.low;
  const compare = !fits
    ? (a: number, b: number) => {
        const x = sortKeyAt(c, a);
        const y = sortKeyAt(c, b);
        return x < y ? -1 : x > y ? 1 : a - b;
      }
    : hi && lo
      ? (a: number, b: number) => hi[a] - hi[b] || lo[a] - lo[b] || input(a) - input(b) || index(a) - index(b) || a - b
      : (a: number, b: number) => input(a) - input(b) || index(a) - index(b) || a - b;
  let sorted = true;
  for (let k = 1; k < n && sorted; k++) sorted = compare(k - 1, k) < 0;
  if (sorted) return null;
  const rank = new Int32Array(n);
  const order = new Int32Array(n);
  for (let k = 0; k < n; k++) order[k] = k;
  order.sort(compare);
  for (let i = 0; i < n; i++) rank[order[i]] = i;
  return rank;
}

function sortKeyAt(c: Columns, k: number): string {
  const carried = c.bigCarried.get(k) ?? (c.carried ? (BigInt(c.carried.high[k]) << 32n) | BigInt(c.carried.low[k]) : 0n);
  // Joined: one flat string, not a chain of concatenations (the graph keeps one per record).
  return [pad(carried, 20), ':', pad(c.places.input(k), INPUT_WIDTH), ':', pad(c.places.index(k), INDEX_WIDTH)].join('');
}

/** The Crockford form of an id, the last one's reused when the bytes are the same. */
class LastId {
  private bytes: Uint8Array | null = null;
  private id = '';

  of(bytes: Uint8Array): string {
    if (this.bytes && bytesEqual(this.bytes, bytes)) return this.id;
    // A copy: the bytes are a view of the input, whose whole buffer (a window of a large file)
    // would otherwise stay for as long as the builder does.
    this.bytes = bytes.slice();
    this.id = toCrockford(bytes);
    return this.id;
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
 * changed): new entries where it changed, the others kept, the envelope part shared. `verdictOf`
 * gives a record's signature and whether it is invalid by its own findings.
 */
export function withVerdicts(facts: LogFacts, verdictOf: (record: number) => { signature: SignatureVerdict; invalid: boolean }): LogFacts {
  if (!(facts instanceof PackedFacts)) throw new TypeError('withVerdicts: not facts that logFacts or a LogFactsBuilder made');
  return facts.withVerdicts(verdictOf);
}
