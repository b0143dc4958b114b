// Small shared pieces of the graph model: log positions, field spans in a tree, bridge loops.
import type { MetaValue } from '../agdx/envelope';
import type { FieldNode, Span } from '../model';

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
  if (hops?.type !== 'list') return [];
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const h of hops.items) {
    if (h.type !== 'text') continue;
    if (seen.has(h.value)) repeated.add(h.value);
    seen.add(h.value);
  }
  return [...repeated];
}
