import { memo, useEffect, useRef, useState } from 'react';
import type { FieldNode, Span } from '../../core/model';

interface Props {
  nodes: FieldNode[];
  selectedPath: string | null;
  onSelect: (path: string, span: Span | null) => void;
  /** Paths the record's signature does not cover (signature.not_covered): marked in words. */
  notCovered?: ReadonlySet<string>;
}

const NO_PATHS: ReadonlySet<string> = new Set();

/** Whether `path` is `node.path` or lies under it, so selecting a deep field opens its parents. */
const contains = (node: FieldNode, path: string | null) =>
  path !== null && (path === node.path || path.startsWith(`${node.path}.`) || path.startsWith(`${node.path}[`));

const TreeNode = memo(function TreeNode({ node, depth, selectedPath, onSelect, notCovered }: { node: FieldNode; depth: number; selectedPath: string | null; onSelect: Props['onSelect']; notCovered: ReadonlySet<string> }) {
  const [open, setOpen] = useState(depth < 1);
  const selected = node.path === selectedPath;
  const ref = useRef<HTMLDivElement>(null);
  const hasChildren = !!node.children?.length;
  const shouldOpen = hasChildren && !open && contains(node, selectedPath) && !selected;
  useEffect(() => {
    if (shouldOpen) setOpen(true);
  }, [shouldOpen]);
  useEffect(() => {
    if (selected) ref.current?.scrollIntoView({ block: 'nearest' });
  }, [selected]);
  return (
    <li role="treeitem" aria-selected={selected} aria-expanded={hasChildren ? open : undefined} data-path={node.path}>
      <div
        ref={ref}
        tabIndex={0}
        onClick={() => onSelect(node.path, node.span)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ' ') {
            e.preventDefault();
            onSelect(node.path, node.span);
          } else if (e.key === 'ArrowRight' && hasChildren) setOpen(true);
          else if (e.key === 'ArrowLeft' && hasChildren) setOpen(false);
        }}
        title={node.hint}
        className={`flex cursor-pointer items-baseline gap-2 rounded px-1 py-0.5 text-xs outline-none focus-visible:ring-2 focus-visible:ring-teal-500 ${
          selected ? 'bg-amber-200 dark:bg-amber-800/70' : 'hover:bg-slate-100 dark:hover:bg-slate-800'
        }`}
        style={{ paddingLeft: `${depth * 14 + 4}px` }}
      >
        {hasChildren ? (
          <button
            type="button"
            tabIndex={-1}
            aria-label={open ? `Collapse ${node.label}` : `Expand ${node.label}`}
            className="w-3 text-slate-600 dark:text-slate-400"
            onClick={(e) => {
              e.stopPropagation();
              setOpen(!open);
            }}
          >
            {open ? '▾' : '▸'}
          </button>
        ) : (
          <span className="w-3" />
        )}
        <span className="font-semibold text-teal-800 dark:text-teal-300">{node.label}</span>
        {notCovered.has(node.path) && (
          <span data-testid="not-signed" title="The signature does not cover this field: anyone could have added or changed it." className="whitespace-nowrap rounded border border-amber-500 px-1 text-[10px] font-medium text-amber-800 dark:text-amber-300">
            not signed
          </span>
        )}
        <span className="min-w-0 flex-1 truncate font-mono">{node.display}</span>
        <span className="whitespace-nowrap text-[10px] text-slate-500 dark:text-slate-400">{node.type}</span>
      </div>
      {hasChildren && open && (
        <ul role="group">
          {node.children!.map((c) => (
            <TreeNode key={c.path + c.label} node={c} depth={depth + 1} selectedPath={selectedPath} onSelect={onSelect} notCovered={notCovered} />
          ))}
        </ul>
      )}
    </li>
  );
});

export function FieldTree({ nodes, selectedPath, onSelect, notCovered = NO_PATHS }: Props) {
  if (nodes.length === 0) return <p className="text-xs text-slate-600 dark:text-slate-400">No fields: the record did not decode.</p>;
  return (
    <ul role="tree" aria-label="Fields" className="font-sans">
      {nodes.map((n) => (
        <TreeNode key={n.path + n.label} node={n} depth={0} selectedPath={selectedPath} onSelect={onSelect} notCovered={notCovered} />
      ))}
    </ul>
  );
}

/** The deepest node whose value (or key) span holds `offset`. */
export function nodeAtOffset(nodes: FieldNode[], offset: number): FieldNode | null {
  let best: FieldNode | null = null;
  let bestSize = Infinity;
  const walk = (list: FieldNode[]) => {
    for (const n of list) {
      for (const s of [n.span, n.keySpan]) {
        if (s && offset >= s[0] && offset < s[1] && s[1] - s[0] <= bestSize) {
          best = n;
          bestSize = s[1] - s[0];
        }
      }
      if (n.children) walk(n.children);
    }
  };
  walk(nodes);
  return best;
}

export function nodeByPath(nodes: FieldNode[], path: string): FieldNode | null {
  for (const n of nodes) {
    if (n.path === path) return n;
    if (n.children) {
      const found = nodeByPath(n.children, path);
      if (found) return found;
    }
  }
  return null;
}
