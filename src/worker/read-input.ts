// How one input's bytes become records of the session: read whole (a bundle's or a link's inputs,
// a load without batches) or in batches sent to the page as they are read, and the log's graph
// findings redone once a load has read everything. Loading (loading.ts) and opening a link
// (sharing.ts) both read through here.
import { sha256 } from '@noble/hashes/sha2.js';
import { SignatureResults, type CheckSignatures } from '../core/agentdna/signature-jobs';
import { toHex } from '../core/bytes';
import { letGoOfEnvelopes } from '../core/import/fast-record';
import { inspectInput, inspectInputBatches, inspectWindowBatches } from '../core/inspect';
import { analyzeRecords } from '../core/records';
import { blankAsRedacted } from '../core/share/redact';
import { isUnreadableInput } from '../core/verdict';
import type { HandlerContext, InputSummary, Loaded, LoadProgress, RequestType, SharedView } from '../wire/protocol';
import type { RecordSummary } from '../wire/summary-pack';
import type { BlobWindows } from './blob-windows';
import type { Keys } from './keys';
import type { SessionState } from './session-state';
import { packed, summarize, summaryCounts, summaryFrom } from './summarize';

/** Records read per batch while a large input streams in. */
const BATCH_RECORDS = 2000;

/** Summaries of re-judged records per `verdicts` part at a load's end (LoadHooks.verdicts). */
const VERDICTS_PART = 20_000;

/**
 * Bytes of a large CBOR sequence read at a time (BlobWindows): the first rows wait for one window,
 * not for the whole file (a 227 MB file took 1–2 s to read whole in Chromium).
 */
export const LOAD_WINDOW = 4 << 20;

/**
 * The most records a session keeps (over all its loads): a kept record costs the worker a few
 * hundred bytes, and a tab's worker dies near 4 GB. Past it an input is read to its end and the
 * rest of its records counted (InputSummary.unkept), and the load says so.
 */
export const RECORDS_KEPT = 2_000_000;

export interface LoadHooks {
  /** Told before each input is read (by its place in the load), so a crash or hang can be laid at its door. */
  reading?: (at: number) => void;
  /** Receives each batch as it is read (streaming); without it, inputs are read whole. */
  batch?: (b: { inputs: InputSummary[]; records: RecordSummary[]; progress: LoadProgress }) => void;
  /** Lets messages (a cancel) arrive between batches. */
  pause?: () => Promise<void>;
  /** Receives, a part at a time, the summaries of records sent in batches whose verdicts the load's end changed (else they come with the result). */
  verdicts?: (records: RecordSummary[]) => void;
  /** Resolves when the page has drawn the first batch (or has had long enough to); awaited once per load. */
  shown?: () => Promise<void>;
  cancelled?: () => boolean;
}

export interface LoadResult {
  inputs: InputSummary[];
  /** Summaries not sent in a batch: every record when not streaming, else those re-judged at the end. */
  records: RecordSummary[];
  cancelled: boolean;
  /** The view a bundle or link carried, when one was opened. */
  view: SharedView | null;
  problems: string[];
}

/** A load's result before its first input. */
export const emptyLoad = (): LoadResult => ({ inputs: [], records: [], view: null, problems: [], cancelled: false });

/** A load's (or a link's) result as it crosses: its summaries packed, their buffer handed over. */
export function loaded<K extends RequestType>(result: LoadResult & { error?: string | null }, ctx: HandlerContext<K>): Loaded {
  return { ...result, records: packed(result.records, ctx) };
}

export class InputReader {
  /** `checkSignatures` runs a streamed input's AgentDNA checks elsewhere (the pool); `recordsKept` bounds the records kept. */
  constructor(
    private readonly state: SessionState,
    private readonly keys: Keys,
    private readonly checkSignatures: CheckSignatures | undefined,
    readonly recordsKept: number,
    /** Bytes of a large CBOR sequence read at a time (LOAD_WINDOW; tests lower it). */
    readonly window: number,
  ) {}

  /** One input read whole (a bundle's or a link's inputs, or a load without batches); signatures on the pool. */
  async readWhole(name: string, bytes: Uint8Array, redacted: boolean, out: LoadResult): Promise<void> {
    const state = this.state;
    const inputNumber = state.inputs.length;
    state.inputBytes.push(bytes);
    if (redacted) state.redactedInputs.add(inputNumber);
    const read = inspectInput(inputNumber, { name, bytes }, this.keys.registry, false);
    const { input, workflows } = read;
    // The link's word that bodies were redacted holds only for records whose bodies are blank.
    const blank = redacted ? blankAsRedacted(bytes, read.records) : null;
    for (const w of workflows) state.workflows.push({ ...w, record: w.record + state.records.length });
    const records = await this.keys.verify(read.records);
    const only = isUnreadableInput(records.length, records[0]?.verdict) ? records[0].verdict : null;
    const summary: InputSummary = {
      input: inputNumber,
      name: input.name,
      bytes: input.bytes,
      sha256: input.sha256,
      format: input.format,
      records: records.length,
      error: only ? only.error : null,
    };
    state.inputs.push(summary);
    out.inputs.push(summary);
    records.forEach((r, i) => {
      const key = state.records.length;
      state.records.push(r);
      state.inputOf.push(inputNumber);
      if (blank?.[i]) state.blanked.add(key);
      const s = summarize(key, r, undefined, !!blank?.[i]);
      state.summaries.set(s);
      out.records.push(s);
    });
    state.summariesChanged();
  }

  /**
   * One input read in batches: each batch goes to the page as soon as it is read, and the loop
   * yields between batches so a cancel can arrive. Returns whether it was cancelled (what was read
   * stays). `input`: its bytes, or a large CBOR sequence still being read (read in windows).
   */
  async readStream(name: string, input: Uint8Array | BlobWindows, progress: LoadProgress, hooks: LoadHooks, load: { drawn: boolean }): Promise<boolean> {
    const windows = input instanceof Uint8Array ? null : input;
    const bytes = windows ? windows.bytes : (input as Uint8Array);
    const state = this.state;
    const inputNumber = state.inputs.length;
    state.inputBytes.push(bytes);
    const summary: InputSummary = { input: inputNumber, name, bytes: bytes.length, sha256: '', format: 'reading', records: 0, error: null };
    state.inputs.push(summary);
    const base = progress.bytesDone;
    // Signatures are checked on the pool while the next batch decodes; a batch goes to the page
    // when its verdicts are in, in order.
    let sending: Promise<void> = Promise.resolve();
    const check = this.checkSignatures;
    const signatures = check ? () => new SignatureResults(check) : undefined;
    // The input's SHA-256 by WebCrypto, native and beside the read (the pure hash took 660 ms of
    // the reading thread for a 25 MB input in Chromium; this, about 80); of a windowed read, once
    // its last window is in.
    const digest = windows ? null : inputDigest(bytes);
    const batches = windows
      ? inspectWindowBatches(inputNumber, name, windows, { window: this.window, batchSize: BATCH_RECORDS, hasher: null })
      : inspectInputBatches(inputNumber, { name, bytes }, this.keys.registry, BATCH_RECORDS, { signatures, digest: digest === null });
    for (const batch of batches) {
      if (batch.wait) {
        // Signature checks of the next stretch are still on the pool: the cores are theirs meanwhile.
        await batch.wait;
        continue;
      }
      // Past the records the page keeps, the rest of the input is read and counted, not kept: a
      // 16 MB file of one-byte records is 16.7 million of them, and kept they took the worker to 4 GB.
      const room = Math.max(0, this.recordsKept - state.records.length);
      const kept = batch.records.length <= room ? batch.records : batch.records.slice(0, room);
      if (kept.length < batch.records.length) summary.unkept = (summary.unkept ?? 0) + batch.records.length - kept.length;
      const first = state.records.length;
      // A record's summary is made once, when its verdicts are in and it goes to the page (below):
      // until then the filter and the graph do not see it, as the page does not.
      for (const r of kept) {
        state.records.push(r);
        state.inputOf.push(inputNumber);
      }
      const records = state.records;
      const verified = this.keys.verify(kept).then((rs) => {
        // The verdicts with their signatures decided take the read ones' places (unless cleared meanwhile).
        if (state.records === records) for (let i = 0; i < rs.length; i++) records[first + i] = rs[i];
        return rs;
      });
      for (const w of batch.workflows) if (w.record < kept.length) state.workflows.push({ ...w, record: w.record + first });
      summary.records += kept.length;
      if (batch.input) {
        summary.sha256 = digest ? await digest : windows ? await (inputDigest(bytes) ?? toHex(sha256(bytes))) : batch.input.sha256;
        summary.format = batch.input.format;
        const last = state.records.at(-1);
        summary.error = !summary.unkept && isUnreadableInput(summary.records, last?.verdict) ? (last?.verdict.error ?? null) : null;
      }
      progress.records += batch.records.length;
      const snapshot = { inputs: [{ ...summary }], progress: { ...progress, bytesDone: base + batch.bytesDone } };
      sending = sending.then(async () => {
        const checked = await verified;
        const sent = checked.map((r, i) => summarize(first + i, r));
        // What needed the envelopes of bulk-read records is done: a million of them held took 287 MB of the worker's 1,017.
        letGoOfEnvelopes(checked);
        for (const s of sent) state.summaries.set(s);
        state.summariesChanged();
        hooks.batch!({ ...snapshot, records: sent });
      });
      if (batch.input) break;
      if (!load.drawn) {
        // Once a load: wait until the page has drawn the first records before reading on. Their
        // first layout is the page's largest; with both cores busy decoding and verifying it took
        // three times its CPU time in wall time (bench/run.ts saw 100–160 ms frames).
        load.drawn = true;
        await sending;
        await hooks.shown?.();
      }
      await hooks.pause?.();
      if (hooks.cancelled?.()) {
        await sending;
        // What was read stays, with the whole input's bytes, as a load read whole keeps them.
        await windows?.settle();
        summary.format += ' (cancelled)';
        hooks.batch!({ inputs: [{ ...summary }], records: [], progress: { ...progress, bytesDone: base + batch.bytesDone } });
        return true;
      }
    }
    await sending;
    return false;
  }

  /**
   * Graph findings depend on every record loaded (a cause may point into another input): redo them
   * and add the summaries of earlier records whose verdict changed to what goes to the page, or
   * hand them to `verdicts` in parts (a million-record load changes hundreds of thousands, and one
   * message of them was an 84 ms task for the page to take in).
   */
  regraph(out: LoadResult, verdicts?: (records: RecordSummary[]) => void): void {
    const state = this.state;
    state.log = analyzeRecords(state.records, state.currentRecords);
    const sent = new Set(out.records.map((r) => r.key));
    out.records = out.records.map((r) => summarize(r.key, state.records[r.key], state.logRules(r.key), r.redacted));
    const changed: RecordSummary[] = [];
    state.records.forEach((r, key) => {
      if (sent.has(key)) return;
      // The counts first: a summary is made only for a record whose counts changed.
      const old = state.summaries.get(key)!;
      const counts = summaryCounts(r, state.logRules(key), old.redacted);
      if (counts.valid !== old.valid || counts.errors !== old.errors || counts.warnings !== old.warnings)
        changed.push(summaryFrom(key, r, { ...old, ...counts }));
    });
    for (const s of out.records) state.summaries.set(s);
    for (const s of changed) state.summaries.set(s);
    if (verdicts) for (let i = 0; i < changed.length; i += VERDICTS_PART) verdicts(changed.slice(i, i + VERDICTS_PART));
    else out.records = out.records.concat(changed);
    state.summariesChanged();
  }
}

/** SHA-256 of an input by WebCrypto, hex (the pure hash if WebCrypto fails); null where there is none (then the read hashes it). */
function inputDigest(bytes: Uint8Array): Promise<string> | null {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  return subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>).then(
    (d) => toHex(new Uint8Array(d)),
    () => toHex(sha256(bytes)),
  );
}
