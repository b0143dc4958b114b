// The AGDX causal graph: one node per record that decoded with an envelope, edges from each child
// to the parent its cause (record id) and cause_at (log position) name, correlation pairs, chunk
// streams folded into one node, ghosts for absent parents, cycles, bridge loops, folded fan-outs.
//
// Built in two stages: the record-level graph (one node per record, nothing folded: what the
// report describes), then the drawn graph (streams and large fan-outs folded, edges re-targeted
// and de-duplicated with a count).
import type { Envelope } from '../agdx/envelope';
import type { Finding } from '../model';
import { finding, type FindingRuleId } from '../rules';
import type { RecordResult } from '../records';
import { crockford, describeCauseAt, readCauseAt, recordSortKeys, repeatedBridgeHops, short, spanOfPath, type CauseAt } from './keys';
import type {
  AgdxGraph,
  AgdxGraphOptions,
  AgdxNode,
  CausalVia,
  EdgeVia,
  FoldInfo,
  FoldNode,
  GhostNode,
  GraphEdge,
  GraphFinding,
  GraphGroup,
  MissingParent,
  RecordNode,
  ReassembledStream,
  StreamNode,
} from './model';
import { findCycles } from './scc';
import { reassembleStreams } from './streams';

export const DEFAULT_FOLD_THRESHOLD = 50;

interface Entry {
  index: number;
  r: RecordResult;
  env: Envelope;
  sortKey: string;
  /** Record-level node id. */
  id: string;
  recordId: string | null;
  conversation: string;
  correlation: string | null;
}

const byKey = <T extends { sortKey: string }>(a: T, b: T) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0);

function positionOf(r: RecordResult): string | null {
  return r.logPosition ? `${r.logPosition.partition}:${r.logPosition.offset}` : null;
}

/**
 * The best of several records that carry the id (or position) a child names: not the child itself,
 * then the same conversation, then not found inside a dead-letter capsule, then the nearest one
 * before the child in the log, else the nearest one after it.
 */
function pick(candidates: readonly Entry[], child: Entry, what: string, noun = 'other records'): { entry: Entry | null; note: string | null } {
  // One pass for the best candidate (not a sort per child: many records may share one id).
  let best: Entry | null = null;
  let count = 0;
  let self = false;
  for (const c of candidates) {
    if (c === child) {
      self = true;
      continue;
    }
    count++;
    if (best === null || before(c, best, child)) best = c;
  }
  if (best === null) return self ? { entry: child, note: `the record names itself by ${what}` } : { entry: null, note: null };
  if (count === 1) return { entry: best, note: null };
  const others = { length: count };
  const where = `${best.sortKey < child.sortKey ? 'nearest one before' : 'first one after'} this record${best.conversation === child.conversation ? ' in the same conversation' : ''}`;
  return { entry: best, note: `${others.length} ${noun} carry this ${what}; chose the ${where} (${best.id})` };
}

/** Whether `a` is a better pick than `b` for `child`: same conversation, not in a capsule, then nearest in the log. */
function before(a: Entry, b: Entry, child: Entry): boolean {
  const x0 = a.conversation === child.conversation ? 0 : 1;
  const y0 = b.conversation === child.conversation ? 0 : 1;
  if (x0 !== y0) return x0 < y0;
  const x1 = a.r.parent === null ? 0 : 1;
  const y1 = b.r.parent === null ? 0 : 1;
  if (x1 !== y1) return x1 < y1;
  const x2 = a.sortKey < child.sortKey ? 0 : 1;
  const y2 = b.sortKey < child.sortKey ? 0 : 1;
  if (x2 !== y2) return x2 < y2;
  // Before the child: the latest first; after it: the earliest first.
  return x2 === 0 ? byKey(a, b) > 0 : byKey(a, b) < 0;
}

function graphFinding(rule: FindingRuleId, path: string, message: string, r: RecordResult): Finding {
  return finding(rule, path, message, spanOfPath(r.tree, path), 'warning');
}

class EdgeSet {
  readonly list: GraphEdge[] = [];
  private readonly byId = new Map<string, GraphEdge>();
  add(from: string, to: string, via: EdgeVia, note: string | null = null, count = 1): void {
    const id = `${from}>${to}:${via}`;
    const e = this.byId.get(id);
    if (e) {
      e.count += count;
      if (note !== null && e.note === null) e.note = note;
      return;
    }
    const edge: GraphEdge = { id, from, to, via, count, note };
    this.byId.set(id, edge);
    this.list.push(edge);
  }
}

export function buildAgdxGraph(records: readonly RecordResult[], options: AgdxGraphOptions = {}): AgdxGraph {
  const foldStreams = options.foldStreams ?? true;
  const expanded = options.expanded ?? new Set<string>();
  const threshold = options.foldThreshold ?? DEFAULT_FOLD_THRESHOLD;
  const sortKeys = recordSortKeys(records);

  // --- Record-level nodes -------------------------------------------------------------------
  const entries: Entry[] = [];
  const byRecordId = new Map<string, Entry[]>();
  const byPosition = new Map<string, Entry[]>();
  records.forEach((r, index) => {
    const env = r.envelope;
    if (!env) return;
    const recordId = crockford(env.record);
    let id = `rec:${r.input}:${r.index}`;
    if (recordId !== null) {
      const same = byRecordId.get(recordId);
      id = same ? `${recordId}@${r.input}:${r.index}` : recordId;
    }
    const e: Entry = { index, r, env, sortKey: sortKeys[index], id, recordId, conversation: crockford(env.conversation)!, correlation: crockford(env.correlation) };
    entries.push(e);
    if (recordId !== null) {
      const list = byRecordId.get(recordId);
      if (list) list.push(e);
      else byRecordId.set(recordId, [e]);
    }
    const pos = positionOf(r);
    if (pos !== null) {
      const list = byPosition.get(pos);
      if (list) list.push(e);
      else byPosition.set(pos, [e]);
    }
  });
  const anyPosition = byPosition.size > 0;
  const entryById = new Map(entries.map((e) => [e.id, e]));
  const recordIds = new Map(entries.map((e) => [e.index, e.id]));

  const streams = reassembleStreams(records, sortKeys);

  const findings: GraphFinding[] = [];
  const recordNodes = new Map<string, RecordNode>();
  for (const e of entries) {
    const loop = repeatedBridgeHops(e.env.metadata);
    const node: RecordNode = {
      id: e.id,
      kind: 'record',
      label: e.r.summary || `${e.env.kind} ${e.env.source}`,
      group: e.conversation,
      sortKey: e.sortKey,
      recordIndex: e.index,
      cycle: false,
      recordId: e.recordId,
      recordKind: e.env.kind,
      conversation: e.conversation,
      correlation: e.correlation,
      channel: crockford(e.env.channel),
      source: e.env.source,
      target: e.env.target ?? null,
      valid: e.r.valid,
      duplicateId: e.recordId !== null && byRecordId.get(e.recordId)!.length > 1,
      stream: null,
      loop: loop.length > 0 ? loop : null,
      findings: [],
    };
    if (loop.length > 0) {
      const f = graphFinding(
        'agdx/graph/bridge-loop',
        'metadata.bridge_hops',
        `bridge_hops lists ${loop.map((h) => JSON.stringify(h)).join(', ')} more than once: the message went round a loop of bridges (a bridge drops a message whose list already holds its id)`,
        e.r,
      );
      node.findings.push(f);
      findings.push({ recordIndex: e.index, finding: f });
    }
    recordNodes.set(e.id, node);
  }

  // --- Causal edges, ghosts, missing parents, cause / cause_at disagreements -------------------
  const edges = new EdgeSet();
  const missing: MissingParent[] = [];
  const ghosts = new Map<string, GhostNode>();
  const ghostByRef = new Map<string, GhostNode>();

  const ghostFor = (child: Entry, refs: { via: CausalVia; ref: string; key: string }[], note: string | null): GhostNode => {
    let g: GhostNode | undefined;
    for (const r of refs) g ??= ghostByRef.get(r.key);
    if (!g) {
      g = {
        id: `ghost:${refs[0].key}`,
        kind: 'ghost',
        label: `missing ${refs[0].via === 'cause' ? short(refs[0].ref, 26) : refs[0].ref}`,
        group: child.conversation,
        sortKey: child.sortKey,
        recordIndex: null,
        cycle: false,
        refs: [],
        note,
      };
      ghosts.set(g.id, g);
    }
    for (const r of refs) {
      if (!g.refs.some((x) => x.via === r.via && x.ref === r.ref)) g.refs.push({ via: r.via, ref: r.ref });
      ghostByRef.set(r.key, g);
    }
    if (child.sortKey < g.sortKey) g.sortKey = child.sortKey;
    return g;
  };

  const ordered = [...entries].sort(byKey);
  for (const child of ordered) {
    const env = child.env;
    if (!env.cause && !env.cause_at) continue;
    const causeId = crockford(env.cause);
    const cause = causeId !== null ? pick(byRecordId.get(causeId) ?? [], child, 'record id') : null;

    let at: CauseAt | null = null;
    let atRes: { entry: Entry | null; note: string | null } | null = null;
    let atNote: string | null = null;
    if (env.cause_at) {
      at = readCauseAt(env.cause_at);
      if (at) {
        // An Iggy export gives partition and offset only: a position whose stream or topic is
        // known (and differs) is excluded, otherwise partition and offset decide.
        const candidates = (byPosition.get(`${at.partition}:${at.offset}`) ?? []).filter(
          (c) => (c.r.logPosition!.stream === null || c.r.logPosition!.stream === at!.stream) && (c.r.logPosition!.topic === null || c.r.logPosition!.topic === at!.topic),
        );
        atRes = pick(candidates, child, 'log position');
        const known = atRes.entry?.r.logPosition;
        atNote =
          known && known.stream !== null && known.topic !== null
            ? null
            : `matched on partition ${at.partition} and offset ${at.offset} only: an Iggy export does not carry the stream and topic (cause_at names stream ${at.stream}, topic ${at.topic})`;
        if (atRes.note) atNote = atNote ? `${atNote}; ${atRes.note}` : atRes.note;
      }
    }

    // With no log position anywhere in the input, a cause_at cannot be matched: when cause found
    // the parent, say so on that edge and claim nothing missing.
    const atUnchecked = at !== null && !atRes?.entry && !anyPosition && !!cause?.entry;
    if (cause?.entry) {
      const unchecked = atUnchecked ? `cause_at (${describeCauseAt(at!)}) not checked: no record of the input has a known log position` : null;
      edges.add(child.id, cause.entry.id, 'cause', [cause.note, unchecked].filter((x) => x !== null).join('; ') || null);
    }
    if (atRes?.entry) edges.add(child.id, atRes.entry.id, 'cause_at', atNote);

    // Disagreement: both present and naming different records.
    if (causeId !== null && at) {
      const c = cause?.entry ?? null;
      const a = atRes?.entry ?? null;
      let message: string | null = null;
      if (c && a && c !== a) {
        message = `cause names record ${causeId} (${c.id}), but cause_at (${describeCauseAt(at)}) is record ${a.id}`;
      } else if (c && !a && c.r.logPosition && (c.r.logPosition.partition !== at.partition || c.r.logPosition.offset !== at.offset)) {
        message = `cause names record ${causeId}, which sits at partition ${c.r.logPosition.partition} offset ${c.r.logPosition.offset}; cause_at names ${describeCauseAt(at)}`;
      } else if (!c && a && a.recordId !== causeId) {
        message = `cause_at (${describeCauseAt(at)}) is record ${a.recordId ?? a.id}, but cause names record ${causeId}`;
      }
      if (message !== null) {
        const f = graphFinding('agdx/graph/cause-mismatch', 'cause_at', message, child.r);
        recordNodes.get(child.id)!.findings.push(f);
        findings.push({ recordIndex: child.index, finding: f });
      }
    }

    // Absent parents.
    const refs: { via: CausalVia; ref: string; key: string }[] = [];
    if (causeId !== null && !cause?.entry) refs.push({ via: 'cause', ref: causeId, key: causeId });
    if (at && !atRes?.entry && !atUnchecked) {
      refs.push({ via: 'cause_at', ref: describeCauseAt(at), key: `at:${at.stream}/${at.topic}/${at.partition}/${at.offset}` });
    }
    if (refs.length > 0) {
      const note = !anyPosition && refs.some((r) => r.via === 'cause_at') ? 'no record of the input has a known log position, so no cause_at can be matched' : null;
      const g = ghostFor(child, refs, note);
      for (const r of refs) {
        missing.push({ from: child.id, ref: r.ref, via: r.via });
        edges.add(child.id, g.id, r.via);
      }
    }
  }

  // --- Cycles of cause / cause_at ------------------------------------------------------------
  const idx = new Map(entries.map((e, i) => [e.id, i]));
  const adj: number[][] = entries.map(() => []);
  for (const e of edges.list) {
    const a = idx.get(e.from);
    const b = idx.get(e.to);
    if (a !== undefined && b !== undefined && !adj[a].includes(b)) adj[a].push(b);
  }
  const cycles = findCycles(entries.length, adj)
    .map((c) => c.map((i) => entries[i]).sort(byKey).map((e) => e.id))
    .sort((a, b) => byKey(entryById.get(a[0])!, entryById.get(b[0])!));
  const inCycle = new Set(cycles.flat());
  for (const id of inCycle) recordNodes.get(id)!.cycle = true;

  // --- Correlation pairs and stream order ----------------------------------------------------
  const commands = new Map<string, Entry[]>();
  for (const e of ordered) {
    if (e.env.kind !== 'command' || e.correlation === null) continue;
    const key = `${e.conversation}|${e.correlation}`;
    const list = commands.get(key);
    if (list) list.push(e);
    else commands.set(key, [e]);
  }
  const commandFor = (child: Entry) => (child.correlation === null ? null : pick(commands.get(`${child.conversation}|${child.correlation}`) ?? [], child, 'correlation', 'commands'));
  for (const child of ordered) {
    const k = child.env.kind;
    if (!(k === 'response' || k === 'error' || (k === 'status' && child.env.operation === 'task'))) continue;
    const cmd = commandFor(child);
    if (cmd?.entry && cmd.entry !== child) edges.add(child.id, cmd.entry.id, 'correlation', cmd.note);
  }
  const entryByIndex = new Map(entries.map((e) => [e.index, e]));
  for (const s of streams) {
    const order = streamOrder(s, entryByIndex, recordIds);
    if (order.length > 0) {
      const cmd = commandFor(entryById.get(order[0])!);
      if (cmd?.entry) edges.add(order[0], cmd.entry.id, 'correlation', cmd.note);
      for (let i = 1; i < order.length; i++) edges.add(order[i], order[i - 1], 'sequence');
    }
    // An error carrying the channel ends the stream: it follows the stream's last chunk.
    const lastChunk = order[order.length - 1];
    if (lastChunk !== undefined) for (const i of s.errorIndices) edges.add(recordIds.get(i)!, lastChunk, 'sequence');
  }
  const recordLevelEdges = edges.list;

  // --- The drawn graph: fold streams -----------------------------------------------------------
  const view = new Map<string, string>(); // record-level id → drawn id
  const drawn = new Map<string, AgdxNode>();
  for (const n of recordNodes.values()) drawn.set(n.id, n);
  for (const g of ghosts.values()) drawn.set(g.id, g);
  const folded: FoldInfo[] = [];
  for (const s of streams) {
    if (s.recordIndices.length === 0) continue;
    const members = s.recordIndices.map((i) => recordIds.get(i)!);
    if (!foldStreams || expanded.has(s.id)) {
      for (const m of members) (drawn.get(m) as RecordNode).stream = s.id;
      continue;
    }
    const firstMember = [...members].map((m) => entryById.get(m)!).sort(byKey)[0];
    const node: StreamNode = {
      id: s.id,
      kind: 'stream',
      label: `${s.purpose ?? 'chunk'} stream · ${s.chunks} chunk${s.chunks === 1 ? '' : 's'} · ${s.terminal ?? 'open'}`,
      group: s.conversation,
      sortKey: firstMember.sortKey,
      recordIndex: s.applied[0] ?? firstMember.index,
      cycle: members.some((m) => inCycle.has(m)),
      stream: s,
    };
    for (const m of members) {
      drawn.delete(m);
      view.set(m, s.id);
    }
    drawn.set(s.id, node);
    folded.push({ id: s.id, kind: 'stream', members, count: members.length, parent: null, childKind: null });
  }
  let drawnEdges = remap(recordLevelEdges, view);

  // --- Fold large fan-outs -----------------------------------------------------------------------
  const kindOf = (n: AgdxNode) => (n.kind === 'record' ? n.recordKind : n.kind);
  const childrenOf = new Map<string, Map<string, Set<string>>>();
  for (const e of drawnEdges) {
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
        (m) => m.cycle || (m.kind === 'record' && (!m.valid || m.findings.length > 0 || m.loop !== null)) || (m.kind === 'stream' && m.stream.terminal !== 'last'),
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
      folded.push({ id: foldId, kind: 'fan-out', members: node.members, count: node.count, parent: p.id, childKind: k });
    }
  }
  if (foldView.size > 0) {
    drawnEdges = remap(drawnEdges, foldView);
    for (const [m, s] of view) if (foldView.has(s)) view.set(m, foldView.get(s)!);
    for (const [m, f] of foldView) if (!view.has(m)) view.set(m, f);
  }

  const nodes = [...drawn.values()].sort(byKey);
  const nodeOfRecord = new Map<number, string>();
  for (const e of entries) nodeOfRecord.set(e.index, view.get(e.id) ?? e.id);
  const groupCount = new Map<string, number>();
  for (const n of nodes) if (n.group !== null) groupCount.set(n.group, (groupCount.get(n.group) ?? 0) + 1);
  const groups: GraphGroup[] = [...groupCount].map(([id, count]) => ({ id, nodes: count }));

  return {
    kind: 'agdx',
    nodes,
    edges: drawnEdges,
    missing,
    cycles,
    streams,
    folded,
    findings: findings.sort((a, b) => a.recordIndex - b.recordIndex),
    groups,
    nodeOfRecord,
    recordLevel: { nodeCount: entries.length, ids: recordIds, edges: recordLevelEdges },
  };
}

/** The stream's chunks as record-level ids, in sequence order (then log order): how they chain when drawn, not how they were counted. */
function streamOrder(s: ReassembledStream, byIndex: ReadonlyMap<number, Entry>, recordIds: ReadonlyMap<number, string>): string[] {
  const chunks = s.recordIndices.map((i) => byIndex.get(i)!);
  const seq = (e: Entry) => (e.env.sequence === undefined ? null : BigInt(e.env.sequence));
  return chunks
    .filter((e) => seq(e) !== null)
    .sort((a, b) => (seq(a)! < seq(b)! ? -1 : seq(a)! > seq(b)! ? 1 : byKey(a, b)))
    .map((e) => recordIds.get(e.index)!);
}

/** Re-targets edges through a folding map; drops edges folded inside one node, merges the rest. */
function remap(list: readonly GraphEdge[], map: ReadonlyMap<string, string>): GraphEdge[] {
  const out = new EdgeSet();
  for (const e of list) {
    const from = map.get(e.from) ?? e.from;
    const to = map.get(e.to) ?? e.to;
    if (from === to && e.from !== e.to) continue;
    out.add(from, to, e.via, e.note, e.count);
  }
  return out.list;
}
