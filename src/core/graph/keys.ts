// Small shared pieces of the graph model: stable sort keys, record ids, log positions.
import { toCrockford } from '../bytes';
import type { MetaValue } from '../agdx/envelope';
import type { FieldNode, Span } from '../model';
import type { RecordResult } from '../records';

const pad = (n: bigint | number, width: number) => n.toString().padStart(width, '0');

/**
 * One sort key per record: log time (carried forward within an input to records that have none,
 * 0 before the first), then input, then position. Comparing keys as strings orders records in log
 * order within an input and by time across inputs; appending a record never reorders the others.
 */
export function recordSortKeys(records: readonly RecordResult[]): string[] {
  const lastTime = new Map<number, bigint>();
  return records.map((r) => {
    if (r.logTimeMicros !== null && r.logTimeMicros >= 0n) lastTime.set(r.input, r.logTimeMicros);
    const t = lastTime.get(r.input) ?? 0n;
    return `${pad(t, 20)}:${pad(r.input, 6)}:${pad(r.index, 9)}`;
  });
}

/** The latest log time of any record, or null when no record has one. */
export function latestLogTime(records: readonly RecordResult[]): bigint | null {
  let latest: bigint | null = null;
  for (const r of records) if (r.logTimeMicros !== null && (latest === null || r.logTimeMicros > latest)) latest = r.logTimeMicros;
  return latest;
}

export const crockford = (id: Uint8Array | undefined): string | null => (id ? toCrockford(id) : null);

/** A cause_at (Iggy binding): stream u32, topic u32, partition u32, offset u64, all big-endian. */
export interface CauseAt {
  stream: number;
  topic: number;
  partition: number;
  offset: bigint;
}

export function readCauseAt(bytes: Uint8Array): CauseAt | null {
  if (bytes.length !== 20) return null;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, 20);
  return { stream: dv.getUint32(0), topic: dv.getUint32(4), partition: dv.getUint32(8), offset: dv.getBigUint64(12) };
}

/** The display of a log position, as the field tree shows cause_at. */
export const describeCauseAt = (p: CauseAt) => `stream ${p.stream}, topic ${p.topic}, partition ${p.partition}, offset ${p.offset}`;

/** The span of a field in a record's tree (depth-first, bounded by the tree's size). */
export function spanOfPath(tree: readonly FieldNode[], path: string): Span | null {
  const stack = [...tree];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.path === path) return n.span;
    if (n.children && path.startsWith(n.path)) stack.push(...n.children);
  }
  return null;
}

/** A short form of a long id for labels. */
export const short = (id: string, keep = 10) => (id.length > keep + 1 ? `${id.slice(0, keep)}…` : id);

/** Bridge ids that metadata `bridge_hops` lists more than once. */
export function repeatedBridgeHops(meta: Map<string, MetaValue> | undefined): string[] {
  const hops = meta?.get('bridge_hops');
  if (!hops || hops.type !== 'list') return [];
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const h of hops.items) {
    if (h.type !== 'text') continue;
    if (seen.has(h.value)) repeated.add(h.value);
    seen.add(h.value);
  }
  return [...repeated];
}
