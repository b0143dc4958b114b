// What the graph and the timeline notice about a record's place in the log, as findings
// (agdx/graph/*): a chunk after a gap in its stream, a duplicate chunk, a chunk or error after the
// stream ended, a stream abandoned at its deadline, a record id another record of the load has, a
// record in a causal cycle, a cause naming a record that is not loaded. Decided once, when the graph
// is built (record-graph.ts, streams.ts): this reads the compact graph and makes a record's findings
// when they are asked for, so a log with thousands of such chunks holds a byte or two per record,
// not a message each.
import { formatMicros } from '../agdx/tree';
import { shortId } from '../short-id';
import { type CompactRecordGraph, DUPLICATE_ID, IN_CYCLE, recordIdOf } from '../graph/record-graph';
import type { ReassembledStream } from '../graph/model';
import type { LogPosition, Span } from '../model';
import { finding } from '../rules';
import type { LocateField } from '../log/entry';
import type { Finding } from '../verdict';

/** A record's part in its stream, when it is trouble. */
const GAP = 1;
const DUPLICATE = 2;
const LATE = 3;
const ABANDONED = 4;

/** What the findings need of each entry beyond the graph: whether it is a dead letter's payload, and its place in the log. */
export interface StructureEntry {
  readonly parent: number | null;
  readonly logPosition: LogPosition | null;
}

const listed = (xs: readonly number[], max = 5) => `${xs.slice(0, max).join(', ')}${xs.length > max ? ', …' : ''}`;

/** The stream in words, for a message: its channel and correlation, short. */
function streamWords(s: ReassembledStream): string {
  return `the stream of channel ${shortId(s.channel)}${s.correlation ? ` (correlation ${shortId(s.correlation)})` : ''}`;
}

export class StructureFindings {
  /** By record: the stream it is trouble in (index into graph.streams), or -1; null when no stream has any. */
  private readonly streamOf: Int32Array | null = null;
  private readonly role: Uint8Array | null = null;
  /** A record whose id an earlier record of the load has (dead letters' payloads aside): that record. */
  private readonly firstWithId = new Map<number, number>();
  /** By record: the cycles it is in (indexes into graph.cycles). */
  private readonly cycles = new Map<number, number[]>();
  /** By record: the references it makes to records not loaded. */
  private readonly missing = new Map<number, { ref: string; via: string }[]>();
  private readonly located = new Map<string, Span | null>();

  constructor(
    private readonly graph: CompactRecordGraph,
    entries: Pick<readonly StructureEntry[], 'length' | 'at'>,
    private readonly locate?: LocateField,
  ) {
    if (entries.length !== graph.places.length) throw new TypeError('StructureFindings: the entries are not those of this graph');
    const { streams, places, flags, ids } = graph;
    const entryCount = places.length;
    // Entries are in record order: the last has the largest record index.
    const records = entryCount > 0 ? places.record(entryCount - 1) + 1 : 0;
    const trouble = streams.some((s) => s.gapIndex !== null || s.duplicateIndices.length > 0 || s.lateIndices.length > 0 || s.terminal === 'abandoned');
    if (trouble) {
      const streamOf = new Int32Array(records).fill(-1);
      const role = new Uint8Array(records);
      const mark = (record: number, stream: number, r: number) => {
        streamOf[record] = stream;
        role[record] = r;
      };
      streams.forEach((s, i) => {
        if (s.terminal === 'abandoned' && s.applied.length > 0) mark(s.applied[0], i, ABANDONED);
        if (s.gapIndex !== null) mark(s.gapIndex, i, GAP);
        for (const r of s.duplicateIndices) mark(r, i, DUPLICATE);
        for (const r of s.lateIndices) mark(r, i, LATE);
      });
      this.streamOf = streamOf;
      this.role = role;
    }
    // Records sharing an id, in record order. Not a repeat: a dead letter's payload (it repeats its
    // original by design), nor the same log record read twice (two exports of one partition: the
    // same log position), which the graph takes for one record.
    const firstById = new Map<number, number>();
    const placeOf = (k: number) => {
      const p = entries.at(k)!.logPosition;
      return p ? `${p.stream}:${p.topic}:${p.partition}:${p.offset}` : null;
    };
    for (let k = 0; k < entryCount; k++) {
      const id = ids.record[k];
      if (!(flags[k] & DUPLICATE_ID) || id < 0 || entries.at(k)!.parent !== null) continue;
      const first = firstById.get(id);
      if (first === undefined) firstById.set(id, k);
      else if (placeOf(k) === null || placeOf(k) !== placeOf(first)) this.firstWithId.set(places.record(k), first);
    }
    graph.cycles.forEach((cycle, c) => {
      for (const k of cycle)
        if (k < entryCount && flags[k] & IN_CYCLE) {
          const record = places.record(k);
          (this.cycles.get(record) ?? this.cycles.set(record, []).get(record)!).push(c);
        }
    });
    for (const m of graph.missing) {
      const record = places.record(m.from);
      (this.missing.get(record) ?? this.missing.set(record, []).get(record)!).push({ ref: m.ref, via: m.via });
    }
  }

  /** The record's findings of this kind, in a fixed order; `spans` false leaves their spans out. */
  findingsOf(record: number, spans = true): Finding[] {
    const out: Finding[] = [];
    const add = (rule: Parameters<typeof finding>[0], path: string, message: string) =>
      out.push(finding(rule, path, message, spans ? this.spanOf(record, path) : null));
    const s = this.streamOf && this.streamOf[record] >= 0 ? this.graph.streams[this.streamOf[record]] : null;
    if (s && this.role) {
      switch (this.role[record]) {
        case GAP:
          add(
            'agdx/graph/stream-gap',
            'sequence',
            `${streamWords(s)} misses sequence ${listed(s.gaps)} before this chunk: a reader ends the stream at the gap (terminal gap) and drops every chunk and error after it`,
          );
          break;
        case DUPLICATE:
          add(
            'agdx/graph/stream-duplicate',
            'sequence',
            `this chunk repeats a sequence ${streamWords(s)} has already applied: a reader drops it (${s.duplicates} duplicate${s.duplicates === 1 ? '' : 's'} in the stream)`,
          );
          break;
        case LATE:
          add(
            'agdx/graph/stream-after-end',
            'sequence',
            `this comes after ${streamWords(s)} ended (terminal ${s.terminal}): a reader drops it (${s.after_terminal} record${s.after_terminal === 1 ? '' : 's'} after the end)`,
          );
          break;
        case ABANDONED:
          add(
            'agdx/graph/stream-abandoned',
            'deadline_micros',
            `${streamWords(s)} opened here has no terminal chunk, and its deadline ${s.deadline_micros === null ? '' : formatMicros(s.deadline_micros)} passed before the latest log time of the load: a reader abandoned it`,
          );
          break;
      }
    }
    const first = this.firstWithId.get(record);
    if (first !== undefined) {
      const g = this.graph;
      add(
        'agdx/graph/duplicate-id',
        'record',
        `record id ${recordIdOf(g, first)} is also the id of the record at input ${g.places.input(first)}, index ${g.places.index(first)}: a record id names one record, so what names it (a cause, a link) is ambiguous`,
      );
    }
    for (const c of this.cycles.get(record) ?? []) {
      const n = this.graph.cycles[c].length;
      add(
        'agdx/graph/cycle',
        'cause',
        `this record is in a causal cycle of ${n} record${n === 1 ? '' : 's'}: following causes from it comes back to it, so none of them can be first`,
      );
    }
    for (const m of this.missing.get(record) ?? []) {
      add(
        'agdx/graph/missing-cause',
        m.via,
        `${m.via} names ${m.via === 'cause_at' ? 'the log position' : 'record'} ${m.ref}, which is not loaded: the graph shows it as a missing parent`,
      );
    }
    return out;
  }

  private spanOf(record: number, path: string): Span | null {
    if (!this.locate) return null;
    const key = `${record}:${path}`;
    let span = this.located.get(key);
    if (span === undefined) this.located.set(key, (span = this.locate(record, path)));
    return span;
  }
}
