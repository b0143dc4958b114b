// Record summaries as they cross from the worker to the page: packed into one Int32Array plus a
// string table, instead of an array of objects.
//
// Why: a 100,000-record load sent as objects made the page deserialize, keep and garbage-collect
// 100,000 objects of 18 fields; the copies and the collector's pauses were the page's longest tasks.
// A pack is transferred (not copied), the page keeps the numbers in one growing typed array, and a
// summary object is made only for the rows on screen (SummaryStore in src/ui/summary-store.ts).
import { crockfordToBytes, toCrockford } from '../core/bytes';
import { SIGNATURE_STATUS_LIST, type SignatureStatus } from '../core/model';
import type { RecordVerdict } from '../core/verdict';

/**
 * One record as the page lists it (packed below for the crossing): its verdict's list fields, and
 * what the page shows of the rest (validity and finding counts with the log's findings counted in).
 */
export type RecordSummary = Pick<
  RecordVerdict,
  'input' | 'index' | 'format' | 'kind' | 'id' | 'conversation' | 'source' | 'target' | 'decoded' | 'summary' | 'dialect' | 'displayType'
> & {
  /** Global record number: the key for details and selection. */
  key: number;
  valid: boolean;
  errorCode: string | null;
  signature: SignatureStatus;
  trusted: boolean;
  /** Why a valid signature is not trusted, in a few words (core/keys/trust-note.ts); null otherwise. */
  trustNote: string | null;
  errors: number;
  warnings: number;
  /** The record's body was blanked before it was shared: its signature cannot be re-checked. */
  redacted: boolean;
  /** An AGDX record's operation (chat, telemetry…), null for none or another format. */
  operation: string | null;
  /** When the record was made, in epoch ms (core/time.ts agdxRecordTime: its log time, else its id's ULID time), or null. */
  timeMs: number | null;
  /** Where `timeMs` came from: the log's append time, or the record id's ULID time. */
  timeFrom: 'log' | 'id' | null;
};

/** Int32 slots per record in a pack and in the page's store. */
export const STRIDE = 24;
const KEY = 0,
  INPUT = 1,
  INDEX = 2,
  FORMAT = 3,
  KIND = 4,
  ID = 5,
  CONVERSATION = 6,
  SOURCE = 7,
  TARGET = 8,
  ERROR_CODE = 9,
  SUMMARY = 10,
  FLAGS = 11,
  ERRORS = 12,
  WARNINGS = 13,
  TRUST_NOTE = 14,
  DISPLAY_TYPE = 15,
  DIALECT = 16,
  OPERATION = 17,
  /** The time in ms, as its high and low 32 bits (a flag says whether there is one). */
  TIME_HI = 18,
  TIME_LO = 19,
  /**
   * A record id as toCrockford writes one (every AGDX envelope's), as its 16 bytes in 4 slots (a
   * flag says so; ID is −1 then); any other id is a string. A million-record load sent a million ids
   * as strings, which the page kept: 35 MB of its heap, copied by the young generation's collections
   * as they came (the main thread's longest pauses during the load, 60–86 ms). The text is made when
   * a summary is.
   */
  ID_BYTES = 20;
export const SLOT = { KEY, INPUT } as const;

const SIGNATURES = SIGNATURE_STATUS_LIST;
const SIGNATURE_CODE = new Map<string, number>(SIGNATURES.map((s, i) => [s, i]));
const DECODED = 1,
  VALID = 2,
  TRUSTED = 4,
  REDACTED = 8,
  HAS_TIME = 16,
  TIME_FROM_LOG = 32,
  ID_AS_BYTES = 64;
const TWO_32 = 2 ** 32;

export interface SummaryPack {
  count: number;
  /** `count` rows of STRIDE slots; string slots index `strings`, -1 for null. */
  cols: Int32Array;
  /** The pack's own strings (each once per pack). */
  strings: string[];
}

export function packSummaries(records: ReadonlyArray<RecordSummary>): SummaryPack {
  const cols = new Int32Array(records.length * STRIDE);
  const bytes = new Uint8Array(cols.buffer);
  const strings: string[] = [];
  const ids = new Map<string, number>();
  const str = (s: string | null): number => {
    if (s === null) return -1;
    let i = ids.get(s);
    if (i === undefined) {
      i = strings.push(s) - 1;
      ids.set(s, i);
    }
    return i;
  };
  records.forEach((r, n) => {
    const o = n * STRIDE;
    cols[o + KEY] = r.key;
    cols[o + INPUT] = r.input;
    cols[o + INDEX] = r.index;
    cols[o + FORMAT] = str(r.format);
    cols[o + KIND] = str(r.kind);
    const idAsBytes = r.id !== null && crockfordToBytes(r.id, bytes, (o + ID_BYTES) * 4);
    cols[o + ID] = idAsBytes ? -1 : str(r.id);
    cols[o + CONVERSATION] = str(r.conversation);
    cols[o + SOURCE] = str(r.source);
    cols[o + TARGET] = str(r.target);
    cols[o + ERROR_CODE] = str(r.errorCode);
    cols[o + SUMMARY] = str(r.summary);
    cols[o + TRUST_NOTE] = str(r.trustNote);
    cols[o + DISPLAY_TYPE] = str(r.displayType);
    // The dialect's id as text: the page reaches no AGDX module (src/ui/no-decoding.test.ts), not even its tables.
    cols[o + DIALECT] = str(r.dialect);
    cols[o + OPERATION] = str(r.operation);
    const hasTime = r.timeMs !== null && Number.isSafeInteger(r.timeMs);
    if (hasTime) {
      const hi = Math.floor(r.timeMs! / TWO_32);
      cols[o + TIME_HI] = hi;
      cols[o + TIME_LO] = r.timeMs! - hi * TWO_32;
    }
    const sig = SIGNATURE_CODE.get(r.signature);
    if (sig === undefined) throw new TypeError(`packSummaries: unknown signature status ${r.signature}`);
    cols[o + FLAGS] =
      (r.decoded ? DECODED : 0) |
      (r.valid ? VALID : 0) |
      (r.trusted ? TRUSTED : 0) |
      (r.redacted ? REDACTED : 0) |
      (hasTime ? HAS_TIME : 0) |
      (hasTime && r.timeFrom === 'log' ? TIME_FROM_LOG : 0) |
      (idAsBytes ? ID_AS_BYTES : 0) |
      (sig << 8);
    cols[o + ERRORS] = r.errors;
    cols[o + WARNINGS] = r.warnings;
  });
  return { count: records.length, cols, strings };
}

/** The AGDX dialect of the row at offset `o` (summaryAt's `dialect`), without making the summary. */
export function dialectAt(cols: Int32Array, o: number, strings: ReadonlyArray<string>): RecordSummary['dialect'] {
  const at = cols[o + DIALECT];
  return (at < 0 ? null : strings[at]) as RecordSummary['dialect'];
}

/** One summary back from a row: `cols` from offset `o`, its string slots looked up in `strings`. */
export function summaryAt(cols: Int32Array, o: number, strings: ReadonlyArray<string>): RecordSummary {
  const s = (slot: number) => (cols[o + slot] < 0 ? null : strings[cols[o + slot]]);
  const flags = cols[o + FLAGS];
  return {
    key: cols[o + KEY],
    input: cols[o + INPUT],
    index: cols[o + INDEX],
    format: s(FORMAT) as RecordSummary['format'],
    kind: s(KIND),
    id: flags & ID_AS_BYTES ? idText(cols, o) : s(ID),
    conversation: s(CONVERSATION),
    source: s(SOURCE),
    target: s(TARGET),
    decoded: (flags & DECODED) !== 0,
    valid: (flags & VALID) !== 0,
    errorCode: s(ERROR_CODE),
    signature: SIGNATURES[flags >> 8],
    trusted: (flags & TRUSTED) !== 0,
    trustNote: s(TRUST_NOTE),
    errors: cols[o + ERRORS],
    warnings: cols[o + WARNINGS],
    summary: s(SUMMARY) ?? '',
    redacted: (flags & REDACTED) !== 0,
    dialect: dialectAt(cols, o, strings),
    displayType: s(DISPLAY_TYPE),
    operation: s(OPERATION),
    timeMs: flags & HAS_TIME ? cols[o + TIME_HI] * TWO_32 + (cols[o + TIME_LO] >>> 0) : null,
    timeFrom: flags & HAS_TIME ? (flags & TIME_FROM_LOG ? 'log' : 'id') : null,
  };
}

/** The id a row holds as bytes, as its text. */
function idText(cols: Int32Array, o: number): string {
  const at = (o + ID_BYTES) * 4;
  return toCrockford(new Uint8Array(cols.buffer, cols.byteOffset, cols.byteLength), at, at + 16);
}

/** Every summary of a pack, as objects (tests, and callers that need them all). */
export function unpackSummaries(pack: SummaryPack): RecordSummary[] {
  const out: RecordSummary[] = [];
  for (let n = 0; n < pack.count; n++) out.push(summaryAt(pack.cols, n * STRIDE, pack.strings));
  return out;
}

/** The string slots of a row (for re-basing them into a larger table). */
export const STRING_SLOTS = [FORMAT, KIND, ID, CONVERSATION, SOURCE, TARGET, ERROR_CODE, SUMMARY, TRUST_NOTE, DISPLAY_TYPE, DIALECT, OPERATION] as const;

/**
 * What the list's type column shows for a record, and what it sorts by: the reference's display type
 * (session.started, tool.call…), else the AGDX operation (chat, telemetry…), else its kind, else its
 * format. The one place the column reads.
 */
export function listType(s: Pick<RecordSummary, 'displayType' | 'operation' | 'kind' | 'format'>): string {
  return s.displayType ?? s.operation ?? s.kind ?? s.format;
}
