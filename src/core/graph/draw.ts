// Drawing the AGDX graph: the record-level graph (record-graph.ts, built once per load) with chunk
// streams folded into one node each and large fan-outs folded, edges re-targeted and de-duplicated
// with a count. A cheap step, redone for every Graph request and expand; it changes nothing of the
// record-level graph.
import { byKey, remap } from './edges';
import type { AgdxGraph, AgdxNode, DrawOptions, FoldInfo, FoldNode, GraphEdge, GraphGroup, GraphRecord, RecordGraph, RecordNode, StreamNode } from './model';

export const DEFAULT_FOLD_THRESHOLD = 50;

/** What the folding steps share: the drawn nodes by id, and where each folded node went. */
interface Drawing {
  graph: RecordGraph;
  drawn: Map<string, AgdxNode>;
  /** Stream and fold nodes, as they were made (some may be folded again). */
  added: AgdxNode[];
  /** Record-level id → the drawn id that shows it. */
  view: Map<string, string>;
  folded: FoldInfo[];
  edges: GraphEdge[];
}

export function drawAgdxGraph(graph: RecordGraph, options: DrawOptions = {}): AgdxGraph {
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
    recordLevel: graph,
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
