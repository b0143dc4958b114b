// The pipeline's entry points: each input through the importers' driver (import/driver.ts: sniff →
// split into records with byte spans → analyse each), its digest and the registry's AgentDNA trust
// added; then, over all inputs, the registry's AGDX keys and the log's analysis (graph and folds).
import { sha256 } from '@noble/hashes/sha2.js';
import type { WorkflowReport } from './agentdna/model';
import type { ExtraKeys } from './agentdna/signature';
import type { SignatureResults } from './agentdna/signature-jobs';
import { applyAgentDnaTrust } from './agentdna/trust';
import { applyKeys } from './agdx/verify';
import { toHex } from './bytes';
import { importBatches } from './import/driver';
import { collectBatches } from './import/importer';
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
  // Hashed as the batches come, so the digest costs nothing extra at the end of a large input.
  const hasher = options.digest === false ? null : sha256.create();
  let hashed = 0;
  const signatures = options.signatures?.(extraKeys);
  for (const batch of importBatches(
    { input: index, view: bytes, viewOrigin: 'input' },
    { extraKeys, detail: options.detail ?? false, signatures },
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
    const { records, workflows } = batch.workflows.length ? applyAgentDnaTrust(batch.records, batch.workflows, keys ?? []) : batch;
    const input: InputResult | null = last
      ? { name: file.name, bytes: bytes.length, sha256: hasher ? toHex(hasher.digest()) : '', format: batch.format! }
      : null;
    yield { input, records, workflows, bytesDone: last ? bytes.length : to };
  }
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
