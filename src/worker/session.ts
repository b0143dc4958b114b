// What the worker holds, as one object: a thin façade over the session's parts, each with its own
// state and its own handlers (the protocol's requests it answers): loading (loading.ts, reading
// through read-input.ts), the key registry (keys.ts), links and bundles (sharing.ts), a record's
// detail and comparisons (views.ts), and the list, rules, folds, graph, timeline and report
// (queries.ts). What they all read, the loaded inputs and records, is session-state.ts. Kept apart
// from the worker entry so it can be tested without a Worker.
import type { VerifyMany } from '../core/agdx/verify';
import type { CheckSignatures } from '../core/agentdna/signature-jobs';
import type { Comparison, CompareSubject } from '../core/compare/model';
import type { RegistryEntry } from '../core/keys/keys';
import type { Timeline } from '../core/timeline/model';
import type { GraphRender } from '../wire/graph';
import type { FoldView, InputPayload, ListOrder, RecordDetail, RecordFilter, RulesPresent, ShareRecords, Unblankable } from '../wire/protocol';
import type { RecordSummary } from '../wire/summary-pack';
import { Keys } from './keys';
import { Loading } from './loading';
import { Queries } from './queries';
import { InputReader, LOAD_WINDOW, type LoadHooks, type LoadResult, RECORDS_KEPT } from './read-input';
import { SessionState } from './session-state';
import { Sharing, type ViewByKey } from './sharing';
import { Views } from './views';

export class InspectorSession {
  readonly state = new SessionState();
  readonly keys: Keys;
  readonly loading: Loading;
  readonly sharing: Sharing;
  readonly views: Views;
  readonly queries: Queries;

  /**
   * `verifyMany` hands Ed25519 checks to other threads (the worker's pool), `checkSignatures` the
   * AgentDNA secp256k1 checks of a streamed card history or workflow array; without them they run
   * here, synchronously (tests, Node).
   */
  constructor(
    verifyMany?: VerifyMany,
    checkSignatures?: CheckSignatures,
    /** The most records kept over a session's loads (RECORDS_KEPT); tests lower it. */
    recordsKept = RECORDS_KEPT,
    /** Bytes of a large CBOR sequence read at a time (LOAD_WINDOW); tests lower it. */
    loadWindow = LOAD_WINDOW,
  ) {
    this.keys = new Keys(this.state, verifyMany);
    const reader = new InputReader(this.state, this.keys, checkSignatures, recordsKept, loadWindow);
    this.queries = new Queries(this.state);
    this.sharing = new Sharing(this.state, reader, this.queries);
    this.loading = new Loading(this.state, reader, this.sharing, checkSignatures);
    this.views = new Views(this.state);
  }

  /** Loads inputs; a bundle among them opens its view (loading.ts). */
  load(payloads: InputPayload[], hooks: LoadHooks = {}): Promise<LoadResult> {
    return this.loading.load(payloads, hooks);
  }

  /** Opens a permalink fragment in place of what is loaded (sharing.ts). */
  open(fragment: string): Promise<LoadResult & { error: string | null }> {
    return this.sharing.open(fragment);
  }

  clear(): void {
    this.loading.clear();
  }

  /** Replaces the key registry and re-verifies every record; returns the summaries that changed (keys.ts). */
  setKeys(keys: readonly RegistryEntry[]): Promise<RecordSummary[]> {
    return this.keys.set(keys);
  }

  /** A link, and when asked a bundle, of what is loaded and the view (sharing.ts). */
  share(view: ViewByKey, redact: boolean, bundle: boolean, unblankable?: Unblankable, records?: ShareRecords) {
    return this.sharing.share(view, redact, bundle, unblankable, records);
  }

  detail(key: number): RecordDetail | null {
    return this.views.detail(key);
  }

  compare(subject: CompareSubject): Comparison | null {
    return this.views.compare(subject);
  }

  compareCandidates(text: string, near: number | null, limit: number): { keys: number[]; total: number } {
    return this.views.compareCandidates(text, near, limit);
  }

  get size(): number {
    return this.queries.size;
  }

  filter(f: RecordFilter, order?: ListOrder): Int32Array {
    return this.queries.filter(f, order);
  }

  matchRules(words: string): string[] {
    return this.queries.matchRules(words);
  }

  rulesPresent(): RulesPresent {
    return this.queries.rulesPresent();
  }

  folds(asOf: number | null): FoldView {
    return this.queries.folds(asOf);
  }

  graph(expanded: string[]): GraphRender {
    return this.queries.graph(expanded);
  }

  timeline(): Timeline {
    return this.queries.timeline();
  }

  report(): { json: string; markdown: string } {
    return this.queries.report();
  }
}
