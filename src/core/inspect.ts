// The pipeline's entry points: each input through the importers' driver (import/driver.ts: sniff →
// split into records with byte spans → analyse each, AgentDNA trust judged by the registry), its
// digest added; then, over all inputs, the registry's AGDX keys and the log's analysis (graph and folds).
import { sha256 } from '@noble/hashes/sha2.js';
import type { WorkflowReport } from './agentdna/model';
import type { ExtraKeys } from './agentdna/signature';
import type { SignatureResults } from './agentdna/signature-jobs';
import { indexDids } from './agentdna/trust';
import { applyKeys } from './agdx/verify';
import { toHex } from './bytes';
import { cborRecordBatches } from './import/cbor-items';
import { importBatches } from './import/driver';
import { collectBatches, startsLikeMap } from './import/importer';
import { isKeyEntry, type RegistryEntry } from './keys/keys';
import { analyzeRecords, type InputResult, type InspectedRecord, type InspectResult } from './records';

export interface InputFile {
  name: string;
  bytes: Uint8Array;
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

export interface InspectOptions {
  /** The key registry signatures are checked against (none: signed records are unknown_key). */
  keys?: readonly RegistryEntry[];
  /** Build every record's views (field tree, rendered body): default true; the CLI needs none. */
  detail?: boolean;
}

export interface InputBatch {
  /** Set on the last batch of the input. */
  input: InputResult | null;
  records: InspectedRecord[];
  /** The AgentDNA workflows among this batch's records; `record` indexes this batch's `records`. */
  workflows: WorkflowReport[];
  /** Bytes of the input read so far. */
  bytesDone: number;
  /**
   * Set (on a batch with no records) when the read waits for signature checks done elsewhere
   * (InputBatchOptions.signatures): await it before asking for the next batch.
   */
  wait?: Promise<void>;
}

export interface InputBatchOptions {
  /** Build every record's views (field tree, rendered body) now; default false (rebuilt when opened). */
  detail?: boolean;
  /**
   * Makes the answers of AgentDNA signature checks done elsewhere (the page's verifier pool) for
   * this read, given its key-file keys: a card history's or workflow array's checks then go out
   * ahead, and the batches include waits (InputBatch.wait) that let the answers arrive.
   */
  signatures?: (extraKeys: ExtraKeys | undefined) => SignatureResults;
  /**
   * Hash the input here (true, the default), or not (false: the last batch's input says sha256 ''
   * and the caller fills it in, as the worker does with WebCrypto: eight times faster than the pure
   * hash on a 25 MB input in Chromium, and off the reading thread).
   */
  digest?: boolean;
}

/**
 * Inspects one input in batches of records, so the first can be shown while the rest load: a CBOR
 * sequence and an AgentDNA card history stream; every other format is read whole and comes as one
 * batch. Records come without their views (rebuilt when opened) unless `options.detail`. Never
 * throws for any bytes.
 */
export function* inspectInputBatches(
  index: number,
  file: InputFile,
  keys: readonly RegistryEntry[] | undefined,
  batchSize: number,
  options: InputBatchOptions = {},
): Generator<InputBatch> {
  if (!(file.bytes instanceof Uint8Array)) throw new TypeError('InputFile.bytes must be a Uint8Array');
  const bytes = file.bytes;
  const extraKeys = didKeys(keys);
  // AgentDNA records are judged by the registry as they are read: no second pass over their workflows.
  const dids = keys?.length ? indexDids(keys) : undefined;
  // Hashed as the batches come, so the digest costs nothing extra at the end of a large input.
  const hasher = options.digest === false ? null : sha256.create();
  let hashed = 0;
  const signatures = options.signatures?.(extraKeys);
  for (const batch of importBatches(
    { input: index, view: bytes, viewOrigin: 'input' },
    { extraKeys, dids, detail: options.detail ?? false, signatures },
    batchSize,
  )) {
    if (batch.wait) {
      yield { input: null, records: [], workflows: [], bytesDone: hashed, wait: batch.wait };
      continue;
    }
    const last = batch.format !== null;
    const to = last ? bytes.length : Math.min(Math.max(batch.end, hashed), bytes.length);
    hasher?.update(bytes.subarray(hashed, to));
    hashed = to;
    const input: InputResult | null = last
      ? { name: file.name, bytes: bytes.length, sha256: hasher ? toHex(hasher.digest()) : '', format: batch.format! }
      : null;
    yield { input, records: batch.records, workflows: batch.workflows, bytesDone: last ? bytes.length : to };
  }
}

/**
 * Whether an input starting with these bytes (at least 4) is read as a CBOR sequence whatever
 * follows, as the importers' driver would read it whole: it starts like a CBOR map, so it is no
 * text (nor JSON, hex, base64), no bundle and no known file type, and CBOR takes it; and it cannot
 * start an Iggy user-header block (≥ 0.7: first byte 2; ≤ 0.6: a little-endian key length of
 * 1–255, so three zero bytes after the first), whose detection reads the whole input. Such an input
 * can be read in windows (inspectWindowBatches).
 */
export function readsAsCborSequence(first: Uint8Array): boolean {
  return first.length >= 4 && startsLikeMap(first) && !(first[1] === 0 && first[2] === 0 && first[3] === 0);
}

/** Where a windowed read gets an input's bytes: a file on the command line, a dropped file on the page. */
export interface WindowSource {
  readonly size: number;
  /**
   * A view of the input's length (positions as in the input) whose bytes [from, to) are read; or,
   * when they are not yet, a promise that settles once they are (then ask again).
   */
  window(from: number, to: number): Uint8Array | Promise<void>;
}

/** A running SHA-256 (node:crypto's or noble's, wrapped). */
export interface InputHasher {
  update(bytes: Uint8Array): void;
  hex(): string;
}

export interface WindowOptions {
  /** Bytes asked for at a time; a window grows for an item larger than it. */
  window: number;
  batchSize: number;
  /** Hashes the input as it is read; null leaves the last batch's sha256 '' for the caller to fill in. */
  hasher: InputHasher | null;
}

/**
 * A CBOR sequence (readsAsCborSequence) read window by window, never whole: the same records, spans,
 * offsets and messages as inspectInputBatches gives, since a window's view has the input's
 * positions. A window that ends in a failed item before the input's end is read again from that
 * item, wider (to the end of the input for a failure other than a truncation), so a failure is only
 * ever the input's own. While the source has yet to read a window, a batch with `wait` says so.
 */
export function* inspectWindowBatches(index: number, name: string, source: WindowSource, options: WindowOptions): Generator<InputBatch> {
  const { size } = source;
  if (!(options.window >= 1)) throw new TypeError('inspectWindowBatches: window must be at least 1');
  const hasher = options.hasher;
  let base = 0;
  let records = 0;
  let items = 0;
  let want = options.window;
  while (base < size) {
    const end = Math.min(size, base + want);
    let view = source.window(base, end);
    while (!(view instanceof Uint8Array)) {
      yield { input: null, records: [], workflows: [], bytesDone: base, wait: view };
      view = source.window(base, end);
    }
    let next = end;
    let windowItems = 0;
    for (const batch of cborRecordBatches({ input: index, view, viewOrigin: 'input' }, base, end, false, options.batchSize, records)) {
      windowItems = batch.items;
      let out = batch.records;
      if (batch.error && end < size) {
        // Maybe the window's failure, not the input's: read again from the failed item.
        out = out.slice(0, -1);
        next = batch.records[batch.records.length - 1].verdict.span![0];
        want = next > base ? options.window : batch.error.code === 'cbor/truncated' ? want * 2 : size - next;
      } else want = options.window;
      records += out.length;
      if (out.length > 0) yield { input: null, records: out, workflows: [], bytesDone: Math.min(batch.pos, next) };
    }
    items += windowItems;
    hasher?.update(view.subarray(base, next));
    base = next;
  }
  // As the CBOR importer names it: a sequence once it has two items (a dead letter is one item and two records).
  const format = items > 1 || records > items + 1 ? 'cbor-seq' : 'cbor';
  yield { input: { name, bytes: size, sha256: hasher ? hasher.hex() : '', format }, records: [], workflows: [], bytesDone: size };
}

/** Inspects one input whole: its batches (of one, for every format) collected. Never throws for any bytes. */
export function inspectInput(
  index: number,
  file: InputFile,
  keys?: readonly RegistryEntry[],
  detail = true,
): { input: InputResult; records: InspectedRecord[]; workflows: WorkflowReport[] } {
  const { records, workflows, last } = collectBatches(inspectInputBatches(index, file, keys, Infinity, { detail }));
  // The driver always ends with a batch that names the input.
  return { input: last!.input!, records, workflows };
}

export function inspect(files: InputFile[], options: InspectOptions = {}): InspectResult {
  const inputs: InputResult[] = [];
  let records: InspectedRecord[] = [];
  const workflows: WorkflowReport[] = [];
  files.forEach((file, i) => {
    const r = inspectInput(i, file, options.keys, options.detail ?? true);
    inputs.push(r.input);
    // A workflow's `record` indexes the records of its input: make it index all records.
    for (const w of r.workflows) workflows.push({ ...w, record: w.record + records.length });
    // One by one: spreading an input of a million records into push() overflows the stack.
    for (const rec of r.records) records.push(rec);
  });
  if (options.keys?.length) records = applyKeys(records, options.keys);
  return { inputs, records, workflows, log: analyzeRecords(records) };
}
