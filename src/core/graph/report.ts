// report@1's `graph` section (report.md) from the graph model.
import type { Usage } from '../agdx/envelope';
import { StreamedArray } from '../report-json';
import {
  EDGE_KINDS,
  EDGE_VIAS,
  type AgdxGraph,
  type AgentDnaGraph,
  type GraphEdge,
  type ReassembledStream,
  type RecordGraph,
  type StreamTerminal,
} from './model';
import { nodeId, RECORD_EDGE_VIAS, type CompactRecordGraph } from './record-graph';

export type ReportEdgeVia = 'cause' | 'cause_at' | 'parent_envelope';

export interface ReportStream {
  correlation: string | null;
  channel: string;
  chunks: number;
  duplicates: number;
  after_terminal: number;
  gaps: number[];
  terminal: StreamTerminal;
  // --- added fields (report@1 allows them) ---
  conversation: string;
  purpose: string | null;
  finish_reason: string | null;
  /** Token counts as numbers (as strings beyond 2^53). */
  usage: Record<string, number | string> | null;
  note: string | null;
}

export interface ReportGraph {
  /** Records that are nodes: every AGDX record with an envelope (each chunk counts) and every distinct AgentDNA envelope. Ghosts, stream nodes and fold nodes are not counted. */
  nodes: number;
  /** Causal edges between present records only (absent parents are in `missing`): cause, cause_at, parent_envelope, the vocabulary report.md documents. */
  edges: { from: string; to: string; via: ReportEdgeVia }[];
  missing: { from: string; ref: string; via: string }[];
  cycles: string[][];
  streams: ReportStream[];
  /**
   * Added field: the correlation pairs (response, error, status task update or chunk stream's
   * first chunk → its command). Kept out of `edges` so that list stays causal and its `via`
   * vocabulary stays the one report.md documents.
   */
  correlations: { from: string; to: string; via: 'correlation' }[];
}

/** The kinds `edges` lists (EDGE_KINDS); lineage is listed nowhere in the graph section. */
const CAUSAL = new Set<string>(EDGE_VIAS.filter((v) => EDGE_KINDS[v].report === 'edges'));

function jsonUsage(u: Usage | null): Record<string, number | string> | null {
  if (!u) return null;
  const out: Record<string, number | string> = {};
  for (const [k, v] of Object.entries(u)) {
    if (v === undefined) continue;
    out[k] = typeof v === 'bigint' ? (v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString()) : v;
  }
  return out;
}

/** A chunk stream as the report lists it. */
function reportStream(s: ReassembledStream): ReportStream {
  return {
    correlation: s.correlation,
    channel: s.channel,
    chunks: s.chunks,
    duplicates: s.duplicates,
    after_terminal: s.after_terminal,
    gaps: s.gaps,
    terminal: s.terminal,
    conversation: s.conversation,
    purpose: s.purpose,
    finish_reason: s.finish_reason,
    usage: jsonUsage(s.usage),
    note: s.note,
  };
}

/**
 * The report's graph, from the record-level graphs (folding is a view: the report does not depend
 * on it). Ids are node ids: a record's Crockford id (disambiguated as `<id>@<input>:<index>` when
 * several records share it), `rec:<input>:<index>` for a record without an id, `dna:<hash>` for an
 * AgentDNA envelope (`dna:<hash>~2`… for a different envelope claiming a hash already taken), and
 * `ghost:…` for an absent parent.
 */
export function toReportGraph(...graphs: (RecordGraph | AgdxGraph | AgentDnaGraph | null | undefined)[]): ReportGraph {
  const out: ReportGraph = { nodes: 0, edges: [], missing: [], cycles: [], streams: [], correlations: [] };
  for (const drawnOrNot of graphs) {
    if (!drawnOrNot) continue;
    // A drawn graph is reported as the record-level graph it was drawn from.
    const g = drawnOrNot.kind === 'agdx' ? drawnOrNot.recordLevel : drawnOrNot;
    let edges: readonly GraphEdge[];
    let ghosts: readonly { kind: string; id: string }[];
    if (g.kind === 'agdx-records') {
      out.nodes += g.records.length;
      edges = g.edges;
      ghosts = g.ghosts;
      for (const s of g.streams) out.streams.push(reportStream(s));
    } else {
      out.nodes += g.nodes.filter((n) => n.kind === 'envelope').length;
      edges = g.edges;
      ghosts = g.nodes;
    }
    // An edge to an absent parent is reported in `missing`, not in `edges`.
    const ghostIds = new Set<string>();
    for (const n of ghosts) if (n.kind === 'ghost') ghostIds.add(n.id);
    for (const e of edges) {
      if (ghostIds.has(e.to)) continue;
      if (CAUSAL.has(e.via)) out.edges.push({ from: e.from, to: e.to, via: e.via as ReportEdgeVia });
      else if (e.via === 'correlation') out.correlations.push({ from: e.from, to: e.to, via: 'correlation' });
    }
    // One by one: a workflow with 125,000 parents has as many, and spread into push() they overflow the stack.
    for (const m of g.missing) out.missing.push({ from: m.from, ref: m.ref, via: m.via });
    for (const c of g.cycles) out.cycles.push([...c]);
  }
  return out;
}

/** ReportGraph with its edges and correlations made one at a time, as they are written (a large log has millions). */
export interface StreamedReportGraph extends Omit<ReportGraph, 'edges' | 'correlations'> {
  edges: StreamedArray<ReportGraph['edges'][number]>;
  correlations: StreamedArray<ReportGraph['correlations'][number]>;
}

/**
 * What toReportGraph(recordGraphOf(records), ...others) gives, its edges', missing parents' and
 * cycles' node ids through `display` (correlations left as they are),
 * from the compact record-level graph: its edges' ids made as they are written, never all at once.
 */
export function toStreamedReportGraph(records: CompactRecordGraph, others: ReportGraph, display: (id: string) => string): StreamedReportGraph {
  const { edges } = records;
  const id = (node: number) => display(nodeId(records, node));
  // As report.ts's withDisplayIds: edges, missing and cycles in display form; correlations as they are.
  function* recordEdges(causal: boolean) {
    const name = causal ? id : (node: number) => nodeId(records, node);
    for (let e = 0; e < edges.length; e++) {
      // An edge to an absent parent is reported in `missing`, not in `edges`.
      const to = edges.to(e);
      if (to >= records.records) continue;
      const via = RECORD_EDGE_VIAS[edges.via(e)];
      if (causal ? CAUSAL.has(via) : via === 'correlation') yield { from: name(edges.from(e)), to: name(to), via };
    }
  }
  function* all() {
    yield* recordEdges(true) as Generator<ReportGraph['edges'][number]>;
    for (const e of others.edges) yield { ...e, from: display(e.from), to: display(e.to) };
  }
  function* correlations() {
    yield* recordEdges(false) as Generator<ReportGraph['correlations'][number]>;
    yield* others.correlations;
  }
  return {
    nodes: records.records + others.nodes,
    edges: new StreamedArray(all()),
    missing: [
      ...records.missing.map((m) => ({ from: id(m.from), ref: m.ref, via: m.via as string })),
      ...others.missing.map((m) => ({ ...m, from: display(m.from) })),
    ],
    cycles: [...records.cycles.map((c) => c.map(id)), ...others.cycles.map((c) => c.map(display))],
    streams: [...records.streams.map(reportStream), ...others.streams],
    correlations: new StreamedArray(correlations()),
  };
}
