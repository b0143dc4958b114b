// The streamed report's second pass without judging every record again. report@1 writes each
// record with the log's findings about it, known only once the whole log is read, so the inputs are
// read twice (stream.ts). Most records of a large log have no finding of their own: what report@1
// says of such a record is its log entry (log/entry.ts: place, kind, ids, parties, signature) and
// a few columns kept here (its span, format and dialect). An input read in windows whose every
// record is one of those is written from the columns; its bytes are read again only to locate the
// log's findings about a record, and a record whose field its bytes alone do not locate is read
// again whole. Any other input is read and judged again (stream.ts), and the report is the same
// either way (report-columns.test.ts holds them equal).
import { cborRecordBatches } from '../core/import/cbor-items';
import { envelopeViews, topLevelFieldSpan } from '../core/import/views';
import type { ReportPartsSequence } from '../core/log/entry';
import { Column } from '../core/log/grow';
import type { RecordFormat, Span } from '../core/model';
import { type InspectedRecord, spanOfField } from '../core/records';
import { type ReportRecord, type ReportedVerdict, reportRecord } from '../core/report';
import { sameItems } from '../core/same-items';
import { type Finding, NO_FINDINGS } from '../core/verdict';

/** What a clean record's report says beyond its log entry and span, shared by the records that say the same. */
interface Shape {
  readonly format: RecordFormat;
  readonly dialect: string | null;
  readonly dialectEvidence: readonly string[];
  readonly displayType: string | null;
}

/**
 * One input's clean records as the first pass saw them: back to back, so each one's length tells
 * where the next starts. A record's length and shape number share 32 bits (packed below): 4 bytes
 * a record, not 8.
 */
class InputColumns {
  readonly record = new Column((n) => new Uint32Array(n));
  records = 0;
  /** Where the next record must start. */
  next: number;
  constructor(
    /** The input's first record and first log entry, in the load, and the first record's start. */
    readonly firstRecord: number,
    readonly firstEntry: number,
    readonly start: number,
  ) {
    this.next = start;
  }
}

/** An input the second pass writes from columns: its records' lengths and shapes, in record order, from `start`. */
export interface CleanInput {
  readonly firstRecord: number;
  readonly firstEntry: number;
  readonly records: number;
  readonly start: number;
  /** Each record's length and shape number, packed (lengthOf, shapeOf). */
  readonly record: Uint32Array;
  readonly shapes: readonly Shape[];
}

/** Bits of a packed record's length; the shape number takes the rest. */
const LENGTH_BITS = 22;
const pack = (length: number, shape: number) => (shape * 2 ** LENGTH_BITS + length) >>> 0;
/** A packed record's length. */
const lengthOf = (packed: number) => packed % 2 ** LENGTH_BITS;
/** A packed record's shape number. */
const shapeOf = (packed: number) => Math.floor(packed / 2 ** LENGTH_BITS);

/**
 * Collects, as the first pass reads, what the second needs to write an input's records without
 * judging them again; an input stops being collected at its first record that is not clean.
 */
export class ReportColumns {
  private readonly shapes: Shape[] = [];
  private lastNumber = 0;
  private current: InputColumns | null = null;
  private readonly done = new Map<number, CleanInput>();
  private input = -1;

  /** Starts input `input` (read in windows when `windowed`) at record `record` of the load and log entry `entry`. */
  begin(input: number, windowed: boolean, record: number, entry: number): void {
    this.input = input;
    this.current = windowed ? new InputColumns(record, entry, 0) : null;
  }

  /** The input's next record, and whether the log has an entry for it. */
  add(r: InspectedRecord, hasEntry: boolean): void {
    const c = this.current;
    if (c === null) return;
    const v = r.verdict;
    // Clean: a bare envelope of the sequence (no headers, not inside another item) with no finding
    // of its own, whose log entry says what report@1 does of it; its views find fields in its bytes.
    if (
      !hasEntry ||
      !v.decoded ||
      v.error !== null ||
      v.findings.length > 0 ||
      v.parent !== null ||
      v.inputSpan !== null ||
      v.span === null ||
      r.data.views !== envelopeViews ||
      r.data.headers !== null
    ) {
      this.current = null;
      return;
    }
    const [start, end] = v.span;
    const shape = start === c.next && end - start <= MAX_LENGTH ? this.shapeNumber(v) : -1;
    if (shape < 0) {
      this.current = null;
      return;
    }
    c.record.push(pack(end - start, shape));
    c.next = end;
    c.records++;
  }

  /** Ends the current input; returns whether it is clean. */
  end(): boolean {
    const c = this.current;
    this.current = null;
    if (c === null) return false;
    this.done.set(this.input, {
      firstRecord: c.firstRecord,
      firstEntry: c.firstEntry,
      records: c.records,
      start: c.start,
      record: c.record.done(),
      shapes: this.shapes,
    });
    return true;
  }

  /** Input `input`'s columns, when every record of it is clean. */
  clean(input: number): CleanInput | undefined {
    return this.done.get(input);
  }

  /** The shape's number, or -1 when there are too many. */
  private shapeNumber(v: Shape): number {
    // A log has a few dozen shapes; records of one kind follow each other, so the last one asked
    // is looked at first, then the others in turn.
    if (sameShape(this.shapes[this.lastNumber], v)) return this.lastNumber;
    let n = this.shapes.findIndex((s) => sameShape(s, v));
    if (n < 0) {
      n = this.shapes.length;
      if (n === MAX_SHAPES) return -1;
      this.shapes.push({ format: v.format, dialect: v.dialect, dialectEvidence: v.dialectEvidence, displayType: v.displayType });
    }
    this.lastNumber = n;
    return n;
  }
}

/** A record of a shape past this many, or longer than this (4 MiB), is not kept in columns (its input is read again). */
const MAX_SHAPES = 2 ** (32 - LENGTH_BITS);
const MAX_LENGTH = 2 ** LENGTH_BITS - 1;

function sameShape(a: Shape | undefined, b: Shape): boolean {
  return (
    a !== undefined && a.format === b.format && a.dialect === b.dialect && a.displayType === b.displayType && sameItems(a.dialectEvidence, b.dialectEvidence)
  );
}

/** Reads up to `length` bytes at `position` into `buffer` at `offset`; returns how many it read (stream.ts RandomAccessFile). */
export type ReadAt = (buffer: Uint8Array, offset: number, length: number, position: number) => number;

/**
 * A clean input's records as report@1 writes them: each from its log entry and columns, with the
 * log's findings about it (`findingsOf`, by record of the load) located in the input's bytes,
 * read `window` bytes at a time, when a record has some, into one buffer reused (positions in it
 * are the input's less `from`: a buffer the input's length, as the first pass reads into, makes
 * the runtime count the whole length as memory and collect more often).
 */
export function* cleanRecords(
  index: number,
  clean: CleanInput,
  entries: ReportPartsSequence,
  findingsOf: (record: number) => readonly Finding[] | undefined,
  read: ReadAt,
  window: number,
): Generator<ReportRecord> {
  let buffer = new Uint8Array(0);
  let from = 0;
  let to = 0;
  let next = clean.start;
  for (let j = 0; j < clean.records; j++) {
    const record = clean.firstRecord + j;
    const e = entries.at(clean.firstEntry + j);
    if (e === undefined || e.record !== record) throw new Error(`the log has no entry for record ${record}: the first pass's columns do not match it`);
    const start = next;
    const packed = clean.record[j];
    const end = start + lengthOf(packed);
    next = end;
    const shape = clean.shapes[shapeOf(packed)];
    const v: ReportedVerdict = {
      input: index,
      index: e.index,
      format: shape.format,
      span: [start, end],
      inputSpan: null,
      decoded: true,
      error: null,
      kind: e.kind,
      id: e.recordId,
      conversation: e.conversation,
      source: e.source,
      target: e.target,
      findings: NO_FINDINGS,
      signature: e.signature,
      logTimeMicros: e.logTime,
      parent: null,
      dialect: shape.dialect,
      dialectEvidence: shape.dialectEvidence,
      displayType: shape.displayType,
    };
    const found = findingsOf(record);
    if (found === undefined) {
      yield reportRecord(v, undefined);
      continue;
    }
    if (start < from || end > to) {
      const want = Math.max(window, end - start);
      if (buffer.length < want) buffer = new Uint8Array(want);
      from = start;
      to = start + readFully(read, buffer, 0, want, start);
      if (to < end) throw new Error(`the input ended at byte ${to}, before the record at ${start} did: did it change while read?`);
    }
    const bytes = buffer;
    const at = from;
    let again: InspectedRecord | null = null;
    // The field in the envelope's bytes; else (a path inside a field) in the record read again whole.
    const locate = (path: string): Span | null => {
      const span = topLevelFieldSpan(bytes, start - at, end - at, path);
      if (span === undefined) {
        again ??= recordAt(index, bytes.subarray(start - at, end - at), start, e.index);
        return spanOfField(again, path);
      }
      return span && [span[0] + at, span[1] + at];
    };
    yield reportRecord(
      v,
      found.map((f) => ({ ...f, span: f.path === null ? f.span : locate(f.path) })),
    );
  }
  // The input still reaches its last record's end (a file cut short since the first pass is said,
  // as reading every record again would say it, even when no record near its end was read).
  if (next > 0 && readFully(read, new Uint8Array(1), 0, 1, next - 1) < 1) {
    throw new Error(`the input ended before byte ${next - 1}, where its last record ends: did it change while read?`);
  }
}

/** Reads `length` bytes at `position` into `buffer` at `offset`, fewer where the input ends; returns how many (the first pass's windows read this way too). */
export function readFully(read: ReadAt, buffer: Uint8Array, offset: number, length: number, position: number): number {
  let done = 0;
  while (done < length) {
    const n = read(buffer, offset + done, length - done, position + done);
    if (n <= 0) break;
    done += n;
  }
  return done;
}

/** The record whose bytes are `bytes`, at `start` of input `input`, read as the first pass read it (positions the input's). */
function recordAt(input: number, bytes: Uint8Array, start: number, index: number): InspectedRecord {
  const end = start + bytes.length;
  // A view the input's length, its other bytes never written (so never in memory), as the first pass's windows.
  const view = new Uint8Array(end);
  view.set(bytes, start);
  const batch = cborRecordBatches({ input, view, viewOrigin: 'input' }, start, end, false, 1, index).next();
  const r = batch.done ? undefined : batch.value.records[0];
  if (r === undefined || r.verdict.span?.[0] !== start || r.verdict.span[1] !== end)
    throw new Error(`the record at byte ${start} no longer reads as it did: did the file change while read?`);
  return r;
}
