// Loading inputs: each read whole or streamed in batches (read-input.ts), a bundle among them opened
// in its place (sharing.ts), the log's graph redone at the end, and the AgentDNA candidate-key lists
// the quick checks left completed in the background. The load's handlers keep its cancels and the
// page's "drawn" acknowledgements, by request id.
import { completeWorkflow, isRecoveredPending, pendingInputs, type RecoveredKey } from '../core/agentdna/signature';
import type { CheckSignatures } from '../core/agentdna/signature-jobs';
import { readsAsCborSequence } from '../core/inspect';
import { readText } from '../core/read-text';
import { decodeBundle, isBundle } from '../core/share/permalink';
import type { Handlers, InputPayload, InputSummary } from '../wire/protocol';
import { packSummaries } from '../wire/summary-pack';
import { BlobWindows } from './blob-windows';
import { emptyLoad, type InputReader, type LoadHooks, loaded, type LoadResult } from './read-input';
import type { SessionState } from './session-state';
import type { Sharing } from './sharing';

/** A load waits at most this long for the page to say it drew (a hidden tab draws nothing). */
const DRAW_WAIT_MS = 250;
const pause = (ms = 0) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class Loading {
  /** `checkSignatures` completes the candidate-key lists in the background (the pool); without it they are completed when asked. */
  constructor(
    private readonly state: SessionState,
    private readonly reader: InputReader,
    private readonly sharing: Sharing,
    private readonly checkSignatures?: CheckSignatures,
  ) {}

  /**
   * Loads inputs. A bundle file among them opens its view: its inputs load in its place and the
   * view it carries comes back with the result.
   */
  load(payloads: InputPayload[], hooks: LoadHooks = {}): Promise<LoadResult> {
    return this.state.exclusive(() => this.loadNow(payloads, hooks));
  }

  private async loadNow(payloads: InputPayload[], hooks: LoadHooks): Promise<LoadResult> {
    const out = emptyLoad();
    const progress = { records: 0, bytesDone: 0, bytesTotal: payloads.reduce((n, p) => n + p.data.size, 0) };
    const load = { drawn: false };
    for (const [at, p] of payloads.entries()) {
      if (hooks.cancelled?.()) {
        out.cancelled = true;
        break;
      }
      hooks.reading?.(at);
      const windows = hooks.batch ? await this.windowsOf(p.data) : null;
      const bytes = windows ? windows.bytes : new Uint8Array(await p.data.arrayBuffer());
      if (windows || !isBundle(bytes)) {
        if (hooks.batch) {
          out.cancelled = await this.reader.readStream(p.name, windows ?? bytes, progress, hooks, load);
          const read = this.state.inputs[this.state.inputs.length - 1];
          if (read.unkept) out.problems.push(unkeptWords(read, this.reader.recordsKept));
        } else await this.reader.readWhole(p.name, bytes, false, out);
        progress.bytesDone += bytes.length;
        if (out.cancelled) break;
        continue;
      }
      const opened = await decodeBundle(bytes);
      if (!opened.ok) out.problems.push(`${p.name}: ${opened.error.message}`);
      else out.view = await this.sharing.loadShared(opened, out);
    }
    this.reader.regraph(out, hooks.verdicts);
    this.completeInBackground();
    return out;
  }

  /** A file larger than a window whose first bytes read as a CBOR sequence (so no bundle either), to be read in windows; null for anything else, read whole. */
  private async windowsOf(data: Blob): Promise<BlobWindows | null> {
    const window = this.reader.window;
    if (data.size <= window) return null;
    return readsAsCborSequence(new Uint8Array(await data.slice(0, 4).arrayBuffer())) ? new BlobWindows(data, window) : null;
  }

  /**
   * Background completion of the candidate-key lists on the pool, a part at a time (a new load's
   * checks queue behind one part at most). Each part's answers make new workflows of those still
   * holding the lists (a key change's workflows share them; after a clear none does).
   */
  private background: Promise<void> = Promise.resolve();
  private completeInBackground(): void {
    const check = this.checkSignatures;
    const lists = this.pendingLists();
    if (!check || lists.size === 0) return;
    this.background = this.background
      .then(async () => {
        const all = [...lists];
        for (let i = 0; i < all.length; i += 500) {
          // Lists completed meanwhile (a record opened, a report made) are no longer held.
          const held = this.pendingLists();
          const part = all.slice(i, i + 500).filter((l) => held.has(l));
          if (part.length === 0) continue;
          const checks = await check(part.map((l) => ({ ...pendingInputs(l)!, full: true })));
          if (checks.length !== part.length) return;
          const answers = new Map(part.map((l, j) => [l, checks[j]]));
          this.state.workflows = this.state.workflows.map((w) => completeWorkflow(w, answers));
        }
      })
      .catch(() => {});
  }

  /** The pending lists of candidate keys the workflows hold. */
  private pendingLists(): Set<RecoveredKey[]> {
    const out = new Set<RecoveredKey[]>();
    for (const w of this.state.workflows) for (const e of w.envelopes) if (isRecoveredPending(e.recovered)) out.add(e.recovered);
    return out;
  }

  clear(): void {
    this.state.clear();
  }
}

/** What a load says of an input whose records were not all kept. */
function unkeptWords(input: InputSummary, recordsKept: number): string {
  const n = (k: number) => k.toLocaleString('en-US');
  const read = input.records + (input.unkept ?? 0);
  return `${input.name}: ${n(read)} records read, ${n(input.records)} of them kept and listed: the page keeps at most ${n(recordsKept)} records (the command line, envelope-inspector inspect, reports them all)`;
}

/** The requests about loading and unloading; `drawWaitMs`: how long a load waits for the page to draw its first records. */
export function loadingHandlers(loading: Loading, { drawWaitMs = DRAW_WAIT_MS }: { drawWaitMs?: number } = {}) {
  /** Loads asked to stop (by request id): checked between batches. */
  const cancelledLoads = new Set<number>();
  /** Loads waiting for the page to draw their first records, by request id. */
  const drawWaits = new Map<number, () => void>();
  return {
    async load({ inputs, stream, pauseMs }, ctx) {
      const reading = (at: number) => ctx.part({ type: 'reading', at });
      const result = await loading.load(
        inputs,
        stream
          ? {
              reading,
              batch: (b) => {
                const records = packSummaries(b.records);
                ctx.part({ type: 'batch', ...b, records }, [records.cols.buffer]);
              },
              verdicts: (summaries) => {
                const records = packSummaries(summaries);
                ctx.part({ type: 'verdicts', records }, [records.cols.buffer]);
              },
              pause: () => pause(pauseMs ?? 0),
              cancelled: () => cancelledLoads.has(ctx.id),
              shown: () =>
                new Promise<void>((resolve) => {
                  drawWaits.set(ctx.id, resolve);
                  setTimeout(resolve, drawWaitMs);
                }).finally(() => drawWaits.delete(ctx.id)),
            }
          : { reading },
      );
      cancelledLoads.delete(ctx.id);
      return loaded(result, ctx);
    },
    async shown({ load }) {
      drawWaits.get(load)?.();
      return null;
    },
    async cancel({ load }) {
      cancelledLoads.add(load);
      return null;
    },
    async readText({ text }) {
      return readText(text);
    },
    async clear() {
      loading.clear();
      return null;
    },
  } satisfies Partial<Handlers>;
}
