// What a record's own references name, resolved over the record-level graph (record-graph.ts): its
// cause (a record id) and cause_at (a log position) to the parent the graph found, or to nothing (the
// graph's ghost: no loaded record is it); its correlation to the command it pairs with, and a
// command's to the records that answer it. The detail view makes them links. Read from the graph in
// numbers (CompactRecordGraph), which the worker keeps for the whole load: one record's links are a
// scan of the edges and entries when the record is opened, no index of objects held beside them.
import type { LogEntry } from '../log/entry';
import { byKey } from './edges';
import { describeCauseAt } from '../agdx/cause-at';
import type { EdgeVia } from './model';
import { RECORD_EDGE_VIAS, type CompactRecordGraph } from './record-graph';

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

/**
 * The references record `record` makes, resolved over `graph` (built from `entries`, in their
 * order): cause, cause_at and correlation, each when the record carries it; none for a record
 * without an entry (not an AGDX envelope, or not in this graph).
 */
export function recordLinks(graph: CompactRecordGraph, entries: readonly LogEntry[], record: number): RecordLink[] {
  if (entries.length !== graph.records) throw new TypeError('recordLinks: the entries are not those the graph was built from');
  // Node k is entry k of the entries the graph was built from.
  const node = graph.places.entryOf(record);
  if (node < 0) return [];
  const entry = entries[node];
  const { edges, records, places, ghosts } = graph;
  // The record's own edges (child → parent), in the graph's order.
  const out: { to: number; via: EdgeVia; note: string | null }[] = [];
  for (let e = 0; e < edges.length; e++)
    if (edges.from(e) === node) out.push({ to: edges.to(e), via: RECORD_EDGE_VIAS[edges.via(e)], note: edges.notes.get(e) ?? null });
  const targetOf = (to: number) => (to < records ? places.record(to) : null);
  const links: RecordLink[] = [];
  const parent = (via: 'cause' | 'cause_at', ref: string, absent: string, unmatched: string) => {
    const e = out.find((x) => x.via === via);
    if (!e) return links.push({ field: via, ref, target: null, answers: [], note: unmatched });
    const target = targetOf(e.to);
    const note = target === null ? (ghosts[e.to - records].note ?? absent) : e.note;
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
  if (entry.correlation !== null) links.push(correlationLink(graph, entries, node, entry, out, targetOf));
  return links;
}

function correlationLink(
  graph: CompactRecordGraph,
  entries: readonly LogEntry[],
  node: number,
  entry: LogEntry,
  out: readonly { to: number; via: EdgeVia; note: string | null }[],
  targetOf: (to: number) => number | null,
): RecordLink {
  const ref = entry.correlation!;
  if (entry.kind === 'command') {
    // The records whose correlation edge points at this command, in log order.
    const from: { record: number; sortKey: string }[] = [];
    const { edges, records, places } = graph;
    for (let e = 0; e < edges.length; e++) {
      if (edges.to(e) !== node || RECORD_EDGE_VIAS[edges.via(e)] !== 'correlation') continue;
      const f = edges.from(e);
      if (f < records) from.push({ record: places.record(f), sortKey: entries[f].sortKey });
    }
    const answers = from.sort(byKey).map((x) => x.record);
    return { field: 'correlation', ref, target: null, answers, note: answers.length ? null : 'nothing loaded answers this command' };
  }
  const e = out.find((x) => x.via === 'correlation');
  const paired = e ? targetOf(e.to) : null;
  if (paired !== null) return { field: 'correlation', ref, target: paired, answers: [], note: e!.note };
  // Not paired in the graph (an event, a status other than a task update, a chunk after its stream's
  // first): the command of its conversation with this correlation, the nearest before it in the log.
  const candidates = entries
    .filter((c) => c.kind === 'command' && c.correlation === ref && c.conversation === entry.conversation)
    .map((c) => ({ recordIndex: c.record, sortKey: c.sortKey }))
    .sort(byKey);
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
