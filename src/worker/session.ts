// What the worker holds: every loaded input and record, and the summaries and details built from
// them. Kept apart from the worker entry so it can be tested without a Worker.
import { sha256 } from '@noble/hashes/sha2.js';
import { encodeEnvelope, signingInputSegments } from '../core/agdx/canonical';
import { applyKeys, applyKeysWith, type VerifyMany } from '../core/agdx/verify';
import { foldPrepared, toReportFolds } from '../core/folds';
import { refoldLog, type LogAnalysis } from '../core/analysis/log';
import { withVerdicts, type LogEntry } from '../core/log/entry';
import { recordsByPosition, type RecordAtPosition } from '../core/log/positions';
import { readableBodyOf, type BodyLog } from '../core/bodies/readable';
import { recordLinks, type RecordLink } from '../core/graph/record-links';
import { RuleIndex } from '../core/rule-filter';
import { shortId } from '../core/short-id';
import { firstDifference, toHex } from '../core/bytes';
import { diagnosticView } from '../core/cbor/diagnostic';
import type { WorkflowReport } from '../core/agentdna/model';
import { completeWorkflow, isRecoveredPending, pendingInputs, type RecoveredKey } from '../core/agentdna/signature';
import { SignatureResults, type CheckSignatures } from '../core/agentdna/signature-jobs';
import { applyAgentDnaTrust } from '../core/agentdna/trust';
import type { RegistryEntry } from '../core/keys/keys';
import { didKeys, inspectInput, inspectInputBatches } from '../core/inspect';
import { analyzeRecords, recordViews, type InspectedRecord } from '../core/records';
import { allFindings, hasProblem, isUnreadableInput, isValid, type Finding } from '../core/verdict';
import { SummaryColumns } from './summary-columns';
import { summarize, summaryFrom } from './summarize';
import { orderKeys } from './list-order';
import { partInputs, placeIn, type PartInput } from './share-part';
import {
  decodeBundle,
  decodePermalink,
  encodeBundle,
  encodePermalink,
  isBundle,
  ShareTooLargeError,
  type RecordPlace,
  type ShareResult,
  type ShareState,
  type ViewState,
} from '../core/share/permalink';
import type { Comparison, CompareSubject } from '../core/compare/model';
import { compareRecords, type CompareSide } from '../core/compare/records';
import { compareLogs } from '../core/compare/log';
import { blankAsRedacted, hasBody, redactInput } from '../core/share/redact';
import { buildReport } from '../core/report';
import { buildTimeline } from '../core/timeline/build';
import { markVerdict, type Timeline } from '../core/timeline/model';
import { reportToMarkdown } from '../core/report-markdown';
import { renderGraph } from './graph-render';
import type { GraphRender } from '../wire/graph';
import {
  LOG_ORDER,
  type ComparedPair,
  type FoldView,
  type InputPayload,
  type InputRedaction,
  type LinkedRecord,
  type RecordFilter,
  type InputSummary,
  type ListOrder,
  type RecordDetail,
  type RecordLinkView,
  type RulesPresent,
  type SharedView,
  type ShareRecords,
  type Unblankable,
} from '../wire/protocol';
import type { RecordSummary } from '../wire/summary-pack';

/** The most bytes a detail sends for the hex view of a record without a span (a failed input). */
const MAX_HEX = 1 << 20;
/** Answers a command's correlation link lists (the count says how many there are in all). */
const ANSWERS_LISTED = 20;

export class InspectorSession {
  /**
   * `verifyMany` hands Ed25519 checks to other threads (the worker's pool), `checkSignatures` the
   * AgentDNA secp256k1 checks of a streamed card history or workflow array; without them they run
   * here, synchronously (tests, Node).
   */
  constructor(
    private readonly verifyMany?: VerifyMany,
    private readonly checkSignatures?: CheckSignatures,
    /** The most records kept over a session's loads (RECORDS_KEPT); tests lower it. */
    private readonly recordsKept = RECORDS_KEPT,
  ) {}

  /** The records with their signatures decided against the registry (on the pool when there is one). */
  private async verify(records: InspectedRecord[]): Promise<InspectedRecord[]> {
    if (!this.keys.length) return records;
    if (this.verifyMany) return applyKeysWith(records, this.keys, this.verifyMany);
    return applyKeys(records, this.keys);
  }

  private inputs: InputSummary[] = [];
  private records: InspectedRecord[] = [];
  /** The records as they are now, for the log analysis to find a finding's field in (not the array it was made from). */
  private readonly currentRecords = () => this.records;
  /** What each record's summary says beyond its verdict (summaryOf makes the summary). */
  private summaries = new SummaryColumns();
  /** Record key of the first record of each input, so a record's global input number is known. */
  private inputOf: number[] = [];
  private keys: readonly RegistryEntry[] = [];
  /** The log's analysis (record-level graph, folds, their findings): made once per load, folded again per key change. */
  private log: LogAnalysis | null = null;
  /** The record at a log position, over the entries of `log` (bodyLog). */
  private positions: { entries: readonly LogEntry[]; recordAt: RecordAtPosition } | null = null;
  /** AgentDNA workflows, `record` being the record key. */
  private workflows: WorkflowReport[] = [];
  /**
   * Which rule ids the records with a summary carry, by record (findings, the log's included, and
   * decode-error codes): made when first asked after the summaries last changed, not per keystroke.
   */
  private rules: RuleIndex | null = null;

  /** Replaces the key registry and re-verifies every record; returns the summaries that changed. */
  setKeys(keys: readonly RegistryEntry[]): Promise<RecordSummary[]> {
    return this.exclusive(() => this.setKeysNow(keys));
  }

  /**
   * Loads, link openings and key changes run one at a time, in the order asked: each awaits (the
   * pool, the page, a cancel), and two interleaved would mix their records (the list expects each
   * input's records together) or verify against the wrong registry.
   */
  private queue: Promise<unknown> = Promise.resolve();
  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task);
    // Only the turn is kept, not the task's result: a load's result held its summaries until the next task.
    this.queue = run.then(
      () => {},
      () => {},
    );
    return run;
  }

  private async setKeysNow(keys: readonly RegistryEntry[]): Promise<RecordSummary[]> {
    // The records as they were: their summaries are what changed ones are compared with.
    const was = this.records.slice();
    const before = didKeys(this.keys);
    this.keys = keys;
    // AgentDNA signatures bound by a key file's secp256k1 key depend on the keys themselves: read
    // the inputs whose envelopes name a DID whose keys changed again (their verdicts, findings and
    // mode codes may change); the trust of every other workflow is re-applied below.
    const changedDids = changedKeyDids(before, didKeys(keys));
    if (changedDids.size) this.rereadAgentDna(changedDids);
    const verified = keys.length ? await this.verify(this.records) : applyKeys(this.records, keys);
    ({ records: this.records, workflows: this.workflows } = applyAgentDnaTrust(verified, this.workflows, keys));
    // Quarantine facts rest on signatures: the folds change with the keys (the graph does not).
    this.log = this.refold();
    const changed: RecordSummary[] = [];
    this.records.forEach((r, key) => {
      const s = summarize(key, r, this.logRules(key), this.blanked.has(key));
      const old = this.summaryOf(key, was);
      if (!old) return; // still streaming in: its summary is made when it goes to the page
      if (
        old.signature !== s.signature ||
        old.trusted !== s.trusted ||
        old.trustNote !== s.trustNote ||
        old.valid !== s.valid ||
        old.warnings !== s.warnings ||
        old.errors !== s.errors ||
        old.summary !== s.summary
      )
        changed.push(s);
      this.summaries.set(s);
    });
    this.rules = null;
    return changed;
  }

  /** Reads again every AgentDNA input with an envelope from one of `dids`, in place (same records, same keys). */
  private rereadAgentDna(dids: ReadonlySet<string>): void {
    const inputs = new Set<number>();
    for (const w of this.workflows) if (w.envelopes.some((e) => e.from !== null && dids.has(e.from))) inputs.add(this.inputOf[w.record]);
    for (const input of inputs) {
      const first = this.inputOf.indexOf(input);
      const count = this.inputs[input].records;
      const again = inspectInput(input, { name: this.inputs[input].name, bytes: this.inputBytes[input] }, this.keys, false);
      // The same bytes read the same way give the same records; anything else keeps what was there.
      if (again.records.length !== count) continue;
      this.records.splice(first, count, ...again.records);
      this.workflows = [
        ...this.workflows.filter((w) => w.record < first || w.record >= first + count),
        ...again.workflows.map((w) => ({ ...w, record: w.record + first })),
      ];
    }
    if (inputs.size) this.workflows.sort((a, b) => a.record - b.record);
  }

  /** The bytes of each input as loaded, for sharing. */
  private inputBytes: Uint8Array[] = [];
  /** Inputs of a link or bundle that says its bodies were redacted (the sender's word). */
  private redactedInputs = new Set<number>();
  /** Records of those inputs whose bytes read as redaction leaves them (the claim holds for them). */
  private blanked = new Set<number>();

  /**
   * Loads inputs. A bundle file among them opens its view: its inputs load in its place and the
   * view it carries comes back with the result.
   */
  load(payloads: InputPayload[], hooks: LoadHooks = {}): Promise<LoadResult> {
    return this.exclusive(() => this.loadNow(payloads, hooks));
  }

  private async loadNow(payloads: InputPayload[], hooks: LoadHooks): Promise<LoadResult> {
    const out: LoadResult = { inputs: [], records: [], view: null, problems: [], cancelled: false };
    const progress = { records: 0, bytesDone: 0, bytesTotal: payloads.reduce((n, p) => n + p.data.size, 0) };
    const load = { drawn: false };
    for (const [at, p] of payloads.entries()) {
      if (hooks.cancelled?.()) {
        out.cancelled = true;
        break;
      }
      hooks.reading?.(at);
      const bytes = new Uint8Array(await p.data.arrayBuffer());
      if (!isBundle(bytes)) {
        if (hooks.batch) {
          out.cancelled = await this.loadStream(p.name, bytes, progress, hooks, load);
          const read = this.inputs[this.inputs.length - 1];
          if (read.unkept) out.problems.push(unkeptWords(read, this.recordsKept));
        } else await this.loadOne(p.name, bytes, false, out);
        progress.bytesDone += bytes.length;
        if (out.cancelled) break;
        continue;
      }
      const opened = await decodeBundle(bytes);
      if (!opened.ok) out.problems.push(`${p.name}: ${opened.error.message}`);
      else out.view = await this.loadShared(opened, out);
    }
    this.regraph(out);
    this.completeInBackground();
    return out;
  }

  /**
   * The lists of candidate keys the quick checks left for later, completed here and now for the
   * workflows `which` picks: new workflows take those workflows' places.
   */
  private completeLists(which: (w: WorkflowReport) => boolean): void {
    this.workflows = this.workflows.map((w) => (which(w) ? completeWorkflow(w) : w));
  }

  /**
   * Background completion of those lists on the pool, a part at a time (a new load's checks queue
   * behind one part at most). Each part's answers make new workflows of those still holding the
   * lists (a key change's workflows share them; after a clear none does).
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
          this.workflows = this.workflows.map((w) => completeWorkflow(w, answers));
        }
      })
      .catch(() => {});
  }

  /** The pending lists of candidate keys the workflows hold. */
  private pendingLists(): Set<RecoveredKey[]> {
    const out = new Set<RecoveredKey[]>();
    for (const w of this.workflows) for (const e of w.envelopes) if (isRecoveredPending(e.recovered)) out.add(e.recovered);
    return out;
  }

  /**
   * Graph findings depend on every record loaded (a cause may point into another input): redo them
   * and add the summaries of earlier records whose verdict changed to what goes to the page.
   */
  private regraph(out: LoadResult): void {
    this.log = analyzeRecords(this.records, this.currentRecords);
    const sent = new Set(out.records.map((r) => r.key));
    out.records = out.records.map((r) => summarize(r.key, this.records[r.key], this.logRules(r.key), r.redacted));
    this.records.forEach((r, key) => {
      if (sent.has(key)) return;
      const old = this.summaryOf(key)!;
      const s = summarize(key, r, this.logRules(key), old.redacted);
      if (s.valid !== old.valid || s.errors !== old.errors || s.warnings !== old.warnings) out.records.push(s);
    });
    for (const s of out.records) this.summaries.set(s);
    this.rules = null;
  }

  /**
   * One input read in batches: each batch goes to the page as soon as it is read, and the loop
   * yields between batches so a cancel can arrive. Returns whether it was cancelled (what was read stays).
   */
  private async loadStream(
    name: string,
    bytes: Uint8Array,
    progress: { records: number; bytesDone: number; bytesTotal: number },
    hooks: LoadHooks,
    load: { drawn: boolean },
  ): Promise<boolean> {
    const inputNumber = this.inputs.length;
    this.inputBytes.push(bytes);
    const summary: InputSummary = { input: inputNumber, name, bytes: bytes.length, sha256: '', format: 'reading', records: 0, error: null };
    this.inputs.push(summary);
    const base = progress.bytesDone;
    // Signatures are checked on the pool while the next batch decodes; a batch goes to the page
    // when its verdicts are in, in order.
    let sending: Promise<void> = Promise.resolve();
    const check = this.checkSignatures;
    const signatures = check ? () => new SignatureResults(check) : undefined;
    // The input's SHA-256 by WebCrypto, native and beside the read (the pure hash took 660 ms of
    // the reading thread for a 25 MB input in Chromium; this, about 80).
    const digest = inputDigest(bytes);
    for (const batch of inspectInputBatches(inputNumber, { name, bytes }, this.keys, BATCH_RECORDS, { signatures, digest: digest === null })) {
      if (batch.wait) {
        // Signature checks of the next stretch are still on the pool: the cores are theirs meanwhile.
        await batch.wait;
        continue;
      }
      // Past the records the page keeps, the rest of the input is read and counted, not kept: a
      // 16 MB file of one-byte records is 16.7 million of them, and kept they took the worker to 4 GB.
      const room = Math.max(0, this.recordsKept - this.records.length);
      const kept = batch.records.length <= room ? batch.records : batch.records.slice(0, room);
      if (kept.length < batch.records.length) summary.unkept = (summary.unkept ?? 0) + batch.records.length - kept.length;
      const first = this.records.length;
      // A record's summary is made once, when its verdicts are in and it goes to the page (below):
      // until then the filter and the graph do not see it, as the page does not.
      for (const r of kept) {
        this.records.push(r);
        this.inputOf.push(inputNumber);
      }
      const records = this.records;
      const verified = this.verify(kept).then((rs) => {
        // The verdicts with their signatures decided take the read ones' places (unless cleared meanwhile).
        if (this.records === records) for (let i = 0; i < rs.length; i++) records[first + i] = rs[i];
        return rs;
      });
      for (const w of batch.workflows) if (w.record < kept.length) this.workflows.push({ ...w, record: w.record + first });
      summary.records += kept.length;
      if (batch.input) {
        summary.sha256 = digest ? await digest : batch.input.sha256;
        summary.format = batch.input.format;
        const only = summary.records === 1 && !summary.unkept ? this.records[this.records.length - 1] : null;
        summary.error = only && only.verdict.format === 'unknown' ? only.verdict.error : null;
      }
      progress.records += batch.records.length;
      const snapshot = { inputs: [{ ...summary }], progress: { ...progress, bytesDone: base + batch.bytesDone } };
      sending = sending.then(async () => {
        const sent = (await verified).map((r, i) => summarize(first + i, r));
        for (const s of sent) this.summaries.set(s);
        this.rules = null;
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
        summary.format += ' (cancelled)';
        hooks.batch!({ inputs: [{ ...summary }], records: [], progress: { ...progress, bytesDone: base + batch.bytesDone } });
        return true;
      }
    }
    await sending;
    return false;
  }

  /** Opens a permalink fragment: everything loaded before is replaced by the link's inputs. */
  open(fragment: string): Promise<LoadResult & { error: string | null }> {
    return this.exclusive(() => this.openNow(fragment));
  }

  private async openNow(fragment: string): Promise<LoadResult & { error: string | null }> {
    const opened = await decodePermalink(fragment);
    const out: LoadResult = { inputs: [], records: [], view: null, problems: [], cancelled: false };
    if (!opened.ok) return { ...out, error: opened.error.message };
    this.clear();
    out.view = await this.loadShared(opened, out);
    this.regraph(out);
    return { ...out, error: null };
  }

  private async loadShared(opened: Extract<ShareResult, { ok: true }>, out: LoadResult): Promise<SharedView> {
    const { state } = opened;
    const firstInput = this.inputs.length;
    const firstRecord = this.records.length;
    for (const input of state.inputs) await this.loadOne(input.name, input.bytes, state.redacted, out);
    // A record of the link by its place: its input's place in the link and its index there.
    const keyOf = (p: RecordPlace | null | undefined) =>
      p ? this.records.findIndex((r, key) => key >= firstRecord && this.inputOf[key] === firstInput + p.input && r.verdict.index === p.index) : -1;
    const record = keyOf(state.view.selected);
    const cmp = state.view.compare;
    const [ca, cb] = [keyOf(cmp?.a), keyOf(cmp?.b)];
    let notBlank = 0;
    if (state.redacted) for (let key = firstRecord; key < this.records.length; key++) if (hasBody(this.records[key]) && !this.blanked.has(key)) notBlank++;
    const { compare: _, ...view } = state.view;
    return {
      ...view,
      selectedKey: record >= 0 ? record : null,
      redacted: state.redacted,
      notBlank,
      compare: cmp && ca >= 0 && cb >= 0 ? { a: ca, b: cb, scope: cmp.scope } : null,
    };
  }

  /**
   * A permalink fragment, or a bundle file, for what is loaded and the view. With `redact`, every
   * body is blanked (core/share/redact.ts) and `redaction` says what, input by input. When something
   * cannot be blanked, no link is made until the person decides (`unblankable`): leave those inputs
   * out of the link, or include them with those parts as they are.
   */
  async share(
    view: Omit<ViewState, 'compare'> & { selectedKey: number | null; compare?: ComparedPair | null },
    redact: boolean,
    bundle: boolean,
    unblankable?: Unblankable,
    records: ShareRecords = 'all',
  ): Promise<{ fragment: string; bundle: Uint8Array | null; problems: string[]; redaction: InputRedaction[] | null }> {
    const redaction: InputRedaction[] | null = redact ? [] : null;
    let inputs = this.inputs.map((input, i) => {
      if (!redact) return { name: input.name, bytes: this.inputBytes[i], number: i };
      const r = redactInput(
        this.inputBytes[i],
        this.records.filter((_, key) => this.inputOf[key] === i),
      );
      redaction!.push({ input: i, name: input.name, blanked: r.blanked, unblankable: r.unblankable });
      return { name: input.name, bytes: r.bytes, number: i };
    });
    const problems = (redaction ?? []).flatMap((x) => x.unblankable.map((p) => `${x.name}: ${p}`));
    if (problems.length && !unblankable) return { fragment: '', bundle: null, problems, redaction };
    if (problems.length && unblankable === 'leave-out') inputs = inputs.filter((x) => !redaction![x.number].unblankable.length);
    // Only the chosen records, each input cut down to them where it can be (share-part.ts).
    const shared = records === 'all' ? inputs.map((x) => ({ ...x, indexOf: null })) : this.sharedPart(inputs, records, view);
    // A record by its place in the link (an input left out takes its records with it).
    const placeOf = (key: number | null | undefined): RecordPlace | null =>
      key != null && this.records[key] ? placeIn(shared, this.inputOf[key], this.records[key].verdict.index) : null;
    const selected = placeOf(view.selectedKey);
    const [ca, cb] = [placeOf(view.compare?.a), placeOf(view.compare?.b)];
    const state: ShareState = {
      inputs: shared.map(({ name, bytes }) => ({ name, bytes })),
      redacted: redact || shared.some((x) => this.redactedInputs.has(x.number)),
      view: {
        selected,
        tab: view.tab,
        viewport: view.viewport,
        filters: view.filters,
        ...(view.compare && ca && cb ? { compare: { a: ca, b: cb, scope: view.compare.scope } } : {}),
      },
    };
    try {
      return { fragment: await encodePermalink(state), bundle: bundle ? await encodeBundle(state) : null, problems: [], redaction };
    } catch (e) {
      if (e instanceof ShareTooLargeError) return { fragment: '', bundle: null, problems: [e.message], redaction };
      throw e;
    }
  }

  /** The inputs of a link of `records` only: the selected record (and a compared pair), or what the view's filters keep. */
  private sharedPart(
    inputs: { name: string; bytes: Uint8Array; number: number }[],
    records: Exclude<ShareRecords, 'all'>,
    view: { selectedKey: number | null; compare?: ComparedPair | null; filters: Record<string, string> },
  ): PartInput[] {
    // The view's filters are the list's, as a link carries them (the same fields as a RecordFilter).
    const keys = records === 'selected' ? [view.selectedKey, view.compare?.a, view.compare?.b] : [...this.filter(view.filters as RecordFilter)];
    const chosen = new Map<number, Set<number>>();
    for (const key of keys) {
      if (key == null || !this.records[key]) continue;
      const input = this.inputOf[key];
      let set = chosen.get(input);
      if (!set) chosen.set(input, (set = new Set()));
      set.add(this.records[key].verdict.index);
    }
    // Each input's records, in order (an input's keys are one run).
    const byInput = new Map<number, InspectedRecord[]>();
    this.records.forEach((r, key) => {
      const input = this.inputOf[key];
      if (!chosen.has(input)) return;
      let list = byInput.get(input);
      if (!list) byInput.set(input, (list = []));
      list.push(r);
    });
    const sources = inputs.map((x) => ({ name: x.name, bytes: x.bytes, records: byInput.get(x.number) ?? [] }));
    const part = partInputs(sources, new Map(inputs.map((x, at) => [at, chosen.get(x.number) ?? new Set<number>()])));
    // partInputs numbers the inputs by their place in `inputs`: back to the session's numbers.
    return part.map((p) => ({ ...p, number: inputs[p.number].number }));
  }

  /** One input read whole (a bundle's or a link's inputs, or a load without batches); signatures on the pool. */
  private async loadOne(name: string, bytes: Uint8Array, redacted: boolean, out: LoadResult): Promise<void> {
    const inputNumber = this.inputs.length;
    this.inputBytes.push(bytes);
    if (redacted) this.redactedInputs.add(inputNumber);
    const read = inspectInput(inputNumber, { name, bytes }, this.keys, false);
    const { input, workflows } = read;
    // The link's word that bodies were redacted holds only for records whose bodies are blank.
    const blank = redacted ? blankAsRedacted(bytes, read.records) : null;
    for (const w of workflows) this.workflows.push({ ...w, record: w.record + this.records.length });
    const records = await this.verify(read.records);
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
    this.inputs.push(summary);
    out.inputs.push(summary);
    records.forEach((r, i) => {
      const key = this.records.length;
      this.records.push(r);
      this.inputOf.push(inputNumber);
      if (blank?.[i]) this.blanked.add(key);
      const s = summarize(key, r, undefined, !!blank?.[i]);
      this.summaries.set(s);
      out.records.push(s);
    });
    this.rules = null;
  }

  detail(key: number): RecordDetail | null {
    const r = this.records[key];
    if (!r) return null;
    const { verdict: v, data } = r;
    // Records read in bulk carry no views: they are built now; the verdicts stay this record's.
    const views = recordViews(r);
    const [start, end] = v.span ?? [0, Math.min(data.view.length, MAX_HEX)];
    return {
      key,
      // A record still streaming in has no summary made yet: this one is as the page will see it.
      summary: this.summaryOf(key) ?? summarize(key, r, this.logRules(key), this.blanked.has(key)),
      inputName: this.inputs[this.inputOf[key]].name,
      span: v.span,
      inputSpan: v.inputSpan,
      error: v.error,
      findings: [...allFindings(v, this.logFindings(key))],
      signature:
        this.redactedInputs.has(this.inputOf[key]) && v.signature.status !== 'unsigned' && hasBody(r)
          ? { ...v.signature, reason: `${redactionWords(this.blanked.has(key))}: ${v.signature.reason}` }
          : v.signature,
      tree: views.tree,
      headers: views.headers,
      body: views.body,
      viewOrigin: data.viewOrigin,
      hexOffset: start,
      hex: data.view.slice(start, end),
      hexTruncated: v.span === null && data.view.length > MAX_HEX,
      diagnostic: diagnosticView(data.view.subarray(start, end)),
      logTimeMicros: v.logTimeMicros?.toString() ?? null,
      logPosition: data.logPosition ? `partition ${data.logPosition.partition}, offset ${data.logPosition.offset}` : null,
      parent: v.parent !== null ? key - (v.index - v.parent) : null,
      signing: data.envelope?.signature ? signingInputSegments(data.envelope) : null,
      canonical: canonicalDiff(r),
      workflow: this.completedWorkflow(key),
      context: { signed: data.envelope?.signature?.context ?? null, observed: data.observed },
      links: this.links(key),
      dialectEvidence: v.dialectEvidence,
      readableBody: readableBodyOf(r, key, this.bodyLog(this.inputOf[key])),
    };
  }

  /**
   * What a record's readable body reads of the load: the last load's entries (none while it is still
   * reading), the records' envelopes, links' labels, and the position lookup (made once per analysis).
   */
  private bodyLog(from: number): BodyLog {
    const entries = this.log?.facts.entries ?? [];
    if (this.positions?.entries !== entries) this.positions = { entries, recordAt: recordsByPosition(entries) };
    return {
      entries,
      envelopeOf: (k) => this.records[k]?.data.envelope ?? null,
      labelOf: (k) => this.recordLabel(k, from),
      recordAt: this.positions.recordAt,
    };
  }

  /**
   * A record's cause, cause_at and correlation resolved over the last load's record-level graph
   * (none while its load is still reading: the graph is made when it ends).
   */
  private links(key: number): RecordLinkView[] {
    const log = this.log;
    if (!log) return [];
    const linked = (k: number): LinkedRecord => ({ key: k, label: k === key ? 'this record itself' : this.recordLabel(k, this.inputOf[key]) });
    return recordLinks(log.compact, log.facts.entries, key).map((l: RecordLink) => ({
      field: l.field,
      ref: l.ref,
      target: l.target === null ? null : linked(l.target),
      answers: l.answers.slice(0, ANSWERS_LISTED).map(linked),
      answerCount: l.answers.length,
      note: l.note,
    }));
  }

  /**
   * A record in a few words for a link to it: kind, short id and place, the input named only when it
   * is not `from` (the linking record's input: its name again made every link wrap on a phone).
   */
  private recordLabel(key: number, from: number): string {
    const s = this.summaryOf(key);
    if (!s) return `record ${key}`;
    const input = this.inputOf[key];
    const where = input === from ? `record #${s.index}` : `${this.inputs[input]?.name ?? ''} #${s.index}`;
    return `${s.kind ?? s.format}${s.id ? ` ${shortId(s.id)}` : ''} · ${where}`;
  }

  /** The workflow of a record, its lists of candidate keys complete. */
  private completedWorkflow(key: number): WorkflowReport | null {
    this.completeLists((w) => w.record === key);
    return this.workflows.find((w) => w.record === key) ?? null;
  }

  /**
   * A record as a comparison side: its verdict with the log's findings, its input's name, its
   * workflow. A side of two logs compared (no workflow) shows rules, not bytes: its findings' spans
   * are not looked for.
   */
  private compareSide(key: number, workflow = true): CompareSide {
    const record = this.records[key];
    const log = workflow ? this.logFindings(key) : this.logRules(key);
    return {
      key,
      record,
      inputName: this.inputs[this.inputOf[key]].name,
      valid: isValid(record.verdict, log),
      findings: allFindings(record.verdict, log),
      workflow: workflow ? this.completedWorkflow(key) : null,
    };
  }

  /** Two records, two inputs or two conversations compared; null when one of them is not loaded. */
  compare(subject: CompareSubject): Comparison | null {
    if (subject.scope === 'records') {
      const { a, b } = subject;
      if (!this.records[a] || !this.records[b]) return null;
      return compareRecords(this.compareSide(a), this.compareSide(b));
    }
    const keys = (match: (key: number) => boolean) => {
      const out: CompareSide[] = [];
      for (let key = 0; key < this.records.length; key++) if (match(key)) out.push(this.compareSide(key, false));
      return out;
    };
    if (subject.scope === 'inputs') {
      const { a, b } = subject;
      if (!this.inputs[a] || !this.inputs[b]) return null;
      return compareLogs(
        'inputs',
        { label: this.inputs[a].name, records: keys((k) => this.inputOf[k] === a) },
        { label: this.inputs[b].name, records: keys((k) => this.inputOf[k] === b) },
      );
    }
    const { a, b } = subject;
    if (typeof a !== 'string' || typeof b !== 'string') throw new TypeError('compare: conversation ids are strings');
    const ra = keys((k) => this.records[k].verdict.conversation === a);
    const rb = keys((k) => this.records[k].verdict.conversation === b);
    if (!ra.length || !rb.length) return null;
    return compareLogs('conversations', { label: a, records: ra }, { label: b, records: rb });
  }

  /**
   * Records to compare `near` with: those whose summary, id, kind, format, source, target,
   * conversation or input name holds `text` (any case), `#N` for index N; with no text, records of
   * `near`'s kind. At most `limit` keys, `near`'s kind first, and how many match in all.
   */
  compareCandidates(text: string, near: number | null, limit: number): { keys: number[]; total: number } {
    if (typeof text !== 'string') throw new TypeError('compareCandidates: text must be a string');
    const q = text.trim().toLowerCase();
    const index = /^#(\d+)$/.exec(q);
    const kindOf = (k: number) => {
      const v = this.records[k].verdict;
      return v.kind ?? v.format;
    };
    const nearKind = near !== null && this.summaries.has(near) ? kindOf(near) : null;
    const first: number[] = [];
    const rest: number[] = [];
    let total = 0;
    const cap = Math.max(0, Math.min(limit, 500));
    for (let key = 0; key < this.summaries.length; key++) {
      const s = this.summaryOf(key);
      if (!s || key === near) continue;
      const hit = index
        ? s.index === Number(index[1])
        : q === ''
          ? nearKind === null || kindOf(key) === nearKind
          : [s.summary, s.id, s.kind, s.format, s.source, s.target, s.conversation, this.inputs[s.input]?.name].some((f) => f?.toLowerCase().includes(q));
      if (!hit) continue;
      total++;
      const same = nearKind !== null && kindOf(key) === nearKind;
      if (same && first.length < cap) first.push(key);
      else if (!same && rest.length < cap) rest.push(key);
    }
    return { keys: [...first, ...rest].slice(0, cap), total };
  }

  /** report@1 for everything loaded (the same document the CLI writes), and its Markdown summary. */
  report(): { json: string; markdown: string } {
    this.completeLists(() => true);
    const report = buildReport({
      inputs: this.inputs.map(({ name, bytes, sha256, format }) => ({ name, bytes, sha256, format })),
      records: this.records,
      workflows: this.workflows,
      log: this.analysis(),
    });
    return { json: JSON.stringify(report, null, 2), markdown: reportToMarkdown(report) };
  }

  get size(): number {
    return this.records.length;
  }

  /** The keys of the records that match, in log order or `order`: the filter and the sort run here, where the data is. */
  filter(f: RecordFilter, order: ListOrder = LOG_ORDER): Int32Array {
    const out = new Int32Array(this.summaries.length);
    let n = 0;
    const source = f.source?.trim().toLowerCase();
    const conversation = f.conversation?.trim().toUpperCase();
    // The records carrying a rule the words mean, marked once from the index (not a look at every record's findings).
    const rule = f.rule?.trim() ? this.ruleIndex().mark(this.matchRules(f.rule), this.summaries.length) : null;
    for (let key = 0; key < this.summaries.length; key++) {
      const s = this.summaryOf(key);
      if (!s) continue;
      if (f.kind && (s.kind ?? s.format) !== f.kind) continue;
      if (source && !(s.source ?? '').toLowerCase().includes(source)) continue;
      if (conversation && !(s.conversation ?? '').startsWith(conversation)) continue;
      if (f.validity === 'valid' && !(s.decoded && s.valid)) continue;
      if (f.validity === 'invalid' && !(s.decoded && !s.valid)) continue;
      if (f.validity === 'undecoded' && s.decoded) continue;
      if (f.validity === 'problem' && !hasProblem(s)) continue;
      if (rule && !rule[key]) continue;
      out[n++] = key;
    }
    return orderKeys(out.slice(0, n), order, (key) => this.summaryOf(key));
  }

  /** The rule ids present that the rule filter's words mean (src/core/rule-filter.ts). */
  matchRules(words: string): string[] {
    return this.ruleIndex().match(words);
  }

  /** The rule ids the records carry, with how many records carry each, and how many have any problem. */
  rulesPresent(): RulesPresent {
    let problems = 0;
    // The kept counts and the verdict, not a summary made per record.
    for (let key = 0; key < this.summaries.length; key++) {
      const c = this.summaries.get(key);
      const v = this.records[key].verdict;
      if (c && hasProblem({ decoded: v.decoded, signature: v.signature.status, ...c })) problems++;
    }
    return { rules: this.ruleIndex().counts(), problems };
  }

  private ruleIndex(): RuleIndex {
    if (this.rules) return this.rules;
    const index = new RuleIndex();
    for (let key = 0; key < this.summaries.length; key++) {
      const v = this.records[key].verdict;
      index.add(key, allFindings(v, this.logRules(key)));
      if (v.error) index.add(key, [{ rule: v.error.code, severity: 'error' }]);
    }
    return (this.rules = index);
  }

  /** The folds (agents, runs, conversations) as they stood at log position `asOf` (all of it when null). */
  folds(asOf: number | null): FoldView {
    const log = this.analysis();
    const result = asOf === null ? log.folds : foldPrepared(log.fold, { asOf });
    return {
      ...toReportFolds(result),
      positions: result.order.length,
      asOf: result.asOf ? { position: result.asOf.position, record: result.asOf.recordIndex, time: result.asOf.time?.toString() ?? null } : null,
      order: result.order,
    };
  }

  /** Both graphs, laid out, as the page draws them: the record-level graph of the load, drawn. */
  graph(expanded: string[]): GraphRender {
    return renderGraph(this.analysis().graph, this.workflows, (key) => this.summaryOf(key), expanded, {
      findings: (key) => this.logRules(key),
      inputName: (input) => this.inputs[input]?.name ?? '',
    });
  }

  /** The AGDX records on a time axis, each mark drawn with its verdict as the page has it. */
  timeline(): Timeline {
    return buildTimeline(this.analysis(), (i) => markVerdict(this.summaryOf(i) ?? { valid: true, signature: 'unsigned', trusted: false }));
  }

  /** The log's analysis as of the last load (made now when nothing was loaded since the last clear). */
  private analysis(): LogAnalysis {
    return (this.log ??= analyzeRecords(this.records, this.currentRecords));
  }

  /** A record's summary as last made (undefined until it went to the page): its verdict's fields (in `records`) and the counts kept. */
  private summaryOf(key: number, records: readonly InspectedRecord[] = this.records): RecordSummary | undefined {
    const counts = this.summaries.get(key);
    return counts && summaryFrom(key, records[key], counts);
  }

  /** The log's findings about a record, as of the last load. */
  private logFindings(key: number): readonly Finding[] | undefined {
    return this.log?.findings.get(key);
  }

  /** The same findings without looking for their spans: enough to count them or read their rules. */
  private logRules(key: number): readonly Finding[] | undefined {
    return this.log?.findings.get(key, false);
  }

  /** The analysis after the verdicts changed: the same graph, folded again (all of it anew when there is none of these records). */
  private refold(): LogAnalysis {
    const log = this.log;
    if (!log || log.facts.records !== this.records.length) return analyzeRecords(this.records, this.currentRecords);
    return refoldLog(
      log,
      withVerdicts(log.facts, (i) => ({ signature: this.records[i].verdict.signature, invalid: !isValid(this.records[i].verdict) })),
    );
  }

  clear(): void {
    this.inputs = [];
    this.records = [];
    this.summaries.clear();
    this.inputOf = [];
    this.inputBytes = [];
    this.workflows = [];
    this.log = null;
    this.rules = null;
    this.redactedInputs.clear();
    this.blanked.clear();
  }
}

/** A record with something wrong: not decoded, or any error or warning finding (its own or the log's). */

/** The log entry of record `key` (entries are in record order; a record without an envelope has none). */
/** The DIDs whose secp256k1 key-file keys differ between two registries (didKeys maps). */
function changedKeyDids(a: Map<string, Uint8Array[]> | undefined, b: Map<string, Uint8Array[]> | undefined): Set<string> {
  const text = (m: Map<string, Uint8Array[]> | undefined, did: string) =>
    (m?.get(did) ?? [])
      .map((k) => k.join(','))
      .sort()
      .join(';');
  const out = new Set<string>();
  for (const did of new Set([...(a?.keys() ?? []), ...(b?.keys() ?? [])])) if (text(a, did) !== text(b, did)) out.add(did);
  return out;
}

/** What a link's claim of redaction means for one record's signature verdict. */
function redactionWords(blank: boolean): string {
  return blank
    ? 'the link says bodies were redacted before it was shared, and this body is blank as redaction leaves it: the signature cannot be re-checked (this verdict is over the blanked body)'
    : 'the link says bodies were redacted, but this body is not blank: the claim does not hold for this record, and this verdict is over the body as received';
}

function canonicalDiff({ verdict, data }: InspectedRecord): RecordDetail['canonical'] {
  if (!data.envelope || !verdict.span || !verdict.findings.some((f) => f.rule === 'agdx/noncanonical')) return null;
  const received = data.view.slice(verdict.span[0], verdict.span[1]);
  const canonical = encodeEnvelope(data.envelope);
  return { received, canonical, offset: verdict.span[0], firstDifference: firstDifference(received, canonical) };
}

/** Records read per batch while a large input streams in. */
const BATCH_RECORDS = 2000;

/**
 * The most records a session keeps (over all its loads): a kept record costs the worker a few
 * hundred bytes, and a tab's worker dies near 4 GB. Past it an input is read to its end and the
 * rest of its records counted (InputSummary.unkept), and the load says so.
 */
export const RECORDS_KEPT = 2_000_000;

/** What a load says of an input whose records were not all kept. */
function unkeptWords(input: InputSummary, recordsKept: number): string {
  const n = (k: number) => k.toLocaleString('en-US');
  const read = input.records + (input.unkept ?? 0);
  return `${input.name}: ${n(read)} records read, ${n(input.records)} of them kept and listed: the page keeps at most ${n(recordsKept)} records (the command line, envelope-inspector inspect, reports them all)`;
}

export interface LoadHooks {
  /** Told before each input is read (by its place in the load), so a crash or hang can be laid at its door. */
  reading?: (at: number) => void;
  /** Receives each batch as it is read (streaming); without it, inputs are read whole. */
  batch?: (b: { inputs: InputSummary[]; records: RecordSummary[]; progress: { records: number; bytesDone: number; bytesTotal: number } }) => void;
  /** Lets messages (a cancel) arrive between batches. */
  pause?: () => Promise<void>;
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

/** SHA-256 of an input by WebCrypto, hex (the pure hash if WebCrypto fails); null where there is none (then the read hashes it). */
function inputDigest(bytes: Uint8Array): Promise<string> | null {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  return subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>).then(
    (d) => toHex(new Uint8Array(d)),
    () => toHex(sha256(bytes)),
  );
}
