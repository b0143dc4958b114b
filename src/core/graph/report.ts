// report@1's `graph` section (report.md) from the graph model.
import type { Usage } from '../agdx/envelope';
import { StreamedArray } from '../report-json';
import { EDGE_KINDS, EDGE_VIAS, type AgentDnaGraph, type ReassembledStream, type StreamTerminal } from './model';
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

/** ReportGraph with its edges and correlations made one at a time, as they are written (a large log has millions). */
export interface StreamedReportGraph extends Omit<ReportGraph, 'edges' | 'correlations'> {
  edges: StreamedArray<ReportGraph['edges'][number]>;
  correlations: StreamedArray<ReportGraph['correlations'][number]>;
}

/** Node ids in their display form: an AgentDNA envelope is named by its hash, as its record is. */
const displayId = (s: string) => (s.startsWith('dna:') ? s.slice(4) : s);

/**
 * The report's graph, from the compact record-level graph and the workflows' AgentDNA graph
 * (folding is a view: the report does not depend on it). Node ids: a record's Crockford id
 * (disambiguated as `<id>@<input>:<index>` when several records share it), `rec:<input>:<index>`
 * for a record without an id, an AgentDNA envelope's hash (`<hash>~2`… for a different envelope
 * claiming a hash already taken), and `ghost:…` for an absent parent; correlations keep the node
 * ids as they are. The records' edges are named as they are written, never all at once.
 */
export function toReportGraph(records: CompactRecordGraph, workflows: AgentDnaGraph): StreamedReportGraph {
  const { edges } = records;
  const id = (node: number) => displayId(nodeId(records, node));
  const envelopes = workflows.nodes.filter((n) => n.kind === 'envelope').length;
  // An edge to an absent parent is reported in `missing`, not in `edges`.
  const ghostIds = new Set<string>();
  for (const n of workflows.nodes) if (n.kind === 'ghost') ghostIds.add(n.id);
  const workflowEdges = workflows.edges.filter((e) => !ghostIds.has(e.to));
  function* recordEdges(causal: boolean) {
    const name = causal ? id : (node: number) => nodeId(records, node);
    for (let e = 0; e < edges.length; e++) {
      const to = edges.to(e);
      if (to >= records.records) continue;
      const via = RECORD_EDGE_VIAS[edges.via(e)];
      if (causal ? CAUSAL.has(via) : via === 'correlation') yield { from: name(edges.from(e)), to: name(to), via };
    }
  }
  function* all() {
    yield* recordEdges(true) as Generator<ReportGraph['edges'][number]>;
    for (const e of workflowEdges) if (CAUSAL.has(e.via)) yield { from: displayId(e.from), to: displayId(e.to), via: e.via as ReportEdgeVia };
  }
  function* correlations() {
    yield* recordEdges(false) as Generator<ReportGraph['correlations'][number]>;
    for (const e of workflowEdges) if (e.via === 'correlation') yield { from: e.from, to: e.to, via: 'correlation' as const };
  }
  const missing: ReportGraph['missing'] = records.missing.map((m) => ({ from: id(m.from), ref: m.ref, via: m.via as string }));
  // One by one: a workflow with 125,000 parents has as many, and spread into push() they overflow the stack.
  for (const m of workflows.missing) missing.push({ from: displayId(m.from), ref: m.ref, via: m.via });
  return {
    nodes: records.records + envelopes,
    edges: new StreamedArray(all()),
    missing,
    cycles: [...records.cycles.map((c) => c.map(id)), ...workflows.cycles.map((c) => c.map(displayId))],
    streams: records.streams.map(reportStream),
    correlations: new StreamedArray(correlations()),
  };
}
