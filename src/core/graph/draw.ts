// Drawing the AGDX graph: the record-level graph (record-graph.ts, built once per load, in numbers)
// made into a node per record, then chunk streams folded into one node each and large fan-outs
// folded, edges re-targeted and de-duplicated with a count. A cheap step, redone for every Graph
// request and expand; it changes nothing of the record-level graph.
import type { LogEntry } from '../log/entry';
import type { Finding } from '../verdict';
import { byKey, remap } from './edges';
import { conversationLineage } from './lineage';
import type {
  AgdxGraph,
  AgdxNode,
  ConversationLineage,
  DrawOptions,
  FoldInfo,
  FoldNode,
  GhostNode,
  GraphEdge,
  GraphFinding,
  GraphGroup,
  GraphRecord,
  MissingParent,
  ReassembledStream,
  RecordNode,
  StreamNode,
} from './model';
import { type CompactRecordGraph, DUPLICATE_ID, IN_CYCLE, nodeId, RECORD_EDGE_VIAS } from './record-graph';

export const DEFAULT_FOLD_THRESHOLD = 50;

/** The record-level graph with a node per record and nothing folded: what drawing starts from. */
interface RecordLevel {
  /** One per record with an envelope, in record order. */
  records: GraphRecord[];
  /** Parents named by some child and absent from the load. */
  ghosts: readonly GhostNode[];
  /** Ids of the records and ghosts by sortKey (ties: records, in record order, then ghosts): the order drawing keeps. */
  order: string[];
  /** Record-level edges (ghosts included as targets), de-duplicated with a count. */
  edges: GraphEdge[];
  missing: MissingParent[];
  /** Cycles of cause / cause_at edges, each the record-level node ids in sortKey order. */
  cycles: string[][];
  streams: ReassembledStream[];
  /** By record index, ascending. */
  findings: GraphFinding[];
  /** Record index → record-level node id. */
  ids: Map<number, string>;
  /** Parent → child conversations (not in `edges`: the report does not list them). */
  lineage: ConversationLineage;
}

/** The record-level nodes of a compact graph built from these entries. */
function recordLevel(g: CompactRecordGraph, list: readonly LogEntry[]): RecordLevel {
  const ids = new Array<string>(g.records + g.ghosts.length);
  for (let k = 0; k < ids.length; k++) ids[k] = nodeId(g, k);
  const byRecord = new Map<number, Finding[]>();
  for (const { recordIndex, finding: f } of g.findings) {
    const fs = byRecord.get(recordIndex);
    if (fs) fs.push(f);
    else byRecord.set(recordIndex, [f]);
  }
  const records: GraphRecord[] = list.map((e, k) => ({
    id: ids[k],
    // Joined: one flat string per node, not a chain of concatenations.
    label: [e.kind, e.operation ? ` ${e.operation}` : '', ' ', e.source, e.target ? ` → ${e.target}` : ''].join(''),
    sortKey: e.sortKey,
    recordIndex: e.record,
    cycle: (g.flags[k] & IN_CYCLE) !== 0,
    recordId: e.recordId,
    recordKind: e.kind,
    conversation: e.conversation,
    correlation: e.correlation,
    channel: e.channel,
    sequence: e.sequence,
    source: e.source,
    target: e.target,
    duplicateId: (g.flags[k] & DUPLICATE_ID) !== 0,
    loop: e.bridgeLoop,
    findings: byRecord.get(e.record) ?? [],
  }));
  const edges: GraphEdge[] = [];
  const { notes } = g.edges;
  for (let e = 0; e < g.edges.length; e++) {
    const f = ids[g.edges.from(e)];
    const t = ids[g.edges.to(e)];
    const v = RECORD_EDGE_VIAS[g.edges.via(e)];
    edges.push({ id: [f, '>', t, ':', v].join(''), from: f, to: t, via: v, count: g.edges.count(e), note: notes.get(e) ?? null });
  }
  return {
    records,
    ghosts: g.ghosts,
    order: [...records, ...g.ghosts].sort(byKey).map((n) => n.id),
    edges,
    missing: g.missing.map((m) => ({ from: ids[m.from], ref: m.ref, via: m.via })),
    cycles: g.cycles.map((c) => c.map((k) => ids[k])),
    streams: g.streams,
    findings: g.findings,
    ids: new Map(records.map((r) => [r.recordIndex, r.id])),
    // Here, not in the compact graph: only drawing needs it (the report, written from the compact graph, has none).
    lineage: conversationLineage(list, ids),
  };
}

/** What the folding steps share: the drawn nodes by id, and where each folded node went. */
interface Drawing {
  graph: RecordLevel;
  drawn: Map<string, AgdxNode>;
  /** Stream and fold nodes, as they were made (some may be folded again). */
  added: AgdxNode[];
  /** Record-level id → the drawn id that shows it. */
  view: Map<string, string>;
  folded: FoldInfo[];
  edges: GraphEdge[];
}

/** The record-level graph built from `entries` (the log's facts'), drawn. */
export function drawAgdxGraph(compact: CompactRecordGraph, entries: readonly LogEntry[], options: DrawOptions = {}): AgdxGraph {
  const graph = recordLevel(compact, entries);
  const valid = options.valid ?? (() => true);
  const d: Drawing = { graph, drawn: new Map(), added: [], view: new Map(), folded: [], edges: [] };
  for (const r of graph.records) d.drawn.set(r.id, recordNode(r, valid(r.recordIndex)));
  for (const g of graph.ghosts) d.drawn.set(g.id, g);
  foldStreams(d, options.foldStreams ?? true, options.expanded ?? new Set());
  foldFanOuts(d, options.expanded ?? new Set(), options.foldThreshold ?? DEFAULT_FOLD_THRESHOLD);

  const nodes = inOrder(d);
  const nodeOfRecord = new Map<number, string>();
  for (const r of graph.records) nodeOfRecord.set(r.recordIndex, d.view.get(r.id) ?? r.id);
  const groupCount = new Map<string, number>();
  for (const n of nodes) if (n.group !== null) groupCount.set(n.group, (groupCount.get(n.group) ?? 0) + 1);
  const groups: GraphGroup[] = [...groupCount].map(([id, count]) => ({ id, nodes: count }));
  return {
    kind: 'agdx',
    nodes,
    edges: d.edges,
    folded: d.folded,
    groups,
    nodeOfRecord,
    // After both foldings `view` takes each record to the node that shows it.
    lineage: { edges: remap(graph.lineage.edges, d.view), ghosts: graph.lineage.ghosts },
    missing: graph.missing,
    cycles: graph.cycles,
    streams: graph.streams,
    findings: graph.findings,
  };
}

/** A record's node as drawn: a new object (drawing sets `stream`), its record-level node unchanged. */
function recordNode(r: GraphRecord, valid: boolean): RecordNode {
  return {
    id: r.id,
    kind: 'record',
    label: r.label,
    group: r.conversation,
    sortKey: r.sortKey,
    recordIndex: r.recordIndex,
    cycle: r.cycle,
    recordId: r.recordId,
    recordKind: r.recordKind,
    conversation: r.conversation,
    correlation: r.correlation,
    channel: r.channel,
    sequence: r.sequence,
    source: r.source,
    target: r.target,
    valid,
    duplicateId: r.duplicateId,
    stream: null,
    loop: r.loop,
    findings: r.findings,
  };
}

/**
 * The drawn nodes by sortKey, ties in the order they were made (records, ghosts, then streams and
 * folds): the record-level nodes come sorted from the build, so only the few nodes drawing made
 * are sorted here and merged in.
 */
function inOrder(d: Drawing): AgdxNode[] {
  const base: AgdxNode[] = [];
  for (const id of d.graph.order) {
    const n = d.drawn.get(id);
    if (n) base.push(n);
  }
  const added = d.added.filter((n) => d.drawn.get(n.id) === n).sort(byKey);
  if (added.length === 0) return base;
  const out: AgdxNode[] = [];
  let j = 0;
  for (const n of base) {
    while (j < added.length && added[j].sortKey < n.sortKey) out.push(added[j++]);
    out.push(n);
  }
  while (j < added.length) out.push(added[j++]);
  return out;
}

/** Each chunk stream as one node (unless unfolding is asked for it); unfolded, its chunks say which stream they belong to. */
function foldStreams(d: Drawing, fold: boolean, expanded: ReadonlySet<string>): void {
  const { graph, drawn, view } = d;
  const inCycle = new Set(graph.cycles.flat());
  const sortKeyOf = new Map(graph.records.map((r) => [r.id, r.sortKey]));
  for (const s of graph.streams) {
    if (s.recordIndices.length === 0) continue;
    const members = s.recordIndices.map((i) => graph.ids.get(i)!);
    if (!fold || expanded.has(s.id)) {
      for (const m of members) (drawn.get(m) as RecordNode).stream = s.id;
      continue;
    }
    let first = members[0];
    for (const m of members) if (sortKeyOf.get(m)! < sortKeyOf.get(first)!) first = m;
    const node: StreamNode = {
      id: s.id,
      kind: 'stream',
      label: `${s.purpose ?? 'chunk'} stream · ${s.chunks} chunk${s.chunks === 1 ? '' : 's'} · ${s.terminal ?? 'open'}`,
      group: s.conversation,
      sortKey: sortKeyOf.get(first)!,
      recordIndex: s.applied[0] ?? (drawn.get(first) as RecordNode).recordIndex,
      cycle: members.some((m) => inCycle.has(m)),
      stream: s,
    };
    for (const m of members) {
      drawn.delete(m);
      view.set(m, s.id);
    }
    drawn.set(s.id, node);
    d.added.push(node);
    d.folded.push({ id: s.id, kind: 'stream', members, count: members.length, parent: null, childKind: null });
  }
  d.edges = remap(graph.edges, view);
}

/** A parent with more than `threshold` children of one kind has them folded into one node (unless unfolding is asked for it). */
function foldFanOuts(d: Drawing, expanded: ReadonlySet<string>, threshold: number): void {
  const { drawn, view } = d;
  const kindOf = (n: AgdxNode) => (n.kind === 'record' ? n.recordKind : n.kind);
  const childrenOf = new Map<string, Map<string, Set<string>>>();
  for (const e of d.edges) {
    if (e.via === 'sequence') continue;
    const child = drawn.get(e.from)!;
    let byKind = childrenOf.get(e.to);
    if (!byKind) childrenOf.set(e.to, (byKind = new Map()));
    const k = kindOf(child);
    const set = byKind.get(k);
    if (!set) byKind.set(k, new Set([child.id]));
    else set.add(child.id);
  }
  const foldView = new Map<string, string>();
  const parents = [...childrenOf.keys()].map((id) => drawn.get(id)!).sort(byKey);
  for (const p of parents) {
    const byKind = childrenOf.get(p.id)!;
    for (const k of [...byKind.keys()].sort()) {
      const kids = [...byKind.get(k)!].filter((c) => !foldView.has(c) && c !== p.id);
      const foldId = `fold:${p.id}:${k}`;
      if (kids.length <= threshold || expanded.has(foldId)) continue;
      const members = kids.map((c) => drawn.get(c)!).sort(byKey);
      const recordIndices = members.flatMap((m) => (m.kind === 'stream' ? m.stream.recordIndices : m.recordIndex !== null ? [m.recordIndex] : []));
      const attention = members.filter(
        (m) =>
          m.cycle || (m.kind === 'record' && (!m.valid || m.findings.length > 0 || m.loop !== null)) || (m.kind === 'stream' && m.stream.terminal !== 'last'),
      ).length;
      const node: FoldNode = {
        id: foldId,
        kind: 'fold',
        label: `${members.length} ${k} ${k === 'stream' ? 'streams' : 'records'} folded`,
        group: members[0].group,
        sortKey: members[0].sortKey,
        recordIndex: members[0].recordIndex,
        cycle: members.some((m) => m.cycle),
        parent: p.id,
        childKind: k,
        count: members.length,
        members: members.map((m) => m.id),
        recordIndices,
        attention,
      };
      for (const m of members) {
        foldView.set(m.id, foldId);
        drawn.delete(m.id);
      }
      drawn.set(foldId, node);
      d.added.push(node);
      d.folded.push({ id: foldId, kind: 'fan-out', members: node.members, count: node.count, parent: p.id, childKind: k });
    }
  }
  if (foldView.size > 0) {
    d.edges = remap(d.edges, foldView);
    for (const [m, s] of view) if (foldView.has(s)) view.set(m, foldView.get(s)!);
    for (const [m, f] of foldView) if (!view.has(m)) view.set(m, f);
  }
}
