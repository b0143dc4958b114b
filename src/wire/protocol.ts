// The page ↔ worker protocol, shared by both sides: one map (`Protocol`) from each request type to
// the body the page sends, the reply it gets, and the parts that arrive before the reply (a load's
// batches, a large graph's pieces). Adding a message is one entry here and one handler in the
// table of the session part that answers it (src/worker/loading.ts, keys.ts, sharing.ts, views.ts or
// queries.ts; handlers.ts puts them together); the page calls it with `InspectorClient.call`.
// The page sends Blobs (handles, not copies) and asks for details; the worker answers with compact
// summaries and, on demand, the full detail of one record. Only plain data crosses: no classes, no functions.
import type { WorkflowReport } from '../core/agentdna/model';
import type { Comparison, CompareSubject } from '../core/compare/model';
import type { CompareScope } from '../core/share/permalink';
import type { ReportFolds } from '../core/folds';
import type { LinkField } from '../core/graph/record-links';
import type { RegistryEntry } from '../core/keys/keys';
import type { RuleCount } from '../core/rule-filter';
import type { TextReading } from '../core/read-text';
import type { BodyView, FieldNode, HeaderView, SignatureVerdict, Span, ViewOrigin } from '../core/model';
import type { ReadableBody } from '../core/bodies/readable';
import type { GraphRender } from './graph';
import type { GraphPart } from './graph-parts';
import type { RecordSummary, SummaryPack } from './summary-pack';
import type { TimelinePack } from './timeline-pack';
import type { DecodeError, Finding } from '../core/verdict';

/**
 * One input as the page hands it over: a Blob (a dropped File, or text and samples wrapped in one).
 * Posting a Blob passes a handle, not its bytes, so the page never copies or reads a large file:
 * the worker reads it, and the page keeps the same handle to replay it after a watchdog restart.
 */
export interface InputPayload {
  name: string;
  data: Blob;
}

export interface InputSummary {
  /** Global input number across everything loaded in this session. */
  input: number;
  name: string;
  bytes: number;
  sha256: string;
  format: string;
  /** Records kept (listed). */
  records: number;
  /**
   * Records read past what the page keeps (the worker's RECORDS_KEPT): counted, not kept, not
   * listed. Absent when every record read was kept.
   */
  unkept?: number;
  /** The input's own failure (nothing in it could be read), if any. */
  error: DecodeError | null;
}

export interface LoadProgress {
  records: number;
  bytesDone: number;
  bytesTotal: number;
}

/** Which records the list shows: every field optional, all must match. */
export interface RecordFilter {
  kind?: string;
  source?: string;
  conversation?: string;
  /** valid, invalid, undecoded, or problem (core/verdict.ts hasProblem: not decoded, any error or warning finding, or a signature that does not hold) */
  validity?: string;
  /**
   * The rule ids some record carries that these words mean (src/core/rule-filter.ts): an exact id
   * alone, else any start of ids (`agdx/matrix`), else ids containing it (`must`), else catalogue titles.
   */
  rule?: string;
}

/** The list's columns a person may sort by; `log` is the order the records were read in. */
export const LIST_COLUMNS = ['log', 'kind', 'id', 'route', 'time', 'type', 'verdict'] as const;
export type ListColumn = (typeof LIST_COLUMNS)[number];

/** How the list is ordered: by a column (ties in log order), either way. */
export interface ListOrder {
  by: ListColumn;
  descending: boolean;
}

/** The order records are read in: the list's default. */
export const LOG_ORDER: ListOrder = { by: 'log', descending: false };

/** The rule ids the loaded records carry, with counts: what the rule filter offers. */
export interface RulesPresent {
  rules: RuleCount[];
  /** Records with a problem (core/verdict.ts hasProblem, the filter's validity `problem`). */
  problems: number;
}

/** A record a link names, as its button says it. */
export interface LinkedRecord {
  key: number;
  /** Its kind, short id and place (`command 01J0Y1…0001 · conversation.cborseq #0`). */
  label: string;
}

/** One reference a record makes (cause, cause_at, correlation), resolved in the worker. */
export interface RecordLinkView {
  field: LinkField;
  /** The reference as the record writes it. */
  ref: string;
  /** The record it names, or null when no loaded record is it. */
  target: LinkedRecord | null;
  /** A command's correlation: the first records answering it, and how many do. */
  answers: LinkedRecord[];
  answerCount: number;
  /** How it was resolved when that needs saying, or why nothing was found. */
  note: string | null;
}

/** The folds as they stood at a point of the log (report@1's agents, runs and conversations). */
export interface FoldView extends ReportFolds {
  /** Records in log order (what the slider moves over). */
  positions: number;
  order: number[];
  asOf: { position: number; record: number; time: string | null } | null;
}

/** The view a permalink or bundle carried, with the selection resolved to a record key. */
export interface SharedView {
  selectedKey: number | null;
  tab: string;
  viewport: { x: number; y: number; zoom: number } | null;
  filters: Record<string, string>;
  /** The link says its bodies were redacted (the sender's word). */
  redacted: boolean;
  /** With `redacted`: records with a body that is not blank, for which the claim does not hold. */
  notBlank: number;
  /** The comparison shown (its two records by key), if any: what a link carried, or what the page asks to share. */
  compare?: ComparedPair | null;
}

/** A comparison as the page holds and a link carries it: records A and B (by key), and what of them is compared. */
export interface ComparedPair {
  a: number;
  b: number;
  scope: CompareScope;
}

/** The view the page asks to share (what a link says of redaction is the worker's to decide). */
export type ViewToShare = Omit<SharedView, 'redacted' | 'notBlank'>;

export interface RecordDetail {
  key: number;
  summary: RecordSummary;
  inputName: string;
  span: Span | null;
  inputSpan: Span | null;
  error: DecodeError | null;
  findings: Finding[];
  signature: SignatureVerdict;
  tree: FieldNode[];
  headers: HeaderView[] | null;
  body: BodyView | null;
  viewOrigin: ViewOrigin;
  /** The bytes shown in the hex view, and the offset (in span coordinates) of the first one. */
  hexOffset: number;
  hex: Uint8Array;
  /** The view holds more bytes than were sent. */
  hexTruncated: boolean;
  /** The same bytes in CBOR diagnostic notation, one entry a line (null: they are not CBOR, a JSON record say). */
  diagnostic: string | null;
  logTimeMicros: string | null;
  logPosition: string | null;
  parent: number | null;
  /** The signed message in its three segments, when the record carries a signature. */
  signing: { domain: Uint8Array; context: Uint8Array; envelope: Uint8Array } | null;
  /** The received bytes against their canonical encoding, when they differ (CBOR only). */
  canonical: { received: Uint8Array; canonical: Uint8Array; offset: number; firstDifference: number } | null;
  /** The AgentDNA workflow (or bare envelope) this record is, with every envelope's verdict. */
  workflow: WorkflowReport | null;
  /** The signed context and the headers it is checked against. */
  context: { signed: { content_type?: number; agent_version?: number } | null; observed: { av: number | null; ct: number | null } | null };
  /** The record's cause, cause_at and correlation, resolved to the records they name (as of the last load's analysis). */
  links: RecordLinkView[];
  /** What showed the record's AGDX dialect (summary.dialect): field paths and `headers.<name>`. */
  dialectEvidence: readonly string[];
  /** A 0.7 shaped body in readable form, its pointers resolved over the last load (null: the body has no shape of its own, or is not its shape). */
  readableBody: ReadableBody | null;
}

/** What redaction blanked in one input, and what it could not (then the person decides before a link is made). */
export interface InputRedaction {
  input: number;
  name: string;
  blanked: string[];
  unblankable: string[];
}

/** Which records a link or bundle carries: all, the filtered ones (the view's filters), or the selected record (and a compared pair). */
export type ShareRecords = 'all' | 'filtered' | 'selected';

/** The person's decision on inputs with parts redaction cannot blank: leave them out, or share them as they are. */
export type Unblankable = 'leave-out' | 'include';

/** What a load or a link's opening ends with: the inputs, the summaries not sent in a batch, the view a link carried. */
export interface Loaded {
  inputs: InputSummary[];
  records: SummaryPack;
  view: SharedView | null;
  problems: string[];
  cancelled: boolean;
  /** A link that could not be opened says why (nothing else is loaded then). */
  error?: string | null;
}

/**
 * A load's parts: the input it starts reading (if the worker crashes or hangs now, that is the input
 * to blame), and each batch of records as they are read.
 */
export type LoadPart =
  | { type: 'reading'; at: number }
  | { type: 'batch'; inputs: InputSummary[]; records: SummaryPack; progress: LoadProgress }
  /** Summaries of records sent in earlier batches whose verdicts the load's end changed (the log's graph findings), a part at a time. */
  | { type: 'verdicts'; records: SummaryPack };

/** A permalink (and, when asked, a bundle) of the view, and what redaction did. */
export interface Shared {
  fragment: string;
  bundle: Uint8Array | null;
  problems: string[];
  redaction: InputRedaction[] | null;
}

/** No body, or no reply but "done". */
type Nothing = Record<string, never>;

/** Every request: its body, its reply, and the parts sent ahead of the reply (`never`: none). */
export interface Protocol {
  /** Reads inputs; with `stream`, records arrive in batches as they are read. `pauseMs`: an extra pause between batches (slow motion). */
  load: { body: { inputs: InputPayload[]; stream?: boolean; pauseMs?: number }; reply: Loaded; part: LoadPart };
  /** Opens a permalink fragment in place of what is loaded. */
  open: { body: { fragment: string }; reply: Loaded; part: never };
  /** What pasted text would read as (nothing is loaded): its format and records, or where it fails. */
  readText: { body: { text: string }; reply: TextReading; part: never };
  /** The page has drawn the first records of load `load`: the worker reads on. */
  shown: { body: { load: number }; reply: null; part: never };
  /** Stops load `load` between two batches; what was read stays loaded. */
  cancel: { body: { load: number }; reply: null; part: never };
  /**
   * The keys of the records matching the filter, in `order` (log order without one), how many
   * records there are, and the rule ids its `rule` matched (null without one).
   */
  filter: { body: { filter: RecordFilter; order?: ListOrder }; reply: { keys: Int32Array; total: number; rules: string[] | null }; part: never };
  /** The rule ids the loaded records carry, with counts (worked out once per load or key change). */
  rules: { body: Nothing; reply: RulesPresent; part: never };
  detail: { body: { key: number }; reply: RecordDetail | null; part: never };
  /** Replaces the key registry; every record is re-verified. Replies with the summaries that changed. */
  keys: { body: { keys: readonly RegistryEntry[] }; reply: SummaryPack; part: never };
  /** The graph with the streams and fan-outs `expanded` unfolded; a large one comes in parts, then its shell. */
  graph: { body: { expanded: string[] }; reply: GraphRender; part: GraphPart };
  /** The AGDX records on a time axis (core/timeline), packed: its buffers are handed over. */
  timeline: { body: Nothing; reply: TimelinePack; part: never };
  folds: { body: { asOf: number | null }; reply: FoldView; part: never };
  report: { body: Nothing; reply: { json: string; markdown: string }; part: never };
  /** A link (and, asked, a bundle) of the view and `records` of what is loaded (default all), each input cut down to them where it can be. */
  share: { body: { view: ViewToShare; redact: boolean; bundle: boolean; unblankable?: Unblankable; records?: ShareRecords }; reply: Shared; part: never };
  clear: { body: Nothing; reply: null; part: never };
  /** Two records, two inputs or two conversations compared (src/core/compare); null when one is no longer loaded. */
  compare: { body: CompareSubject; reply: Comparison | null; part: never };
  /** Records a "Compare with…" search finds (text in their summary, id, kind, source or input name), at most `limit`; `near`'s kind first. */
  compareCandidates: { body: { text: string; near: number | null; limit: number }; reply: { keys: number[]; total: number }; part: never };
}

export type RequestType = keyof Protocol;
export type RequestBody<K extends RequestType> = Protocol[K]['body'];
export type Reply<K extends RequestType> = Protocol[K]['reply'];
export type Part<K extends RequestType> = Protocol[K]['part'];

/**
 * A request→reply map like Protocol: each request type's body, its reply, and the parts sent ahead
 * of the reply (`never`: none). The inspector worker speaks Protocol; its verifier pool speaks
 * VerifyProtocol (./verify-protocol.ts); both through the types below and one `answer` (src/worker/answer.ts).
 */
export type RequestMap<M> = { [K in keyof M]: { body: unknown; reply: unknown; part: unknown } };

/** A request of map M as it crosses; `id` pairs it with what comes back. */
export type RequestOf<M extends RequestMap<M>, K extends keyof M = keyof M> = { [T in K]: { id: number; type: T; body: M[T]['body'] } }[K];

/** What crosses back for request `id`: its parts, then its reply, or the one failure (the handler's error). */
export type MessageOf<M extends RequestMap<M>, K extends keyof M = keyof M> =
  | { [T in K]: { id: number; kind: 'part'; part: M[T]['part'] } | { id: number; kind: 'reply'; reply: M[T]['reply'] } }[K]
  | { id: number; kind: 'failed'; message: string };

/** What a handler is given beside the body: its request's id, a way to send parts, buffers to hand over. */
export interface ContextOf<M extends RequestMap<M>, K extends keyof M> {
  /** The request's id (a cancel or a shown names a load by it). */
  id: number;
  /** Sends a part ahead of the reply; `transfer` hands buffers over instead of copying them. */
  part(part: M[K]['part'], transfer?: Transferable[]): void;
  /** Buffers the reply hands over instead of copying (each must belong to the reply alone). */
  transfer(...buffers: Transferable[]): void;
}

export type HandlerOf<M extends RequestMap<M>, K extends keyof M> = (body: M[K]['body'], ctx: ContextOf<M, K>) => Promise<M[K]['reply']>;

/** The answering side: one handler per request type, checked against the map. */
export type HandlersOf<M extends RequestMap<M>> = { [K in keyof M]: HandlerOf<M, K> };

/** A request as it crosses to the worker; `id` pairs it with what comes back. */
export type WireRequest<K extends RequestType = RequestType> = RequestOf<Protocol, K>;

/** What crosses back for request `id`: its parts, then its reply, or the one failure (the handler's error). */
export type WireMessage<K extends RequestType = RequestType> = MessageOf<Protocol, K>;

export type HandlerContext<K extends RequestType> = ContextOf<Protocol, K>;

export type Handler<K extends RequestType> = HandlerOf<Protocol, K>;

/** The worker's side: one handler per request type, checked against the map. */
export type Handlers = HandlersOf<Protocol>;
