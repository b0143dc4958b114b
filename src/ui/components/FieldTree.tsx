import { type KeyboardEvent, memo, useEffect, useRef, useState } from 'react';
import type { FieldNode, Span } from '../../core/model';
import type { RecordLinkView } from '../../wire/protocol';
import { displayText } from '../format';
import { listboxTarget } from '../listbox';

interface Props {
  nodes: FieldNode[];
  selectedPath: string | null;
  onSelect: (path: string, span: Span | null) => void;
  /** Paths the record's signature does not cover (signature.not_covered): marked in words. */
  notCovered?: ReadonlySet<string>;
  /** The record's cause, cause_at and correlation resolved, by field (their values link to the records they name). */
  links?: ReadonlyMap<string, RecordLinkView>;
  onLink?: (key: number) => void;
  /** The tree's accessible name (the record's fields by default). */
  label?: string;
  /** Items opened at first down to this depth (the top items only by default). */
  openDepth?: number;
}

const NO_PATHS: ReadonlySet<string> = new Set();
const NO_LINKS: ReadonlyMap<string, RecordLinkView> = new Map();

/**
 * Beside a cause, cause_at or correlation value: a link to the record it names, or "not loaded". For
 * the pointer (out of the Tab order: the tree is one Tab stop); the detail's Related records has the same links for the keyboard.
 */
function ValueLink({ link, onLink }: { link: RecordLinkView; onLink: (key: number) => void }) {
  const to = link.target ?? link.answers[0] ?? null;
  if (!to)
    return (
      <span className="whitespace-nowrap rounded border border-dashed border-slate-400 px-1 text-[10px] text-slate-600 dark:text-slate-400">not loaded</span>
    );
  // Its name starts with what it says (a speech-input user says the words they see), then names the record.
  const words = link.target ? 'go to it' : 'its answer';
  return (
    <button
      type="button"
      tabIndex={-1}
      title={`Select ${displayText(to.label)}`}
      aria-label={`${words}: ${displayText(to.label)}`}
      onClick={(e) => {
        e.stopPropagation();
        onLink(to.key);
      }}
      className="whitespace-nowrap text-[10px] text-teal-800 underline underline-offset-2 dark:text-teal-300"
    >
      {words}
    </button>
  );
}

/** Whether `path` is `node.path` or lies under it, so selecting a deep field opens its parents. */
const contains = (node: FieldNode, path: string | null) =>
  path !== null && (path === node.path || path.startsWith(`${node.path}.`) || path.startsWith(`${node.path}[`));

/** The item a key or click event is about: the innermost treeitem around its target (items nest). */
const itemOf = (target: EventTarget) => (target as Element).closest<HTMLElement>('[role="treeitem"]');

interface NodeProps {
  node: FieldNode;
  /** The item it is inside (null at the top). */
  parent: FieldNode | null;
  depth: number;
  selectedPath: string | null;
  /** The path of the item that is the tree's one Tab stop (roving focus). */
  focusPath: string | null;
  onSelect: Props['onSelect'];
  notCovered: ReadonlySet<string>;
  links: ReadonlyMap<string, RecordLinkView>;
  onLink?: (key: number) => void;
  openDepth: number;
}

const TreeNode = memo(function TreeNode({ node, parent, depth, selectedPath, focusPath, onSelect, notCovered, links, onLink, openDepth }: NodeProps) {
  const link = depth === 0 ? links.get(node.path) : undefined;
  const [open, setOpen] = useState(depth < openDepth);
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
    <div
      ref={ref}
      role="treeitem"
      aria-selected={selected}
      aria-expanded={hasChildren ? open : undefined}
      aria-level={depth + 1}
      tabIndex={node.path === focusPath ? 0 : -1}
      data-path={displayText(node.path)}
      // Items nest: each acts only on events that are its own, not on those of the items inside it.
      onClick={(e) => {
        if (itemOf(e.target) === e.currentTarget) onSelect(node.path, node.span);
      }}
      onKeyDown={(e) => {
        if (itemOf(e.target) !== e.currentTarget) return;
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          onSelect(node.path, node.span);
        } else if (e.key === 'ArrowRight' && hasChildren) {
          e.preventDefault();
          // Open it; if it is open already, on to its first child (selected, as the other moves select).
          if (!open) setOpen(true);
          else {
            e.currentTarget.querySelector<HTMLElement>('[role="treeitem"]')?.focus();
            const child = node.children![0];
            onSelect(child.path, child.span);
          }
        } else if (e.key === 'ArrowLeft') {
          e.preventDefault();
          // Close it; if it is closed (or a leaf), back to its parent.
          if (hasChildren && open) setOpen(false);
          else if (parent) {
            (e.currentTarget.parentElement ? itemOf(e.currentTarget.parentElement) : null)?.focus();
            onSelect(parent.path, parent.span);
          }
        }
      }}
      title={node.hint && displayText(node.hint)}
      className="cursor-pointer outline-none [&:focus-visible>div:first-child]:ring-2 [&:focus-visible>div:first-child]:ring-teal-600"
    >
      <div
        className={`flex items-baseline gap-2 rounded px-1 py-0.5 text-xs ${selected ? 'bg-amber-200 dark:bg-amber-800/70' : 'hover:bg-slate-100 dark:hover:bg-slate-800'}`}
        style={{ paddingLeft: `${depth * 14 + 4}px` }}
      >
        {hasChildren ? (
          <button
            type="button"
            tabIndex={-1}
            aria-label={`${open ? 'Collapse' : 'Expand'} ${displayText(node.label)}`}
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
        <span className="font-semibold text-teal-800 dark:text-teal-300">{displayText(node.label)}</span>
        {notCovered.has(node.path) && (
          <span
            data-testid="not-signed"
            title="The signature does not cover this field: anyone could have added or changed it."
            className="whitespace-nowrap rounded border border-amber-500 px-1 text-[10px] font-medium text-amber-800 dark:text-amber-300"
          >
            not signed
          </span>
        )}
        <span className="min-w-0 flex-1 truncate font-mono">{displayText(node.display)}</span>
        {link && onLink && <ValueLink link={link} onLink={onLink} />}
        <span className="whitespace-nowrap text-[10px] text-slate-600 dark:text-slate-400">{displayText(node.type)}</span>
      </div>
      {hasChildren && open && (
        // biome-ignore lint/a11y/useSemanticElements: the ARIA tree pattern: a treeitem's children are in a group (a fieldset is for form controls)
        <div role="group">
          {node.children!.map((c) => (
            <TreeNode
              key={c.path + c.label}
              node={c}
              parent={node}
              depth={depth + 1}
              selectedPath={selectedPath}
              focusPath={focusPath}
              onSelect={onSelect}
              notCovered={notCovered}
              links={links}
              onLink={onLink}
              openDepth={openDepth}
            />
          ))}
        </div>
      )}
    </div>
  );
});

/** Items PageUp and PageDown move by. */
const TREE_PAGE = 10;

/**
 * The record's fields as an ARIA tree: one Tab stop (the selected field, else the first); Up and
 * Down, PageUp and PageDown, Home and End move between the items shown and select the one they
 * reach (its bytes light up in the hex view); Right opens an item or goes into it, Left closes it or
 * goes up to its parent; Enter or Space selects.
 */
export function FieldTree({ nodes, selectedPath, onSelect, notCovered = NO_PATHS, links = NO_LINKS, onLink, label = 'Fields', openDepth = 1 }: Props) {
  if (nodes.length === 0) return <p className="text-xs text-slate-600 dark:text-slate-400">No fields: the record did not decode.</p>;
  const focusPath = selectedPath !== null && nodeByPath(nodes, selectedPath) ? selectedPath : nodes[0].path;
  // Up, Down, PageUp, PageDown, Home and End move among the items shown and select the one they reach (the listbox keys).
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const items = [...e.currentTarget.querySelectorAll<HTMLElement>('[role="treeitem"]')];
    const at = items.indexOf(itemOf(e.target) as HTMLElement);
    const to = at < 0 ? null : listboxTarget(e.key, at, items.length, TREE_PAGE);
    if (to === null) return;
    e.preventDefault();
    const item = items[to];
    item.focus();
    const node = nodeByPath(nodes, item.dataset.path ?? '');
    if (node) onSelect(node.path, node.span);
  };
  return (
    <div role="tree" aria-label={label} onKeyDown={onKeyDown} className="font-sans">
      {nodes.map((n) => (
        <TreeNode
          key={n.path + n.label}
          node={n}
          parent={null}
          depth={0}
          selectedPath={selectedPath}
          focusPath={focusPath}
          onSelect={onSelect}
          notCovered={notCovered}
          links={links}
          onLink={onLink}
          openDepth={openDepth}
        />
      ))}
    </div>
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
