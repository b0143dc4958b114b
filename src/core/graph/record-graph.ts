// The AGDX record-level graph: one node per record with an envelope, edges from each child to the
// parent its cause (record id) and cause_at (log position) name, ghosts for absent parents, cycles,
// bridge loops, correlation pairs and chunk streams. Built once per load from the log's entries
// (log/entry.ts), in the sections below; drawing (draw.ts) folds it without changing it.
import type { Finding } from '../model';
import { finding, type FindingRuleId } from '../rules';
import { describeEntry, type LocateField, type LogEntry, type LogFacts } from '../log/entry';
import { byKey, EdgeSet } from './edges';
import { describeCauseAt, short, type CauseAt } from './keys';
import type { CausalVia, GhostNode, GraphFinding, GraphRecord, MissingParent, RecordGraph, ReassembledStream } from './model';
import { findCycles } from './scc';
import { reassembleStreams } from './streams';

export interface RecordGraphOptions {
  /** Where a finding's field is in its record's bytes (the findings have no span without it). */
  locate?: LocateField;
}

/** A record while the graph is built: its entry and its node. */
interface Entry {
  e: LogEntry;
  node: GraphRecord;
  /** Record-level node id (the node's). */
  id: string;
  sortKey: string;
}

/** What the sections share while building. */
interface Building {
  entries: Entry[];
  byRecordId: Map<string, Entry[]>;
  byPosition: Map<string, Entry[]>;
  /** Entries in log order. */
  ordered: Entry[];
  edges: EdgeSet;
  findings: GraphFinding[];
  locate: LocateField | undefined;
}

export function buildRecordGraph(facts: LogFacts, options: RecordGraphOptions = {}): RecordGraph {
  const b = recordNodes(facts.entries, options.locate);
  const streams = reassembleStreams(facts);
  const { ghosts, missing } = causalEdges(b);
  const cycles = causalCycles(b);
  correlationEdges(b, streams);
  const order = [...b.entries.map((x) => x.node), ...ghosts].sort(byKey).map((n) => n.id);
  return {
    kind: 'agdx-records',
    records: b.entries.map((x) => x.node),
    ghosts,
    order,
    edges: b.edges.list,
    missing,
    cycles,
    streams,
    findings: b.findings.sort((x, y) => x.recordIndex - y.recordIndex),
    ids: new Map(b.entries.map((x) => [x.e.record, x.id])),
  };
}

function graphFinding(b: Building, rule: FindingRuleId, path: string, message: string, e: Entry): void {
  const f: Finding = finding(rule, path, message, b.locate?.(e.e.record, path) ?? null, 'warning');
  e.node.findings.push(f);
  b.findings.push({ recordIndex: e.e.record, finding: f });
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

// --- Record-level nodes, and bridge loops ---------------------------------------------------------

/** One node per entry (a record id shared by several records is disambiguated by place), indexed by id and log position. */
function recordNodes(list: readonly LogEntry[], locate: LocateField | undefined): Building {
  const b: Building = { entries: [], byRecordId: new Map(), byPosition: new Map(), ordered: [], edges: new EdgeSet(), findings: [], locate };
  for (const e of list) {
    let id = `rec:${e.input}:${e.index}`;
    if (e.recordId !== null) id = b.byRecordId.has(e.recordId) ? `${e.recordId}@${e.input}:${e.index}` : e.recordId;
    // Read once: the entry and its node share one string (an entry may make it on each read).
    const sortKey = e.sortKey;
    const node: GraphRecord = {
      id,
      // Joined: one flat string per node, not a chain of concatenations.
      label: [e.kind, e.operation ? ` ${e.operation}` : '', ' ', e.source, e.target ? ` → ${e.target}` : ''].join(''),
      sortKey,
      recordIndex: e.record,
      cycle: false,
      recordId: e.recordId,
      recordKind: e.kind,
      conversation: e.conversation,
      correlation: e.correlation,
      channel: e.channel,
      sequence: e.sequence,
      source: e.source,
      target: e.target,
      duplicateId: false,
      loop: e.bridgeLoop,
      findings: [],
    };
    const entry: Entry = { e, node, id, sortKey };
    b.entries.push(entry);
    if (e.recordId !== null) push(b.byRecordId, e.recordId, entry);
    if (e.logPosition) push(b.byPosition, `${e.logPosition.partition}:${e.logPosition.offset}`, entry);
  }
  for (const entry of b.entries) {
    const { e, node } = entry;
    node.duplicateId = e.recordId !== null && b.byRecordId.get(e.recordId)!.length > 1;
    if (e.bridgeLoop) {
      const hops = e.bridgeLoop.map((h) => JSON.stringify(h)).join(', ');
      graphFinding(
        b,
        'agdx/graph/bridge-loop',
        'metadata.bridge_hops',
        `bridge_hops lists ${hops} more than once: the message went round a loop of bridges (a bridge drops a message whose list already holds its id)`,
        entry,
      );
    }
  }
  b.ordered = [...b.entries].sort(byKey);
  return b;
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
  const where = `${best.sortKey < child.sortKey ? 'nearest one before' : 'first one after'} this record${best.e.conversation === child.e.conversation ? ' in the same conversation' : ''}`;
  return { entry: best, note: `${count} ${noun} carry this ${what}; chose the ${where} (${best.id})` };
}

/** Whether `a` is a better pick than `b` for `child`: same conversation, not in a capsule, then nearest in the log. */
function before(a: Entry, b: Entry, child: Entry): boolean {
  const x0 = a.e.conversation === child.e.conversation ? 0 : 1;
  const y0 = b.e.conversation === child.e.conversation ? 0 : 1;
  if (x0 !== y0) return x0 < y0;
  const x1 = a.e.parent === null ? 0 : 1;
  const y1 = b.e.parent === null ? 0 : 1;
  if (x1 !== y1) return x1 < y1;
  const x2 = a.sortKey < child.sortKey ? 0 : 1;
  const y2 = b.sortKey < child.sortKey ? 0 : 1;
  if (x2 !== y2) return x2 < y2;
  // Before the child: the latest first; after it: the earliest first.
  return x2 === 0 ? byKey(a, b) > 0 : byKey(a, b) < 0;
}

// --- Causal edges, ghosts, missing parents, cause / cause_at disagreements -------------------------

function causalEdges(b: Building): { ghosts: GhostNode[]; missing: MissingParent[] } {
  const anyPosition = b.byPosition.size > 0;
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
        group: child.e.conversation,
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

  for (const child of b.ordered) {
    const { cause: causeId, causeAt: at } = child.e;
    if (causeId === null && at === null) continue;
    const cause = causeId !== null ? pick(b.byRecordId.get(causeId) ?? [], child, 'record id') : null;

    let atRes: { entry: Entry | null; note: string | null } | null = null;
    let atNote: string | null = null;
    if (at) {
      // An Iggy export gives partition and offset only: a position whose stream or topic is
      // known (and differs) is excluded, otherwise partition and offset decide.
      const candidates = (b.byPosition.get(`${at.partition}:${at.offset}`) ?? []).filter(
        (c) =>
          (c.e.logPosition!.stream === null || c.e.logPosition!.stream === at.stream) &&
          (c.e.logPosition!.topic === null || c.e.logPosition!.topic === at.topic),
      );
      atRes = pick(candidates, child, 'log position');
      const known = atRes.entry?.e.logPosition;
      atNote =
        known && known.stream !== null && known.topic !== null
          ? null
          : `matched on partition ${at.partition} and offset ${at.offset} only: an Iggy export does not carry the stream and topic (cause_at names stream ${at.stream}, topic ${at.topic})`;
      if (atRes.note) atNote = atNote ? `${atNote}; ${atRes.note}` : atRes.note;
    }

    // With no log position anywhere in the input, a cause_at cannot be matched: when cause found
    // the parent, say so on that edge and claim nothing missing.
    const atUnchecked = at !== null && !atRes?.entry && !anyPosition && !!cause?.entry;
    if (cause?.entry) {
      const unchecked = atUnchecked ? `cause_at (${describeCauseAt(at!)}) not checked: no record of the input has a known log position` : null;
      b.edges.add(child.id, cause.entry.id, 'cause', [cause.note, unchecked].filter((x) => x !== null).join('; ') || null);
    }
    if (atRes?.entry) b.edges.add(child.id, atRes.entry.id, 'cause_at', atNote);

    if (causeId !== null && at) causeMismatch(b, child, causeId, at, cause?.entry ?? null, atRes?.entry ?? null);

    // Absent parents.
    const refs: { via: CausalVia; ref: string; key: string }[] = [];
    if (causeId !== null && !cause?.entry) refs.push({ via: 'cause', ref: causeId, key: causeId });
    if (at && !atRes?.entry && !atUnchecked) {
      refs.push({ via: 'cause_at', ref: describeCauseAt(at), key: `at:${at.stream}/${at.topic}/${at.partition}/${at.offset}` });
    }
    if (refs.length > 0) {
      const note =
        !anyPosition && refs.some((r) => r.via === 'cause_at') ? 'no record of the input has a known log position, so no cause_at can be matched' : null;
      const g = ghostFor(child, refs, note);
      for (const r of refs) {
        missing.push({ from: child.id, ref: r.ref, via: r.via });
        b.edges.add(child.id, g.id, r.via);
      }
    }
  }
  return { ghosts: [...ghosts.values()], missing };
}

const named = (x: Entry): string => describeEntry(x.e);

/** cause and cause_at both present and naming different records (c: what cause found, a: what cause_at found). */
function causeMismatch(b: Building, child: Entry, causeId: string, at: CauseAt, c: Entry | null, a: Entry | null): void {
  let message: string | null = null;
  if (c && a && c !== a) {
    message = `cause names ${named(c)}, but cause_at (${describeCauseAt(at)}) is ${named(a)}`;
  } else if (c && !a && c.e.logPosition && (c.e.logPosition.partition !== at.partition || c.e.logPosition.offset !== at.offset)) {
    message = `cause names ${named(c)}, which sits at partition ${c.e.logPosition.partition} offset ${c.e.logPosition.offset}; cause_at names ${describeCauseAt(at)}`;
  } else if (!c && a && a.e.recordId !== causeId) {
    message = `cause_at (${describeCauseAt(at)}) is ${named(a)}, but cause names record ${causeId}, which is not in the log`;
  }
  if (message !== null) graphFinding(b, 'agdx/graph/cause-mismatch', 'cause_at', message, child);
}

// --- Cycles of cause / cause_at ---------------------------------------------------------------------

function causalCycles(b: Building): string[][] {
  const idx = new Map(b.entries.map((e, i) => [e.id, i]));
  const adj: number[][] = b.entries.map(() => []);
  for (const e of b.edges.list) {
    const from = idx.get(e.from);
    const to = idx.get(e.to);
    if (from !== undefined && to !== undefined && !adj[from].includes(to)) adj[from].push(to);
  }
  const cycles = findCycles(b.entries.length, adj)
    .map((c) => c.map((i) => b.entries[i]).sort(byKey))
    .sort((x, y) => byKey(x[0], y[0]));
  for (const c of cycles) for (const e of c) e.node.cycle = true;
  return cycles.map((c) => c.map((e) => e.id));
}

// --- Correlation pairs and stream order -------------------------------------------------------------

function correlationEdges(b: Building, streams: readonly ReassembledStream[]): void {
  const commands = new Map<string, Entry[]>();
  for (const e of b.ordered) if (e.e.kind === 'command' && e.e.correlation !== null) push(commands, `${e.e.conversation}|${e.e.correlation}`, e);
  const commandFor = (child: Entry) =>
    child.e.correlation === null ? null : pick(commands.get(`${child.e.conversation}|${child.e.correlation}`) ?? [], child, 'correlation', 'commands');
  for (const child of b.ordered) {
    const k = child.e.kind;
    if (!(k === 'response' || k === 'error' || (k === 'status' && child.e.operation === 'task'))) continue;
    const cmd = commandFor(child);
    if (cmd?.entry && cmd.entry !== child) b.edges.add(child.id, cmd.entry.id, 'correlation', cmd.note);
  }
  const byIndex = new Map(b.entries.map((e) => [e.e.record, e]));
  for (const s of streams) {
    const order = streamOrder(s, byIndex);
    if (order.length > 0) {
      const cmd = commandFor(order[0]);
      if (cmd?.entry) b.edges.add(order[0].id, cmd.entry.id, 'correlation', cmd.note);
      for (let i = 1; i < order.length; i++) b.edges.add(order[i].id, order[i - 1].id, 'sequence');
    }
    // An error carrying the channel ends the stream: it follows the stream's last chunk.
    const lastChunk = order[order.length - 1];
    if (lastChunk !== undefined) for (const i of s.errorIndices) b.edges.add(byIndex.get(i)!.id, lastChunk.id, 'sequence');
  }
}

/** The stream's chunks in sequence order (then log order): how they chain when drawn, not how they were counted. */
function streamOrder(s: ReassembledStream, byIndex: ReadonlyMap<number, Entry>): Entry[] {
  return s.recordIndices
    .map((i) => byIndex.get(i)!)
    .filter((e) => e.e.sequence !== null)
    .sort((x, y) => (x.e.sequence! < y.e.sequence! ? -1 : x.e.sequence! > y.e.sequence! ? 1 : byKey(x, y)));
}
