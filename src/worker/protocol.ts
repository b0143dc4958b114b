// The typed messages between the page and the inspector worker. The page sends Blobs (handles,
// not copies) and asks for details; the worker answers with compact summaries and, on demand, the
// full detail of one record. Only plain data crosses: no classes, no functions.
import type { WorkflowReport } from '../core/agentdna/model';
import type { ReportFolds } from '../core/folds';
import type { GraphRender } from './graph-render';
import type { RecordSummary, SummaryPack } from './summary-pack';
import type { RegistryEntry } from '../core/keys/keys';
import type { BodyView, DecodeError, FieldNode, Finding, HeaderView, SignatureVerdict, Span, ViewOrigin } from '../core/model';

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
  records: number;
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
  /** valid, invalid, undecoded */
  validity?: string;
  /** A rule id, or a prefix of one ending in '/'. */
  rule?: string;
}

/** The folds as they stood at a point of the log (report@1's agents, runs and conversations). */
export interface FoldView extends ReportFolds {
  /** Records in log order (what the slider moves over). */
  positions: number;
  order: number[];
  asOf: { position: number; record: number; time: string | null } | null;
}

// A record's summary is defined where it is packed (summary-pack.ts imports nothing from here).
export type { RecordSummary };

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
}

/** What redaction blanked in one input, and what it could not (then the person decides before a link is made). */
export interface InputRedaction {
  input: number;
  name: string;
  blanked: string[];
  unblankable: string[];
}

/** The person's decision on inputs with parts redaction cannot blank: leave them out, or share them as they are. */
export type Unblankable = 'leave-out' | 'include';

export type Request =
  | { type: 'load'; id: number; inputs: InputPayload[]; /** Send records in batches as they are read. */ stream?: boolean; /** Extra pause between batches (ms), to watch a load in slow motion. */ pauseMs?: number }
  | { type: 'detail'; id: number; key: number }
  | { type: 'clear'; id: number }
  | { type: 'keys'; id: number; keys: readonly RegistryEntry[] }
  | { type: 'open'; id: number; fragment: string }
  | { type: 'report'; id: number }
  | { type: 'graph'; id: number; expanded: string[] }
  | { type: 'folds'; id: number; asOf: number | null }
  | { type: 'cancel'; id: number; load: number }
  /** The page has drawn the first records of a load: the worker reads on. */
  | { type: 'shown'; id: number; load: number }
  | { type: 'filter'; id: number; filter: RecordFilter }
  | { type: 'share'; id: number; view: ViewToShare; redact: boolean; bundle: boolean; unblankable?: Unblankable };

export type Response =
  | { type: 'loaded'; id: number; inputs: InputSummary[]; records: SummaryPack; view: SharedView | null; problems: string[]; cancelled: boolean; error?: string | null }
  | { type: 'batch'; id: number; inputs: InputSummary[]; records: SummaryPack; progress: LoadProgress }
  /** A load starts reading `inputs[at]`: if the worker crashes or hangs now, that is the input to blame. */
  | { type: 'reading'; id: number; at: number }
  | { type: 'filtered'; id: number; keys: Int32Array; total: number }
  | { type: 'cancelled'; id: number }
  | { type: 'ack'; id: number }
  | { type: 'report'; id: number; json: string; markdown: string }
  | { type: 'graph'; id: number; graph: GraphRender }
  /** Part of a large graph's nodes and edges, sent ahead of the 'graph' reply that completes it. */
  | { type: 'graph-part'; id: number; nodes: GraphRender['nodes']; edges: GraphRender['edges'] }
  | { type: 'folds'; id: number; folds: FoldView }
  | { type: 'shared'; id: number; fragment: string; bundle: Uint8Array | null; problems: string[]; redaction: InputRedaction[] | null }
  | { type: 'detail'; id: number; detail: RecordDetail | null }
  | { type: 'cleared'; id: number }
  | { type: 'keys'; id: number; records: SummaryPack }
  | { type: 'failed'; id: number; message: string };
