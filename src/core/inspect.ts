// The pipeline: sniff each input → split it into records with byte spans → analyse each record.
// One importer per format behind this one dispatcher; a failure stays with its record or input.
import { sha256 } from '@noble/hashes/sha2.js';
import { fromBase64, fromHex, toHex, utf8OrNull } from './bytes';
import { readItemAt, untag } from './cbor/reader';
import { agentdnaShape, applyAgentDnaTrust, readAgentDna, readAgentDnaParts, type ExtraKeys, type WorkflowReport } from './agentdna';
import type { SignatureResults } from './agentdna/signature-jobs';
import { readJson } from './json/lossless';
import { failedRecord, type Place } from './import/build';
import { cborRecordBatches, readCborRecords, readHeaderBlockInput, startsLikeMap } from './import/cbor-input';
import { jsonShape, readIggyExport, readJsonEnvelopes } from './import/json-input';
import { applyKeys } from './agdx/verify';
import { annotateLog } from './graphs';
import { isKeyEntry, type RegistryEntry } from './keys/keys';
import type { InputResult, InspectResult, RecordResult } from './records';

export interface InputFile {
  name: string;
  bytes: Uint8Array;
}

interface Sniffed {
  format: string;
  records: RecordResult[];
  /** AgentDNA workflows, `record` indexing `records`. */
  workflows?: WorkflowReport[];
}

// Printable text, and the DEL and C1 characters JSON allows unescaped in its strings.
const TEXTUAL = /^[\s\x20-\uffff]*$/;

/** Text that may be hex: hex digits and whitespace, an optional 0x, an even count of digits. */
function asHex(text: string): Uint8Array | null {
  const t = text.trim();
  if (t.length < 2 || !/^(0[xX])?[0-9a-fA-F\s]+$/.test(t)) return null;
  return fromHex(t);
}

function asBase64(text: string): Uint8Array | null {
  const t = text.trim();
  if (t.length < 4 || !/^[A-Za-z0-9+/=_\-\s]+$/.test(t)) return null;
  return fromBase64(t);
}

/** Text sniff reads as JSON. */
function looksLikeJson(text: string): boolean {
  const t = text.trimStart();
  return t.startsWith('{') || t.startsWith('[');
}

/** What every importer is told. */
interface SniffOptions {
  extraKeys?: Map<string, Uint8Array[]>;
  /** Build each record's views now (true), or leave them to be rebuilt when the record is opened. */
  detail: boolean;
}

function sniff(place: Place, textDepth: number, opts: SniffOptions): Sniffed {
  const bytes = place.view;
  if (bytes.length === 0) {
    return { format: 'empty', records: [failedRecord(place, 0, 'unknown', null, { code: 'input/unrecognized', message: 'the input is empty', offset: 0 })] };
  }
  const text = startsLikeMap(bytes) ? null : utf8OrNull(bytes);
  if (text !== null && TEXTUAL.test(text)) {
    if (looksLikeJson(text)) return sniffJson(place, opts);
    if (textDepth < 2) {
      for (const [name, decode] of [['hex', asHex], ['base64', asBase64]] as const) {
        const decoded = decode(text);
        if (decoded && decoded.length > 0) {
          const inner = sniff({ input: place.input, view: decoded, viewOrigin: 'decoded-text' }, textDepth + 1, opts);
          if (inner.records.some((r) => r.format !== 'unknown')) return { ...inner, format: `${name}(${inner.format})` };
        }
      }
    }
    const error = { code: 'input/unrecognized', message: 'text that is neither JSON (an Iggy export or an envelope\'s JSON view) nor hex or base64 of a record', offset: 0 };
    return { format: 'text', records: [failedRecord(place, 0, 'unknown', null, error)] };
  }
  const headerBlock = readHeaderBlockInput(place);
  if (headerBlock) return headerBlock;
  const first = readItemAt(bytes, 0);
  // Every AGDX item is a CBOR map; a first item that is anything else means this is not AGDX CBOR.
  if (first.ok ? untag(first.value).kind !== 'map' : !startsLikeMap(bytes)) {
    const cbor = first.ok
      ? `CBOR reads a ${untag(first.value).kind} first, where an AGDX envelope, record or capsule is a map`
      : `CBOR failed with ${first.error.code} at byte ${first.error.offset}: ${first.error.message}`;
    const error = {
      code: 'input/unrecognized',
      message: `tried text (JSON, hex, base64), an Iggy user-header block and CBOR; ${cbor}`,
      offset: first.ok ? 0 : first.error.offset,
    };
    return { format: 'unknown', records: [failedRecord(place, 0, 'unknown', [0, bytes.length], error)] };
  }
  const { records, count } = readCborRecords(place, 0, bytes.length, opts.detail);
  return { format: count > 1 || records.length > count + 1 ? 'cbor-seq' : 'cbor', records };
}

function sniffJson(place: Place, opts: SniffOptions): Sniffed {
  return sniffParsedJson(place, opts, readJson(place.view));
}

function sniffParsedJson(place: Place, opts: SniffOptions, parsed: ReturnType<typeof readJson>): Sniffed {
  if (!parsed.ok) {
    // report.md has a single JSON decode code: JSON nested too deeply to read is json/invalid.
    const code = parsed.error.code === 'json/too-deep' ? 'json/invalid' : parsed.error.code;
    return { format: 'json', records: [failedRecord(place, 0, 'unknown', null, { code, message: parsed.error.message, offset: parsed.error.offset })] };
  }
  const shape = jsonShape(parsed.value);
  if (shape === 'iggy-json') {
    const { records, era } = readIggyExport(place.input, place.view, parsed.value, opts.detail);
    return { format: `iggy-json(${era})`, records };
  }
  if (shape === 'agdx-json') return { format: 'agdx-json', records: readJsonEnvelopes(place.input, place.view, parsed.value) };
  const dna = agentdnaShape(parsed.value);
  if (dna) {
    const { records, workflows } = readAgentDna(place.input, place.view, parsed.value, { extraKeys: opts.extraKeys, shape: dna });
    return { format: `agentdna-${dna}`, records, workflows };
  }
  const error = {
    code: 'input/unrecognized',
    message: 'JSON, but neither an Iggy export (an object with messages), the JSON view of an AGDX envelope (kind, conversation, source), nor an AgentDNA workflow, envelope or card',
    offset: parsed.value.start,
  };
  return { format: 'json', records: [failedRecord(place, 0, 'unknown', [parsed.value.start, parsed.value.end], error)] };
}

/**
 * secp256k1 keys from the registry, by DID: for AgentDNA DIDs not made from the key (report.md key
 * files). A revoked or out-of-window key still binds its signatures (they verify, as an AGDX
 * signature under a revoked key does); the trust decision then says it is not trusted, and why.
 */
export function didKeys(keys: readonly RegistryEntry[] | undefined): Map<string, Uint8Array[]> | undefined {
  const map = new Map<string, Uint8Array[]>();
  for (const k of keys ?? []) {
    if (!isKeyEntry(k) || k.algorithm !== 'secp256k1' || !k.agent) continue;
    map.set(k.agent, [...(map.get(k.agent) ?? []), k.publicKey]);
  }
  return map.size ? map : undefined;
}

/** Inspects one input; never throws for any bytes. */
export function inspectInput(index: number, file: InputFile, keys?: readonly RegistryEntry[], detail = true): { input: InputResult; records: RecordResult[]; workflows: WorkflowReport[] } {
  if (!(file.bytes instanceof Uint8Array)) throw new TypeError('InputFile.bytes must be a Uint8Array');
  const input: InputResult = { name: file.name, bytes: file.bytes.length, sha256: toHex(sha256(file.bytes)), format: 'unknown' };
  const place: Place = { input: index, view: file.bytes, viewOrigin: 'input' };
  let sniffed: Sniffed;
  try {
    sniffed = sniff(place, 0, { extraKeys: didKeys(keys), detail });
  } catch (e) {
    // A bug of ours must not take the other inputs down: report it against this input.
    const error = { code: 'input/unrecognized', message: `internal error while reading this input: ${(e as Error)?.message ?? String(e)}`, offset: null };
    sniffed = { format: 'unknown', records: [failedRecord(place, 0, 'unknown', null, error)] };
  }
  input.format = sniffed.format;
  const workflows = sniffed.workflows ?? [];
  applyAgentDnaTrust(sniffed.records, workflows, keys ?? []);
  return { input, records: sniffed.records, workflows };
}

export interface InspectOptions {
  /** The key registry signatures are checked against (none: signed records are unknown_key). */
  keys?: readonly RegistryEntry[];
  /** Build every record's views (field tree, rendered body): default true; the CLI needs none. */
  detail?: boolean;
}

export interface InputBatch {
  /** Set on the last batch of the input. */
  input: InputResult | null;
  records: RecordResult[];
  workflows: WorkflowReport[];
  /** Bytes of the input read so far. */
  bytesDone: number;
  /**
   * Set (on a batch with no records) when the read waits for signature checks done elsewhere
   * (inspectInputBatches' `signatures`): await it before asking for the next batch.
   */
  wait?: Promise<void>;
}

/**
 * Inspects one input in batches of records, so the first can be shown while the rest load. A CBOR
 * sequence streams; every other format is read whole and comes as one batch. Records come without
 * their views (they are rebuilt when opened). Never throws for any bytes.
 */
export function* inspectInputBatches(
  index: number,
  file: InputFile,
  keys: readonly RegistryEntry[] | undefined,
  batchSize: number,
  signatures?: (extraKeys: ExtraKeys | undefined) => SignatureResults,
): Generator<InputBatch> {
  if (!(file.bytes instanceof Uint8Array)) throw new TypeError('InputFile.bytes must be a Uint8Array');
  const bytes = file.bytes;
  const place: Place = { input: index, view: bytes, viewOrigin: 'input' };
  const streams = startsLikeMap(bytes) && readHeaderBlockInput(place) === null;
  const text = streams ? null : utf8OrNull(bytes);
  if (text !== null && bytes.length > 0 && TEXTUAL.test(text) && looksLikeJson(text)) {
    yield* jsonBatches(index, file, keys, batchSize, signatures);
    return;
  }
  if (!streams) {
    const whole = inspectInput(index, file, keys, false);
    yield { input: whole.input, records: whole.records, workflows: whole.workflows, bytesDone: bytes.length };
    return;
  }
  const hasher = sha256.create();
  let hashed = 0;
  let items = 0;
  let records = 0;
  try {
    for (const batch of cborRecordBatches(place, 0, bytes.length, false, batchSize)) {
      hasher.update(bytes.subarray(hashed, batch.pos));
      hashed = batch.pos;
      items = batch.items;
      records += batch.records.length;
      if (batch.pos < bytes.length) yield { input: null, records: batch.records, workflows: [], bytesDone: batch.pos };
      else {
        const format = items > 1 || records > items + 1 ? 'cbor-seq' : 'cbor';
        yield { input: { name: file.name, bytes: bytes.length, sha256: toHex(hasher.digest()), format }, records: batch.records, workflows: [], bytesDone: bytes.length };
      }
    }
  } catch (e) {
    const error = { code: 'input/unrecognized', message: `internal error while reading this input: ${(e as Error)?.message ?? String(e)}`, offset: hashed };
    yield { input: { name: file.name, bytes: bytes.length, sha256: toHex(sha256(bytes)), format: 'unknown' }, records: [failedRecord(place, records, 'unknown', null, error)], workflows: [], bytesDone: bytes.length };
  }
}

/**
 * A JSON input in batches: an AgentDNA card history or array of workflows by item (each workflow's
 * signature checks take milliseconds, so a large file would otherwise say nothing for a long time);
 * any other JSON whole, as inspectInput reads it. `signatures` makes the answers of signature checks
 * done elsewhere for a card history's workflows (yielded waits let them arrive).
 */
function* jsonBatches(
  index: number,
  file: InputFile,
  keys: readonly RegistryEntry[] | undefined,
  batchSize: number,
  signatures: ((extraKeys: ExtraKeys | undefined) => SignatureResults) | undefined,
): Generator<InputBatch> {
  const bytes = file.bytes;
  const place: Place = { input: index, view: bytes, viewOrigin: 'input' };
  const input: InputResult = { name: file.name, bytes: bytes.length, sha256: toHex(sha256(bytes)), format: 'unknown' };
  const opts: SniffOptions = { extraKeys: didKeys(keys), detail: false };
  let records = 0;
  let last: InputBatch | null = null;
  try {
    const parsed = readJson(bytes);
    if (parsed.ok && jsonShape(parsed.value) === null && agentdnaShape(parsed.value) === 'cards') {
      input.format = 'agentdna-cards';
      // One part behind, so the last one can carry the input's summary.
      const results = signatures?.(opts.extraKeys);
      for (const part of readAgentDnaParts(index, bytes, parsed.value, { extraKeys: opts.extraKeys, shape: 'cards', signatures: results }, { partSize: batchSize })) {
        if ('wait' in part) {
          // The records read so far go to the page before the wait, not after it.
          const bytesDone = last?.bytesDone ?? 0;
          if (last) yield last;
          last = null;
          yield { input: null, records: [], workflows: [], bytesDone, wait: part.wait };
          continue;
        }
        applyAgentDnaTrust(part.records, part.workflows, keys ?? []);
        if (last) yield last;
        records += part.records.length;
        last = { input: null, records: part.records, workflows: part.workflows, bytesDone: part.end };
      }
      yield { ...last!, input, bytesDone: bytes.length };
      return;
    }
    const sniffed = sniffParsedJson(place, opts, parsed);
    applyAgentDnaTrust(sniffed.records, sniffed.workflows ?? [], keys ?? []);
    input.format = sniffed.format;
    yield { input, records: sniffed.records, workflows: sniffed.workflows ?? [], bytesDone: bytes.length };
  } catch (e) {
    const error = { code: 'input/unrecognized', message: `internal error while reading this input: ${(e as Error)?.message ?? String(e)}`, offset: null };
    if (last) yield last;
    yield { input, records: [failedRecord(place, records, 'unknown', null, error)], workflows: [], bytesDone: bytes.length };
  }
}

export function inspect(files: InputFile[], options: InspectOptions = {}): InspectResult {
  const inputs: InputResult[] = [];
  const records: RecordResult[] = [];
  const workflows: WorkflowReport[] = [];
  files.forEach((file, i) => {
    const r = inspectInput(i, file, options.keys, options.detail ?? true);
    inputs.push(r.input);
    // A workflow's `record` indexes the records of its input: make it index all records.
    for (const w of r.workflows) workflows.push({ ...w, record: w.record + records.length });
    records.push(...r.records);
  });
  if (options.keys?.length) applyKeys(records, options.keys);
  annotateLog(records);
  return { inputs, records, workflows };
}
