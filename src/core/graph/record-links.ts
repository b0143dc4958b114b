// What a record's own references name, resolved over the record-level graph (record-graph.ts): its
// cause (a record id) and cause_at (a log position) to the parent the graph found, or to nothing (the
// graph's ghost: no loaded record is it); its correlation to the command it pairs with, and a
// command's to the records that answer it. The detail view makes them links. The graph is indexed
// once (edges by child, answers by command) and every record's links are read from that index.
import type { LogEntry } from '../log/entry';
import { byKey } from './edges';
import { describeCauseAt } from './keys';
import type { GraphEdge, RecordGraph } from './model';

export type LinkField = 'cause' | 'cause_at' | 'correlation';

/** One reference of a record, resolved. */
export interface RecordLink {
  field: LinkField;
  /** The reference as the record writes it: a record id, a log position in words, a correlation id. */
  ref: string;
  /** The record it names (a record index), or null when no loaded record is it. */
  target: number | null;
  /** A command's correlation: the records that answer it (responses, errors, task updates, streams), in log order. */
  answers: number[];
  /** How it was resolved when that needs saying (several candidates, partition and offset only), or why nothing was found. */
  note: string | null;
}

interface LinkIndex {
  /** Record-level node id → record index (ghosts have none). */
  recordOf: Map<string, number>;
  /** Ghost id → its note. */
  ghostNote: Map<string, string | null>;
  /** Child node id → its edges. */
  out: Map<string, GraphEdge[]>;
  /** Command node id → the records whose correlation edge points at it, in log order. */
  answers: Map<string, number[]>;
  /** `<conversation>|<correlation>` → the commands carrying it, in log order. */
  commands: Map<string, { recordIndex: number; sortKey: string }[]>;
}

const indexes = new WeakMap<RecordGraph, LinkIndex>();

function indexOf(graph: RecordGraph): LinkIndex {
  let ix = indexes.get(graph);
  if (ix) return ix;
  const recordOf = new Map(graph.records.map((r) => [r.id, r.recordIndex]));
  const sortKeyOf = new Map(graph.records.map((r) => [r.id, r.sortKey]));
  const out = new Map<string, GraphEdge[]>();
  const answering = new Map<string, string[]>();
  for (const e of graph.edges) {
    const list = out.get(e.from);
    if (list) list.push(e);
    else out.set(e.from, [e]);
    if (e.via === 'correlation') {
      const a = answering.get(e.to);
      if (a) a.push(e.from);
      else answering.set(e.to, [e.from]);
    }
  }
  const answers = new Map<string, number[]>();
  for (const [to, from] of answering) {
    const inOrder = from.map((id) => ({ id, sortKey: sortKeyOf.get(id) ?? '' })).sort(byKey);
    answers.set(
      to,
      inOrder.flatMap((x) => (recordOf.has(x.id) ? [recordOf.get(x.id)!] : [])),
    );
  }
  const commands = new Map<string, { recordIndex: number; sortKey: string }[]>();
  for (const r of graph.records) {
    if (r.recordKind !== 'command' || r.correlation === null) continue;
    const key = `${r.conversation}|${r.correlation}`;
    const list = commands.get(key);
    const c = { recordIndex: r.recordIndex, sortKey: r.sortKey };
    if (list) list.push(c);
    else commands.set(key, [c]);
  }
  for (const list of commands.values()) list.sort(byKey);
  ix = { recordOf, ghostNote: new Map(graph.ghosts.map((g) => [g.id, g.note])), out, answers, commands };
  indexes.set(graph, ix);
  return ix;
}

/**
 * The references `entry` (one of the entries `graph` was built from) makes, resolved: cause,
 * cause_at and correlation, each when the record carries it.
 */
export function recordLinks(graph: RecordGraph, entry: LogEntry): RecordLink[] {
  const id = graph.ids.get(entry.record);
  if (id === undefined) throw new TypeError(`recordLinks: record ${entry.record} is not in this graph`);
  const ix = indexOf(graph);
  const edges = ix.out.get(id) ?? [];
  const links: RecordLink[] = [];
  const parent = (via: 'cause' | 'cause_at', ref: string, absent: string, unmatched: string) => {
    const e = edges.find((x) => x.via === via);
    if (!e) return links.push({ field: via, ref, target: null, answers: [], note: unmatched });
    const target = ix.recordOf.get(e.to) ?? null;
    const note = target === null ? (ix.ghostNote.get(e.to) ?? absent) : e.note;
    links.push({ field: via, ref, target, answers: [], note });
  };
  if (entry.cause !== null) parent('cause', entry.cause, 'no loaded record has this record id', 'no loaded record has this record id');
  if (entry.causeAt !== null)
    parent(
      'cause_at',
      describeCauseAt(entry.causeAt),
      'no loaded record is at this log position',
      'not matched: no record of the load has a known log position',
    );
  if (entry.correlation !== null) links.push(correlationLink(ix, id, entry, edges));
  return links;
}

function correlationLink(ix: LinkIndex, id: string, entry: LogEntry, edges: readonly GraphEdge[]): RecordLink {
  const ref = entry.correlation!;
  if (entry.kind === 'command') {
    const answers = ix.answers.get(id) ?? [];
    return { field: 'correlation', ref, target: null, answers, note: answers.length ? null : 'nothing loaded answers this command' };
  }
  const e = edges.find((x) => x.via === 'correlation');
  const paired = e ? ix.recordOf.get(e.to) : undefined;
  if (paired !== undefined) return { field: 'correlation', ref, target: paired, answers: [], note: e!.note };
  // Not paired in the graph (an event, a status other than a task update, a chunk after its stream's
  // first): the command of its conversation with this correlation, the nearest before it in the log.
  const candidates = ix.commands.get(`${entry.conversation}|${ref}`) ?? [];
  let best: { recordIndex: number; sortKey: string } | null = null;
  for (const c of candidates) if (c.recordIndex !== entry.record && (c.sortKey <= entry.sortKey || best === null)) best = c;
  if (best === null) return { field: 'correlation', ref, target: null, answers: [], note: 'no command of this conversation with this correlation is loaded' };
  return {
    field: 'correlation',
    ref,
    target: best.recordIndex,
    answers: [],
    note:
      candidates.length > 1
        ? `${candidates.length} commands carry it; chose the ${best.sortKey <= entry.sortKey ? 'nearest one before' : 'first one after'} this record`
        : null,
  };
}
