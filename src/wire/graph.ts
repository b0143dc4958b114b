// The graph as the page draws it: both graphs laid out in the worker, flattened to plain boxes and
// lines with what each node's face shows. The worker builds it (src/worker/graph-render.ts); the
// page only renders it. Plain data: it crosses to the page, a large one in parts (graph-parts.ts).
import type { FoldInfo, GraphEdge } from '../core/graph';
import type { SignatureStatus } from '../core/model';

export interface GraphRenderNode {
  id: string;
  kind: 'record' | 'stream' | 'ghost' | 'fold' | 'envelope';
  x: number;
  y: number;
  width: number;
  height: number;
  /** The record a click selects. */
  recordKey: number | null;
  /** Every record this node shows (a stream's chunks, a fold's members), for centring on selection. */
  recordKeys: number[];
  title: string;
  subtitle: string;
  detail: string;
  /** The whole id the face shows short (a record id, an envelope hash, the ref a ghost stands for), for tooltips and exports. */
  fullId: string | null;
  group: string | null;
  cycle: boolean;
  /** Red: invalid, tampered, a broken stream, a loop. */
  alarm: boolean;
  /** `note`: why a valid signature is not trusted, in a few words (the record list's badge says the same). */
  badges: { decoded: boolean; valid: boolean; signature: SignatureStatus; trusted: boolean; note: string | null } | null;
  /**
   * Marks of the log's deadlines on a record: an answer after its command's deadline (`late`), a
   * command whose deadline passed with no answer (`unanswered`); `words` is the finding's message.
   */
  timing: { mark: 'late' | 'unanswered'; words: string }[];
  /** Where the record is (its input and index), shown when other records share its id: the node alone would not tell them apart. */
  place: string | null;
  /** AgentDNA: hash and signature verdicts. */
  dna: { from: string; epoch: string; hashOk: boolean; signature: string; didMatch: boolean; duplicate: boolean } | null;
  /** A stream or fan-out that can be unfolded; the first chunk of an unfolded stream (it folds it back). */
  expandable: boolean;
  /**
   * On the first chunk of an unfolded stream: the stream (its id folds it back) with what its folded
   * node said (chunks and how it ended; its gap, duplicates and chunks after the end), else null.
   */
  stream?: { id: string; summary: string; detail: string } | null;
}

export interface GraphRenderEdge {
  id: string;
  from: string;
  to: string;
  via: GraphEdge['via'];
  count: number;
  note: string | null;
}

export interface GraphRender {
  nodes: GraphRenderNode[];
  edges: GraphRenderEdge[];
  folded: FoldInfo[];
  missing: number;
  cycles: number;
  streams: number;
  /** Time the worker spent building and laying out (ms). */
  ms: number;
}
