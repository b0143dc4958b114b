// The AGDX record-level graph: one node per record with an envelope, edges from each child to the
// parent its cause (record id) and cause_at (log position) name, ghosts for absent parents, cycles,
// bridge loops, correlation pairs and chunk streams. Built once per load from the log's entries
// (log/entry.ts), in numbers (CompactRecordGraph: node k is entry k, edges in typed arrays, ids
// made when asked), so a million-record log costs tens of bytes a record. Drawing (draw.ts) makes
// the objects it draws from it, without changing it.
import { finding, type FindingRuleId } from '../rules';
import { describeEntry, type EntryIds, type EntryPlaces, type EntrySequence, type LocateField, type LogEntry, type LogFacts } from '../log/entry';
import { type Groups, KeyGroups, NumberGroups } from './key-groups';
import { type CauseAt, describeCauseAt } from '../agdx/cause-at';
import type { CausalVia, EdgeVia, GhostNode, GraphFinding, ReassembledStream } from './model';
import { findCyclesInRows } from './scc';
import { reassembleStreams } from './streams';
import type { Finding } from '../verdict';
import { shortened } from '../short-id';

export interface RecordGraphOptions {
  /** Where a finding's field is in its record's bytes (the findings have no span without it). */
  locate?: LocateField;
  /**
   * Whether edges carry their notes (how a parent was chosen among several; default true). The
   * report has no notes: its writer leaves them out (a large log has one on most edges).
   */
  notes?: boolean;
}

/** The vias of record-level edges, by their number in RecordEdges.via. */
export const RECORD_EDGE_VIAS: readonly EdgeVia[] = ['cause', 'cause_at', 'correlation', 'sequence'];
const CAUSE = 0;
const CAUSE_AT = 1;
const CORRELATION = 2;
const SEQUENCE = 3;

/** Node flags. */
export const DUPLICATE_ID = 1;
/** The node id carries the record's place (another record before it has its record id). */
export const PLACED_ID = 2;
export const IN_CYCLE = 4;

/**
 * Record-level edges in columns, in the order first added, de-duplicated by (from, to, via) with
 * a count, and notes by edge. Endpoints are node numbers; every edge starts at a record.
 */
/** Block size of RecordEdges' columns (they grow by blocks: no copies, no doubling). */
const EDGE_BLOCK = 1 << 14;

/** A column of 32-bit integers grown block by block. */
class Int32Blocks {
  private readonly blocks: Int32Array[] = [];
  get(i: number): number {
    return this.blocks[i >>> 14][i & (EDGE_BLOCK - 1)];
  }
  set(i: number, v: number): void {
    const b = i >>> 14;
    while (this.blocks.length <= b) this.blocks.push(new Int32Array(EDGE_BLOCK));
    this.blocks[b][i & (EDGE_BLOCK - 1)] = v;
  }
  clear(): void {
    this.blocks.length = 0;
  }
}

/**
 * Record-level edges in columns, in the order first added, de-duplicated by (from, to, via) with
 * a count, and notes by edge. Endpoints are node numbers; every edge starts at a record.
 */
export class RecordEdges {
  length = 0;
  /** Counts above 1 (an edge added again), by edge. */
  readonly counts = new Map<number, number>();
  readonly notes = new Map<number, string>();
  /**
   * One string per distinct note while edges are added: many edges carry the same words (the
   * answers of one command), and a note kept for the whole load should be one flat string each.
   */
  private noteTexts = new Map<string, string>();
  /** from, to and via (in RECORD_EDGE_VIAS) packed: via in the low 2 bits of `to`'s column. */
  private readonly fromColumn = new Int32Blocks();
  private readonly toVia = new Int32Blocks();
  /** Per record node: its latest edge + 1 (0: none); edges of one node chained by `sibling`. */
  private latest: Int32Array;
  private readonly sibling = new Int32Blocks();
  private open = true;

  constructor(records: number) {
    this.latest = new Int32Array(records);
  }

  from(edge: number): number {
    return this.fromColumn.get(edge);
  }
  to(edge: number): number {
    return this.toVia.get(edge) >>> 2;
  }
  /** The edge's via, as its number in RECORD_EDGE_VIAS. */
  via(edge: number): number {
    return this.toVia.get(edge) & 3;
  }
  count(edge: number): number {
    return this.counts.get(edge) ?? 1;
  }

  add(from: number, to: number, via: number, note: string | null): void {
    if (!this.open) throw new TypeError('RecordEdges.add: the edges are done');
    if (!(to >= 0 && to < 2 ** 29 && via >= 0 && via < 4)) throw new TypeError('RecordEdges.add: node or via out of range');
    const toVia = (to << 2) | via;
    for (let e = this.latest[from] - 1; e >= 0; e = this.sibling.get(e) - 1) {
      if (this.toVia.get(e) === toVia) {
        this.counts.set(e, (this.counts.get(e) ?? 1) + 1);
        if (note !== null && !this.notes.has(e)) this.notes.set(e, this.noteText(note));
        return;
      }
    }
    const e = this.length++;
    this.fromColumn.set(e, from);
    this.toVia.set(e, toVia);
    if (note !== null) this.notes.set(e, this.noteText(note));
    this.sibling.set(e, this.latest[from]);
    this.latest[from] = e + 1;
  }

  private noteText(note: string): string {
    const known = this.noteTexts.get(note);
    if (known !== undefined) return known;
    this.noteTexts.set(note, note);
    return note;
  }

  /** No more edges: the index for de-duplicating let go. */
  done(): void {
    this.open = false;
    this.sibling.clear();
    this.latest = new Int32Array(0);
    this.noteTexts = new Map();
  }
}

/**
 * The record-level graph in numbers: node k < records is entry k (in record order), node
 * records + g is ghost g. Ids are made when asked (nodeId).
 */
export interface CompactRecordGraph {
  readonly records: number;
  /** By entry: its record index (the report's), input and index (the log's). */
  readonly places: EntryPlaces;
  /** By entry: DUPLICATE_ID, PLACED_ID, IN_CYCLE. */
  readonly flags: Uint8Array;
  /** By entry: its record id and cause, as numbers in their table (the log's). */
  readonly ids: EntryIds;
  readonly ghosts: readonly GhostNode[];
  readonly edges: RecordEdges;
  readonly missing: readonly { from: number; ref: string; via: CausalVia }[];
  /** Each cycle's entries in sortKey order. */
  readonly cycles: readonly (readonly number[])[];
  readonly streams: ReassembledStream[];
  /** By record index, ascending. */
  readonly findings: GraphFinding[];
}

/**
 * A node's id: a record's Crockford id (`<id>@<input>:<index>` when a record before it has the
 * same id), `rec:<input>:<index>` for a record without one, a ghost's `ghost:…`.
 */
export function nodeId(g: CompactRecordGraph, node: number): string {
  return node >= g.records ? g.ghosts[node - g.records].id : recordNodeId(g, node);
}

type NodeParts = Pick<CompactRecordGraph, 'ids' | 'flags' | 'places'>;

/** Entry k's record id (Crockford), or null. */
export function recordIdOf(g: Pick<CompactRecordGraph, 'ids'>, k: number): string | null {
  return g.ids.table.text(g.ids.record[k]);
}

function recordNodeId(g: NodeParts, node: number): string {
  const id = recordIdOf(g, node);
  if (id === null) return `rec:${g.places.input(node)}:${g.places.index(node)}`;
  return g.flags[node] & PLACED_ID ? `${id}@${g.places.input(node)}:${g.places.index(node)}` : id;
}

/** What the sections share while building. */
interface Building {
  list: EntrySequence;
  n: number;
  g: { places: EntryPlaces; flags: Uint8Array; ids: EntryIds };
  /** Comparing these compares the entries' sortKeys. */
  keyClass: Int32Array;
  /** Entries in log order. */
  ordered: Int32Array;
  /**
   * Whether each entry is a dead letter's payload: what picking among records that carry one id
   * compares (with the conversation's number, g.ids), many times per pick: a number, not an entry
   * made for each comparison.
   */
  inCapsule: Uint8Array;
  /** Entries by their record id's number. */
  byRecordId: NumberGroups;
  byPosition: KeyGroups | null;
  /** Where ids repeat (a load repeating a place): each entry's first and last entry with its id; else null. */
  canonFirst: Int32Array | null;
  canonLast: Int32Array | null;
  edges: RecordEdges;
  findings: GraphFinding[];
  locate: LocateField | undefined;
  /** Whether edges carry notes (RecordGraphOptions.notes). */
  notes: boolean;
}

export function buildCompactRecordGraph(facts: LogFacts, options: RecordGraphOptions = {}): CompactRecordGraph {
  const b = recordNodes(facts.inRecordOrder(), facts.places, facts.ids, options.locate, options.notes ?? true);
  const streams = reassembleStreams(facts);
  const { ghosts, missing } = causalEdges(b);
  const cycles = causalCycles(b);
  correlationEdges(b, streams);
  b.edges.done();
  return {
    records: b.n,
    ...b.g,
    ghosts,
    edges: b.edges,
    missing,
    cycles,
    streams,
    findings: b.findings.sort((x, y) => x.recordIndex - y.recordIndex),
  };
}

function graphFinding(b: Building, rule: FindingRuleId, path: string, message: string, k: number): void {
  const record = b.g.places.record(k);
  const f: Finding = finding(rule, path, message, b.locate?.(record, path) ?? null, 'warning');
  b.findings.push({ recordIndex: record, finding: f });
}

const idOf = (b: Building, k: number) => recordNodeId(b.g, k);

// --- Record-level nodes, and bridge loops ---------------------------------------------------------

/** One node per entry (a record id shared by several records is disambiguated by place), indexed by id and log position. */
function recordNodes(list: EntrySequence, places: EntryPlaces, ids: EntryIds, locate: LocateField | undefined, notes: boolean): Building {
  const n = list.length;
  if (ids.record.length !== n || places.length !== n) throw new TypeError('record-graph: the ids are not those of the entries');
  // The nodes are the entries: their places are the facts', not copies.
  const g = { places, flags: new Uint8Array(n), ids };
  const byRecordId = new NumberGroups(ids.table.size, n);
  let byPosition: KeyGroups | null = null;
  const ordered = new Int32Array(n);
  const inCapsule = new Uint8Array(n);
  let placesRise = true;
  for (let k = 0; k < n; k++) {
    const e = list.at(k)!;
    inCapsule[k] = e.parent === null ? 0 : 1;
    const id = ids.record[k];
    if (id >= 0) {
      if (byRecordId.group(id) >= 0) g.flags[k] |= PLACED_ID;
      byRecordId.add(id, k);
    }
    const p = e.logPosition;
    if (p) (byPosition ??= new KeyGroups(n, positions(list))).add(`${p.partition}:${p.offset}`, k);
    ordered[e.logOrder] = k;
    if (k > 0) {
      const input = places.input(k);
      const before = places.input(k - 1);
      if (!(input > before || (input === before && places.index(k) > places.index(k - 1)))) placesRise = false;
    }
  }
  for (let r = 0; r < byRecordId.keys; r++) {
    if (byRecordId.size(r) < 2) continue;
    for (let k = byRecordId.first(r); k >= 0; k = byRecordId.next(k)) g.flags[k] |= DUPLICATE_ID;
  }
  // Log order as classes of equal sortKeys (ties only where a load repeats a place). A sortKey
  // holds its entry's input and position, so only entries of the same place can tie: their keys
  // are made and compared, not a key for each of a large log's entries.
  const keyClass = new Int32Array(n);
  for (let i = 0, c = 0; i < n; i++) {
    const k = ordered[i];
    const p = i > 0 ? ordered[i - 1] : -1;
    if (p >= 0 && !(places.input(k) === places.input(p) && places.index(k) === places.index(p) && list.at(k)!.sortKey === list.at(p)!.sortKey)) c++;
    keyClass[k] = c;
  }
  const b: Building = {
    list,
    n,
    g,
    keyClass,
    ordered,
    inCapsule,
    byRecordId,
    byPosition,
    canonFirst: null,
    canonLast: null,
    edges: new RecordEdges(n),
    findings: [],
    locate,
    notes,
  };
  if (!placesRise) {
    // Two records at one place may have one node id: edges and cycles go by id, as the ids do.
    const first = new Map<string, number>();
    const last = new Map<string, number>();
    for (let k = 0; k < n; k++) {
      const id = idOf(b, k);
      if (!first.has(id)) first.set(id, k);
      last.set(id, k);
    }
    b.canonFirst = new Int32Array(n);
    b.canonLast = new Int32Array(n);
    for (let k = 0; k < n; k++) {
      const id = idOf(b, k);
      b.canonFirst[k] = first.get(id)!;
      b.canonLast[k] = last.get(id)!;
    }
  }
  for (let k = 0; k < n; k++) {
    const loop = list.at(k)!.bridgeLoop;
    if (loop) {
      const hops = loop.map((h) => JSON.stringify(h)).join(', ');
      graphFinding(
        b,
        'agdx/graph/bridge-loop',
        'metadata.bridge_hops',
        `bridge_hops lists ${hops} more than once: the message went round a loop of bridges (a bridge drops a message whose list already holds its id)`,
        k,
      );
    }
  }
  return b;
}

/** How many entries have a log position. */
function positions(list: EntrySequence): number {
  let count = 0;
  for (const e of list) if (e.logPosition) count++;
  return count;
}

/** An edge from a record, by node ids (records of one id are one node). */
function addEdge(b: Building, from: number, to: number, via: number, note: string | null = null): void {
  const c = b.canonFirst;
  b.edges.add(c ? c[from] : from, c && to < b.n ? c[to] : to, via, b.notes ? note : null);
}

interface Picked {
  /** The entry, or −1. */
  entry: number;
  note: string | null;
}

/**
 * The best of several records that carry the id (or position) a child names: not the child itself,
 * then the same conversation, then not found inside a dead-letter capsule, then the nearest one
 * before the child in the log, else the nearest one after it. The candidates: a group's members
 * (those `accept` takes).
 */
function pick(b: Building, groups: Groups | null, group: number, child: number, what: string, noun = 'other records', accept?: (c: number) => boolean): Picked {
  // One pass for the best candidate (not a sort per child: many records may share one id).
  let best = -1;
  let count = 0;
  let self = false;
  if (groups !== null && group >= 0) {
    for (let c = groups.first(group); c >= 0; c = groups.next(c)) {
      if (accept && !accept(c)) continue;
      if (c === child) {
        self = true;
        continue;
      }
      count++;
      if (best < 0 || before(b, c, best, child)) best = c;
    }
  }
  if (!b.notes) return { entry: best < 0 && self ? child : best, note: null };
  if (best < 0) return self ? { entry: child, note: `the record names itself by ${what}` } : { entry: -1, note: null };
  if (count === 1) return { entry: best, note: null };
  const where = b.keyClass[best] < b.keyClass[child] ? 'nearest one before' : 'first one after';
  const conversations = b.g.ids.conversation;
  const conversation = conversations[best] === conversations[child] ? ' in the same conversation' : '';
  // Joined, not a template: a template makes a rope (a tree of pieces, about 20 bytes each in V8),
  // join one flat string, and a large log keeps tens of thousands of these notes.
  const note = [count, ' ', noun, ' carry this ', what, '; chose the ', where, ' this record', conversation, ' (', idOf(b, best), ')'].join('');
  return { entry: best, note };
}

/** Whether `a` is a better pick than `c` for `child`: same conversation, not in a capsule, then nearest in the log. */
function before(b: Building, a: number, c: number, child: number): boolean {
  const { inCapsule, keyClass } = b;
  const conversationOf = b.g.ids.conversation;
  const conversation = conversationOf[child];
  const x0 = conversationOf[a] === conversation ? 0 : 1;
  const y0 = conversationOf[c] === conversation ? 0 : 1;
  if (x0 !== y0) return x0 < y0;
  const x1 = inCapsule[a];
  const y1 = inCapsule[c];
  if (x1 !== y1) return x1 < y1;
  const x2 = keyClass[a] < keyClass[child] ? 0 : 1;
  const y2 = keyClass[c] < keyClass[child] ? 0 : 1;
  if (x2 !== y2) return x2 < y2;
  // Before the child: the latest first; after it: the earliest first.
  return x2 === 0 ? keyClass[a] > keyClass[c] : keyClass[a] < keyClass[c];
}

// --- Causal edges, ghosts, missing parents, cause / cause_at disagreements -------------------------

function causalEdges(b: Building): { ghosts: GhostNode[]; missing: { from: number; ref: string; via: CausalVia }[] } {
  const { list } = b;
  const anyPosition = b.byPosition !== null;
  const missing: { from: number; ref: string; via: CausalVia }[] = [];
  const ghosts: GhostNode[] = [];
  const ghostByRef = new Map<string, number>();

  const ghostFor = (child: number, refs: { via: CausalVia; ref: string; key: string }[], note: string | null): number => {
    let gi: number | undefined;
    for (const r of refs) gi ??= ghostByRef.get(r.key);
    const sortKey = list.at(child)!.sortKey;
    if (gi === undefined) {
      gi = ghosts.length;
      ghosts.push({
        id: `ghost:${refs[0].key}`,
        kind: 'ghost',
        label: `missing ${refs[0].via === 'cause' ? shortened(refs[0].ref, 26, 0) : refs[0].ref}`,
        group: list.at(child)!.conversation,
        sortKey,
        recordIndex: null,
        cycle: false,
        refs: [],
        note,
      });
    }
    const g = ghosts[gi];
    for (const r of refs) {
      if (!g.refs.some((x) => x.via === r.via && x.ref === r.ref)) g.refs.push({ via: r.via, ref: r.ref });
      ghostByRef.set(r.key, gi);
    }
    if (sortKey < g.sortKey) g.sortKey = sortKey;
    return gi;
  };

  for (const child of b.ordered) {
    const e = list.at(child)!;
    const causeNumber = b.g.ids.cause[child];
    const at = e.causeAt;
    if (causeNumber < 0 && at === null) continue;
    const cause = causeNumber >= 0 ? pick(b, b.byRecordId, b.byRecordId.group(causeNumber), child, 'record id') : null;
    // Its text only where a finding or a ghost names it.
    const causeId = causeNumber >= 0 && (at !== null || cause!.entry < 0) ? b.g.ids.table.text(causeNumber) : null;

    let atRes: Picked | null = null;
    let atNote: string | null = null;
    if (at) {
      // An Iggy export gives partition and offset only: a position whose stream or topic is
      // known (and differs) is excluded, otherwise partition and offset decide.
      const group = b.byPosition ? b.byPosition.group(`${at.partition}:${at.offset}`) : -1;
      atRes = pick(b, b.byPosition, group, child, 'log position', undefined, (c) => {
        const p = list.at(c)!.logPosition!;
        return (p.stream === null || p.stream === at.stream) && (p.topic === null || p.topic === at.topic);
      });
      const known = atRes.entry >= 0 ? list.at(atRes.entry)!.logPosition : null;
      atNote =
        known && known.stream !== null && known.topic !== null
          ? null
          : `matched on partition ${at.partition} and offset ${at.offset} only: an Iggy export does not carry the stream and topic (cause_at names stream ${at.stream}, topic ${at.topic})`;
      if (atRes.note) atNote = atNote ? [atNote, atRes.note].join('; ') : atRes.note;
    }
    const causeEntry = cause ? cause.entry : -1;
    const atEntry = atRes ? atRes.entry : -1;

    // With no log position anywhere in the input, a cause_at cannot be matched: when cause found
    // the parent, say so on that edge and claim nothing missing.
    const atUnchecked = at !== null && atEntry < 0 && !anyPosition && causeEntry >= 0;
    if (cause && causeEntry >= 0) {
      const unchecked = atUnchecked ? `cause_at (${describeCauseAt(at!)}) not checked: no record of the input has a known log position` : null;
      addEdge(b, child, causeEntry, CAUSE, [cause.note, unchecked].filter((x) => x !== null).join('; ') || null);
    }
    if (atEntry >= 0) addEdge(b, child, atEntry, CAUSE_AT, atNote);

    if (causeId !== null && at) causeMismatch(b, child, causeNumber, causeId, at, causeEntry, atEntry);

    // Absent parents.
    const refs: { via: CausalVia; ref: string; key: string }[] = [];
    if (causeId !== null && causeEntry < 0) refs.push({ via: 'cause', ref: causeId, key: causeId });
    if (at && atEntry < 0 && !atUnchecked) {
      refs.push({ via: 'cause_at', ref: describeCauseAt(at), key: `at:${at.stream}/${at.topic}/${at.partition}/${at.offset}` });
    }
    if (refs.length > 0) {
      const note =
        !anyPosition && refs.some((r) => r.via === 'cause_at') ? 'no record of the input has a known log position, so no cause_at can be matched' : null;
      const gi = ghostFor(child, refs, note);
      for (const r of refs) {
        missing.push({ from: child, ref: r.ref, via: r.via });
        addEdge(b, child, b.n + gi, r.via === 'cause' ? CAUSE : CAUSE_AT);
      }
    }
  }
  return { ghosts, missing };
}

/** A record as a person finds it in the report: its record id when it has one, and its place. */
const named = (b: Building, k: number): string => describeEntry(b.list.at(k)!);

/** cause and cause_at both present and naming different records (c: what cause found, a: what cause_at found; −1: nothing). */
function causeMismatch(b: Building, child: number, causeNumber: number, causeId: string, at: CauseAt, c: number, a: number): void {
  let message: string | null = null;
  const cPosition = c >= 0 ? b.list.at(c)!.logPosition : null;
  if (c >= 0 && a >= 0 && c !== a) {
    message = `cause names ${named(b, c)}, but cause_at (${describeCauseAt(at)}) is ${named(b, a)}`;
  } else if (c >= 0 && a < 0 && cPosition && (cPosition.partition !== at.partition || cPosition.offset !== at.offset)) {
    message = `cause names ${named(b, c)}, which sits at partition ${cPosition.partition} offset ${cPosition.offset}; cause_at names ${describeCauseAt(at)}`;
  } else if (c < 0 && a >= 0 && b.g.ids.record[a] !== causeNumber) {
    message = `cause_at (${describeCauseAt(at)}) is ${named(b, a)}, but cause names record ${causeId}, which is not in the log`;
  }
  if (message !== null) graphFinding(b, 'agdx/graph/cause-mismatch', 'cause_at', message, child);
}

// --- Cycles of cause / cause_at ---------------------------------------------------------------------

function causalCycles(b: Building): number[][] {
  const { n, edges, keyClass } = b;
  // An id shared by records at one place is its last record's, as a lookup by id gives.
  const node = (k: number) => (b.canonLast ? b.canonLast[k] : k);
  // Edges between records that all lead back in log order make no cycle: nothing to search.
  let back = true;
  for (let e = 0; e < edges.length && back; e++) {
    const to = edges.to(e);
    back = to >= n || keyClass[node(to)] < keyClass[node(edges.from(e))];
  }
  if (back) return [];
  // Adjacency between records in rows.
  const offsets = new Int32Array(n + 1);
  for (let e = 0; e < edges.length; e++) if (edges.to(e) < n) offsets[node(edges.from(e)) + 1]++;
  for (let v = 0; v < n; v++) offsets[v + 1] += offsets[v];
  const fill = offsets.slice(0, n);
  const targets = new Int32Array(offsets[n]);
  for (let e = 0; e < edges.length; e++) {
    if (edges.to(e) >= n) continue;
    const from = node(edges.from(e));
    const to = node(edges.to(e));
    let seen = false;
    for (let i = offsets[from]; i < fill[from] && !seen; i++) seen = targets[i] === to;
    if (!seen) targets[fill[from]++] = to;
  }
  // Rows with repeats left out end early: pack them.
  let w = 0;
  const packed = new Int32Array(n + 1);
  for (let v = 0; v < n; v++) {
    packed[v] = w;
    for (let i = offsets[v]; i < fill[v]; i++) targets[w++] = targets[i];
  }
  packed[n] = w;
  const byKeyClass = (x: number, y: number) => keyClass[x] - keyClass[y];
  const cycles = findCyclesInRows(n, { offsets: packed, targets: targets.subarray(0, w) })
    .map((c) => c.sort(byKeyClass))
    .sort((x, y) => byKeyClass(x[0], y[0]));
  for (const c of cycles) for (const k of c) b.g.flags[k] |= IN_CYCLE;
  return cycles;
}

// --- Correlation pairs and stream order -------------------------------------------------------------

function correlationEdges(b: Building, streams: readonly ReassembledStream[]): void {
  const { list } = b;
  const isCommand = (k: number) => {
    const e = list.at(k)!;
    return e.kind === 'command' && e.correlation !== null;
  };
  let count = 0;
  for (let k = 0; k < b.n; k++) if (isCommand(k)) count++;
  const commands = new KeyGroups(b.n, count);
  const commandKey = (e: LogEntry) => `${e.conversation}|${e.correlation}`;
  for (const k of b.ordered) if (isCommand(k)) commands.add(commandKey(list.at(k)!), k);
  /** The command entry `e` (entry `child`) answers, by its correlation. */
  const commandFor = (child: number, e: LogEntry): Picked | null =>
    e.correlation === null ? null : pick(b, commands, commands.group(commandKey(e)), child, 'correlation', 'commands');
  for (const child of b.ordered) {
    const e = list.at(child)!;
    const k = e.kind;
    if (!(k === 'response' || k === 'error' || (k === 'status' && e.operation === 'task'))) continue;
    const cmd = commandFor(child, e);
    if (cmd && cmd.entry >= 0 && cmd.entry !== child) addEdge(b, child, cmd.entry, CORRELATION, cmd.note);
  }
  const entryOf = (record: number) => entryOfRecord(b.g.places, record);
  for (const s of streams) {
    const order = streamOrder(b, s, entryOf);
    if (order.length > 0) {
      const cmd = commandFor(order[0], list.at(order[0])!);
      if (cmd && cmd.entry >= 0) addEdge(b, order[0], cmd.entry, CORRELATION, cmd.note);
      for (let i = 1; i < order.length; i++) addEdge(b, order[i], order[i - 1], SEQUENCE);
    }
    // An error carrying the channel ends the stream: it follows the stream's last chunk.
    const lastChunk = order[order.length - 1];
    if (lastChunk !== undefined) for (const i of s.errorIndices) addEdge(b, entryOf(i), lastChunk, SEQUENCE);
  }
}

/** The entry of a record index that has one (a stream's records do). */
function entryOfRecord(places: EntryPlaces, record: number): number {
  const k = places.entryOf(record);
  if (k < 0) throw new TypeError(`record-graph: record ${record} has no entry`);
  return k;
}

/** The stream's chunks in sequence order (then log order): how they chain when drawn, not how they were counted. */
function streamOrder(b: Building, s: ReassembledStream, entryOf: (record: number) => number): number[] {
  const { list, keyClass } = b;
  // Each chunk's sequence read once, not an entry made for each comparison.
  const chunks: { k: number; sequence: bigint }[] = [];
  for (const record of s.recordIndices) {
    const k = entryOf(record);
    const sequence = list.at(k)!.sequence;
    if (sequence !== null) chunks.push({ k, sequence });
  }
  chunks.sort((x, y) => (x.sequence < y.sequence ? -1 : x.sequence > y.sequence ? 1 : keyClass[x.k] - keyClass[y.k]));
  return chunks.map((c) => c.k);
}
