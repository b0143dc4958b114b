// The graph model: what the graph view draws and what report@1's `graph` section says. Pure data,
// no DOM. Two graphs share these shapes: the AGDX causal graph (records, chunk streams, ghosts,
// folds) and the AgentDNA parent_envelope DAG.
//
// Direction: every edge points from the child (the later record) to its parent (what it was
// caused by, answers or continues), as report.md's `{ from: <child>, to: <parent> }` does.
import type { Usage } from '../agdx/envelope';
import type { Finding } from '../verdict';

/** The causal links an AGDX envelope names itself. */
export type CausalVia = 'cause' | 'cause_at';

/**
 * Why an edge exists:
 * - `cause` / `cause_at`: the envelope names its causal parent by record id / log position;
 * - `correlation`: a response, an error, a status task update or a chunk stream pairs with its command;
 * - `sequence`: a chunk continues the previous chunk of its stream (only drawn for an unfolded stream),
 *   or an error carrying a stream's channel ends it;
 * - `parent_envelope`: an AgentDNA envelope names a parent envelope (by hash);
 * - `lineage`: a conversation names the conversation that spawned it (laser-sdk 0.7's `parent`),
 *   drawn between one record of each (lineage.ts).
 */
export type EdgeVia = CausalVia | 'correlation' | 'sequence' | 'parent_envelope' | 'lineage';

/** What an edge kind is to a person and to the report. */
export interface EdgeKind {
  /** The legend's words for it. */
  label: string;
  /** Its stroke in the view and the exports (CSS colour; SVG dash array, empty for a solid line). */
  color: string;
  dash: string;
  /**
   * Where report@1's `graph` lists it (docs/report.md): `edges` (causal), `correlations`, or
   * nowhere (stream order follows from `streams`; lineage from the `sessions` section's parent).
   */
  report: 'edges' | 'correlations' | null;
}

/** Every edge kind, in the legend's order: the one table the view, the exports and the report read. */
export const EDGE_KINDS: Readonly<Record<EdgeVia, EdgeKind>> = {
  cause: { label: 'cause (record id)', color: '#334155', dash: '', report: 'edges' },
  cause_at: { label: 'cause_at (log position)', color: '#334155', dash: '6 4', report: 'edges' },
  correlation: { label: 'correlation pair', color: '#0d9488', dash: '2 3', report: 'correlations' },
  sequence: { label: 'stream order', color: '#94a3b8', dash: '', report: null },
  parent_envelope: { label: 'AgentDNA parent', color: '#7c3aed', dash: '', report: 'edges' },
  lineage: { label: 'spawned by', color: '#c2410c', dash: '8 3 2 3', report: null },
};

/** The edge kinds in the legend's order. */
export const EDGE_VIAS = Object.keys(EDGE_KINDS) as EdgeVia[];

export interface GraphEdge {
  /** Unique within its graph: `<from>><to>:<via>`. */
  id: string;
  /** The child. */
  from: string;
  /** The parent. */
  to: string;
  via: EdgeVia;
  /** How many record-level edges this drawn edge stands for (more than 1 once folded). */
  count: number;
  /** What a person should know about how the edge was resolved, or null. */
  note: string | null;
}

/** A parent named by a child and absent from the input. */
export interface MissingParent {
  /** The child's node id (record level). */
  from: string;
  /** The absent parent as the child names it: a Crockford record id, a log position, an AgentDNA hash. */
  ref: string;
  via: CausalVia | 'parent_envelope';
}

export type StreamTerminal = 'last' | 'error' | 'gap' | 'abandoned' | null;

/** One chunk stream after reassembly (agdx-v1.md "Chunk streams"). */
export interface ReassembledStream {
  /** The stream node's id: `stream:<conversation>:<channel>:<correlation or ->`. */
  id: string;
  conversation: string;
  // --- report@1 fields (report.md `graph.streams`) ---
  correlation: string | null;
  channel: string;
  /** Chunk records of the stream, everything received (duplicates and dropped ones included). */
  chunks: number;
  duplicates: number;
  /** Chunks and errors fed (in log order) after the stream ended; the chunk that reveals a gap ends it and is not one of them. */
  after_terminal: number;
  /** The sequence numbers missing at the first gap (at most MAX_GAP_LIST of them; see note). */
  gaps: number[];
  terminal: StreamTerminal;
  // --- extras ---
  /** The opening chunk's operation: chat, reasoning or tool_args (null without an opening chunk). */
  purpose: string | null;
  /** The reassembled text of a chat or reasoning stream (bodies in sequence order, UTF-8), else null. */
  text: string | null;
  /** The terminal chunk's finish_reason as written (null for a synthetic terminal: gap, abandoned). */
  finish_reason: string | null;
  /** Whole-stream usage, from the terminal record. */
  usage: Usage | null;
  /** The opening chunk's abandonment deadline (epoch µs). */
  deadline_micros: bigint | null;
  /** Chunks applied (sequence 0, 1, 2, … as they came in log order; record indices). */
  applied: number[];
  /** Every chunk record of the stream, in log order (record indices). */
  recordIndices: number[];
  /** Errors carrying the stream's channel, in log order (record indices). */
  errorIndices: number[];
  /** The record that ended the stream (the last chunk or the error), or null. */
  terminalIndex: number | null;
  /** Chunks counted as duplicates (record indices, log order): what an unfolded stream marks on them. */
  duplicateIndices: number[];
  /** Chunks and errors fed after the stream ended (record indices, log order). */
  lateIndices: number[];
  /** The chunk whose sequence revealed the gap (it ends the stream, neither applied nor late), or null. */
  gapIndex: number | null;
  /** Chunks without a sequence (neither applied nor counted), record indices in log order. */
  unsequencedIndices: number[];
  /** Why the terminal is what it is when that is not obvious (deadline checks, truncations). */
  note: string | null;
}

export type NodeKind = 'record' | 'stream' | 'ghost' | 'fold' | 'envelope';

interface NodeBase {
  id: string;
  kind: NodeKind;
  /** One line for the node's face. */
  label: string;
  /** The AGDX conversation (Crockford) the node belongs to; null for AgentDNA nodes. */
  group: string | null;
  /**
   * A stable ordering key (compare as strings): log time, then input, then position. The layout
   * orders nodes by it, so adding a record does not reshuffle the others.
   */
  sortKey: string;
  /** The record the UI selects for this node (a stream's opening chunk, a fold's first member), or null. */
  recordIndex: number | null;
  /** Member of a cycle of cause / cause_at (or parent_envelope) edges. */
  cycle: boolean;
}

/**
 * An AGDX record that decoded with an envelope, as the record-level graph holds it: what its node
 * shows, whatever the drawing folds. Built once per load; drawing never changes it.
 */
export interface GraphRecord extends Omit<NodeBase, 'kind' | 'group'> {
  recordIndex: number;
  /** The envelope's record id (Crockford), or null (a chunk may have none). */
  recordId: string | null;
  /** AGDX kind: command, response, event, chunk, status, error. */
  recordKind: string;
  conversation: string;
  correlation: string | null;
  channel: string | null;
  /** A chunk's place in its stream (what an unfolded stream shows on each chunk), else null. */
  sequence: bigint | null;
  source: string;
  target: string | null;
  /** Another record of the input carries the same record id (the node id is then disambiguated). */
  duplicateId: boolean;
  /** Bridge ids repeated in metadata `bridge_hops` (a routing loop), or null. */
  loop: readonly string[] | null;
  /** The graph's findings about this record (also listed in the graph's findings). */
  findings: Finding[];
}

/** A record as drawn: its record-level node with what the drawing adds. */
export interface RecordNode extends GraphRecord {
  kind: 'record';
  group: string | null;
  /** The record's verdict (its own findings and the log's): drawn red when not valid. */
  valid: boolean;
  /** The id of the chunk stream this record belongs to when it is shown unfolded, else null. */
  stream: string | null;
}

/** A chunk stream folded into one node. */
export interface StreamNode extends NodeBase {
  kind: 'stream';
  recordIndex: number;
  stream: ReassembledStream;
}

/** A parent named by some child but absent from the input. */
export interface GhostNode extends NodeBase {
  kind: 'ghost';
  recordIndex: null;
  /**
   * How children name it (one ghost may be named by record id and by log position); `parent`: a
   * conversation not in the load that others name as their parent (ref: its Crockford id).
   */
  refs: { via: CausalVia | 'parent_envelope' | 'parent'; ref: string }[];
  note: string | null;
}

/** A large fan-out (children of one kind under one parent) folded into one node. */
export interface FoldNode extends NodeBase {
  kind: 'fold';
  /** The parent whose children were folded. */
  parent: string;
  /** The kind of the folded children (an AGDX kind, or `stream`). */
  childKind: string;
  count: number;
  /** The folded nodes (drawn-node ids: record nodes or stream nodes). */
  members: string[];
  recordIndices: number[];
  /** Members that need a look: invalid, in a cycle, with a graph finding, or a stream that did not end with last. */
  attention: number;
}

/** An AgentDNA envelope. */
export interface EnvelopeNode extends NodeBase {
  kind: 'envelope';
  recordIndex: number;
  hash: string;
  from: string;
  to: string | null;
  epoch: number | null;
  hashOk: boolean;
  signature: string;
  didMatch: boolean;
  /** Where in the document (the first occurrence). */
  path: string;
  /** Every place this same envelope occurs (fan-in repeats a parent). */
  occurrences: { recordIndex: number; path: string }[];
  /** Drawn red: the content does not match its hash, or the signature is not valid. */
  tampered: boolean;
  /** A different envelope claims the same hash as another node. */
  duplicate: boolean;
}

export type AgdxNode = RecordNode | StreamNode | GhostNode | FoldNode;
export type AgentDnaNode = EnvelopeNode | GhostNode;
export type GraphNode = AgdxNode | EnvelopeNode;

/** A graph finding, to be added to the record's findings by whoever owns the records. */
export interface GraphFinding {
  recordIndex: number;
  finding: Finding;
}

/** What folding hid, so the UI can say it and offer to unfold (pass the id in `expanded`). */
export interface FoldInfo {
  /** The stream or fold node's id. */
  id: string;
  kind: 'stream' | 'fan-out';
  /** Record-level node ids (streams), or drawn-node ids (fan-outs: records or streams). */
  members: string[];
  count: number;
  /** For a fan-out: the parent and the children's kind. */
  parent: string | null;
  childKind: string | null;
}

/**
 * Which conversation spawned which (laser-sdk 0.7's `parent`), for drawing only: not in report@1's
 * `graph`, and left out of the layered layout (a conversation's records keep their places whether
 * its parent is loaded or not).
 */
export interface ConversationLineage {
  /** One per (child conversation, parent conversation) pair, via `lineage`: from a record of the child to one of the parent or its ghost. */
  edges: GraphEdge[];
  /** Parent conversations no record of the load belongs to, one ghost each (refs via `parent`). */
  ghosts: GhostNode[];
}

/** A conversation. */
export interface GraphGroup {
  id: string;
  /** Drawn nodes in the group. */
  nodes: number;
}

export interface AgdxGraphOptions {
  /** Fold each chunk stream into one node (default true). */
  foldStreams?: boolean;
  /** Ids of stream and fold nodes to show unfolded. */
  expanded?: ReadonlySet<string>;
  /** A parent with more children of one kind than this has them folded (default 50). */
  foldThreshold?: number;
}

/** What drawing needs besides the record-level graph. */
export interface DrawOptions extends AgdxGraphOptions {
  /** A record's validity (its own findings and the log's); every record counts as valid without it. */
  valid?: (recordIndex: number) => boolean;
}

/** The AGDX graph as drawn: the record-level graph (record-graph.ts) with streams and large fan-outs folded. */
export interface AgdxGraph {
  kind: 'agdx';
  /** The nodes as drawn (after folding), ordered by sortKey. */
  nodes: AgdxNode[];
  /** The edges as drawn (after folding, de-duplicated with a count). */
  edges: GraphEdge[];
  /** What was folded. */
  folded: FoldInfo[];
  groups: GraphGroup[];
  /** Record index → the drawn node that shows it (its own node, a stream node or a fold node). */
  nodeOfRecord: Map<number, string>;
  /** The record-level lineage re-targeted to the drawn nodes (kept out of `nodes` and `edges`, which the layout lays out). */
  lineage: ConversationLineage;
  // The record-level graph's, for convenience.
  missing: MissingParent[];
  cycles: string[][];
  streams: ReassembledStream[];
  findings: GraphFinding[];
}

/** One AgentDNA envelope as the workflow analysis concluded it. */
export interface AgentDnaNodeInput {
  recordIndex: number;
  hash: string;
  from: string;
  to: string | null;
  epoch: number | null;
  /** Claimed parent hashes. */
  parents: string[];
  hashOk: boolean;
  signature: string;
  didMatch: boolean;
  /** Where in the document. */
  path: string;
  /**
   * Optional identity of the signed content (e.g. EnvelopeVerdict.identity): two inputs with the
   * same hash and identity are one envelope. Without it, the visible fields are compared.
   */
  identity?: string;
}

export interface AgentDnaGraph {
  kind: 'agentdna';
  nodes: AgentDnaNode[];
  edges: GraphEdge[];
  missing: MissingParent[];
  cycles: string[][];
}

/** A node box for the renderer: top-left corner and size, in pixels. */
export interface NodeBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface LayoutOptions {
  /** Node width (default 220). */
  nodeWidth?: number;
  /** Node height (default 72). */
  nodeHeight?: number;
  /** Horizontal space between layers (default 80). */
  rankGap?: number;
  /** Vertical space between rows (default 24). */
  rowGap?: number;
  /** Vertical space between unconnected parts (default 48). */
  componentGap?: number;
}

/** What the layout needs of a graph: both graphs (and any filtered view of them) fit. */
export interface LayoutInput {
  nodes: readonly { id: string; sortKey: string }[];
  edges: readonly { from: string; to: string }[];
}
