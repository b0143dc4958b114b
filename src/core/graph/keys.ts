// Small shared pieces of the graph model: field spans in a tree.
import type { FieldNode, Span } from '../model';

/** The span of a field in a record's tree (depth-first, bounded by the tree's size). */
export function spanOfPath(tree: readonly FieldNode[], path: string): Span | null {
  const stack = [...tree];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.path === path) return n.span;
    if (n.children && path.startsWith(n.path)) for (const c of n.children) stack.push(c);
  }
  return null;
}
