// Which record of a load sits at a log position (stream, topic, partition, offset): what a body's
// pointers (a parked record's source, a context fragment's message, an acknowledged control record)
// are resolved with. A record whose export names no stream or topic (an Iggy HTTP export names only
// the partition) answers for its partition and offset in any; where a load repeats a place, the
// latest in log order answers.
import type { LogEntry } from './entry';

export interface PlacedPosition {
  stream: number;
  topic: number;
  partition: number;
  offset: bigint;
}

/** The record at a position, or null when no record of the load is there. */
export type RecordAtPosition = (p: PlacedPosition) => number | null;

/** A lookup of `entries` by position, built once (on its first question). */
export function recordsByPosition(entries: Iterable<LogEntry>): RecordAtPosition {
  let byPosition: Map<string, { record: number; logOrder: number }> | null = null;
  const build = () => {
    const map = new Map<string, { record: number; logOrder: number }>();
    for (const e of entries) {
      const at = e.logPosition;
      if (!at) continue;
      const key = `${at.stream ?? '*'}:${at.topic ?? '*'}:${at.partition}:${at.offset}`;
      const had = map.get(key);
      if (!had || had.logOrder < e.logOrder) map.set(key, { record: e.record, logOrder: e.logOrder });
    }
    return map;
  };
  return (p) => {
    byPosition ??= build();
    return (byPosition.get(`${p.stream}:${p.topic}:${p.partition}:${p.offset}`) ?? byPosition.get(`*:*:${p.partition}:${p.offset}`))?.record ?? null;
  };
}
