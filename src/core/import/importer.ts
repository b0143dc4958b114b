// What an importer is: one input format as data. The driver (driver.ts) asks each importer of its
// list, in order, whether it reads an input (`detect`, cheap), and the first that does reads it,
// whole (`read`) or in batches (`batches`, for formats that stream).
import type { WorkflowReport } from '../agentdna/model';
import type { ExtraKeys } from '../agentdna/signature';
import type { SignatureResults } from '../agentdna/signature-jobs';
import type { DidIndex } from '../agentdna/trust';
import { utf8OrNull } from '../bytes';
import { readJson, type JsonResult, type JsonValue } from '../json/lossless';
import type { InspectedRecord } from '../records';
import type { Place } from './build';

/** What reading an input gives: its records, the AgentDNA workflows among them, and its format. */
export interface Imported {
  /** The input's format as report@1 names it: cbor, cbor-seq, iggy-json(>=0.7), hex(cbor), … */
  format: string;
  records: InspectedRecord[];
  /** AgentDNA workflows; `record` indexes `records`. */
  workflows: WorkflowReport[];
}

/** Part of an input's records, as a streaming importer hands them over. */
export interface ImportedBatch {
  records: InspectedRecord[];
  /** The workflows among this batch's records; `record` indexes this batch's `records`. */
  workflows: WorkflowReport[];
  /** Bytes of the input read so far (the input's length on the last batch). */
  end: number;
  /** The input's format, on the last batch only (a CBOR input is a sequence once it has two items). */
  format: string | null;
  /**
   * Set (on a batch with no records) when the read waits for signature checks done elsewhere
   * (ImportOptions.signatures): await it before asking for the next batch.
   */
  wait?: Promise<void>;
}

/** How an input is to be read. */
export interface ImportOptions {
  /** secp256k1 keys by DID, for AgentDNA DIDs not made from their key (report.md key files). */
  extraKeys?: ExtraKeys;
  /** The reader's registry's AgentDNA identities (agentdna/trust.ts indexDids), which AgentDNA records' trust is judged by; none: no registry. */
  dids?: DidIndex;
  /** Build each record's views now (true), or leave them to be rebuilt when the record is opened. */
  detail: boolean;
  /**
   * AgentDNA signature checks done on other threads (the page's verifier pool): a streaming read
   * sends its checks ahead and yields batches that wait (ImportedBatch.wait) for their answers.
   */
  signatures?: SignatureResults;
}

/** What every importer is told besides the input. */
export interface ImportContext extends ImportOptions {
  /** Reads other bytes (a text wrapper's decoded bytes) through the whole list of importers, whole. */
  readInner(source: Source): Imported;
}

/**
 * One input format. `detect` looks at the input cheaply and returns a claim (what it found out, for
 * `read`: the JSON shape, the header block) or null when the input is not in this format.
 */
export interface Importer<Claim = unknown> {
  /** The format's name (the input's format may refine it: cbor-seq, iggy-json(<=0.4), agentdna-cards). */
  readonly format: string;
  detect(source: Source): Claim | null;
  /**
   * The records of the whole input. Null only when a closer look declines what `detect` claimed (hex
   * text that decodes to nothing known): the driver then asks the next importer.
   */
  read(source: Source, claim: Claim, context: ImportContext): Imported | null;
  /**
   * The same records in batches of about `batchSize` (Infinity: one batch), for a format that can
   * stream. When an importer has it, the driver always reads through it.
   */
  batches?(source: Source, claim: Claim, context: ImportContext, batchSize: number): Generator<ImportedBatch>;
}

// Printable text, and the DEL and C1 characters JSON allows unescaped in its strings.
const TEXTUAL = /^[\s\x20-\uffff]*$/;

/** Whether the bytes start like a CBOR map (definite or indefinite), as every AGDX item does. */
export function startsLikeMap(bytes: Uint8Array, at = 0): boolean {
  return at < bytes.length && bytes[at] >= 0xa0 && bytes[at] <= 0xbf;
}

/**
 * An input as the importers see it: its bytes and where they come from, and the readings several
 * importers share (the text, the JSON tree), each made once, when first asked for.
 */
export class Source {
  readonly place: Place;
  /** How many text wrappers (hex, base64) this input is inside. */
  readonly depth: number;
  private textMemo: string | null | undefined;
  private jsonMemo: JsonResult | null | undefined;

  constructor(place: Place, depth = 0) {
    this.place = place;
    this.depth = depth;
  }

  get bytes(): Uint8Array {
    return this.place.view;
  }

  /** The input as text: UTF-8 of printable characters that does not start like a CBOR map; else null. */
  get text(): string | null {
    if (this.textMemo === undefined) {
      const text = startsLikeMap(this.bytes) ? null : utf8OrNull(this.bytes);
      this.textMemo = text !== null && TEXTUAL.test(text) ? text : null;
    }
    return this.textMemo;
  }

  /** The lossless JSON reading of text that starts like JSON (`{` or `[`), ok or not; null for other input. */
  get json(): JsonResult | null {
    if (this.jsonMemo === undefined) this.jsonMemo = this.readJsonText();
    return this.jsonMemo;
  }

  /**
   * As if the input were decoded as text first (what `text` gives) and read when it starts like
   * JSON, without decoding it whole: a document that reads is text (valid UTF-8, no control
   * characters but whitespace: the reader refuses any other), so only a failed reading asks
   * whether the input is text at all. Decoding 25 MB of JSON holding one non-ASCII character took
   * Chromium's reading thread 380–540 ms before its first record.
   */
  private readJsonText(): JsonResult | null {
    const b = this.bytes;
    if (startsLikeMap(b)) return null;
    // What comes before the first ASCII byte that is not whitespace: it may only be whitespace.
    let i = 0;
    while (i < b.length && (b[i] >= 0x80 || b[i] === 0x20 || (b[i] >= 0x09 && b[i] <= 0x0d))) i++;
    if (i >= b.length || (b[i] !== 0x7b && b[i] !== 0x5b)) return null;
    if (i > 0 && utf8OrNull(b.subarray(0, i))?.trimStart() !== '') return null;
    const read = readJson(b);
    return read.ok || this.text !== null ? read : null;
  }
}

/**
 * Batches of records collected (an importer's, or inspect's): all the records, the workflows
 * re-indexed to them, and the last batch (the one that names the input).
 */
export function collectBatches<B extends { records: InspectedRecord[]; workflows: WorkflowReport[] }>(
  batches: Iterable<B>,
): { records: InspectedRecord[]; workflows: WorkflowReport[]; last: B | null } {
  let records: InspectedRecord[] | null = null;
  const workflows: WorkflowReport[] = [];
  let last: B | null = null;
  for (const batch of batches) {
    const before = records?.length ?? 0;
    // A workflow's `record` indexes its batch: make it index all the records.
    for (const w of batch.workflows) workflows.push(before ? { ...w, record: w.record + before } : w);
    // The first batch's array is taken over (a batch is its reader's no more once handed over).
    if (records === null) records = batch.records;
    // One by one: spreading a batch of a million records into push() overflows the stack.
    else for (const r of batch.records) records.push(r);
    last = batch;
  }
  return { records: records ?? [], workflows, last };
}

/** An importer's batches as the whole input. */
export function wholeInput(batches: Iterable<ImportedBatch>): Imported {
  const { records, workflows, last } = collectBatches(batches);
  return { format: last?.format ?? 'unknown', records, workflows };
}

/** The JSON tree of a source that reads as JSON; null for anything else (not JSON, or JSON that fails). */
export function jsonRoot(source: Source): JsonValue | null {
  const json = source.json;
  return json?.ok ? json.value : null;
}
