// The graph's legend: its counts, a check box a kind of edge (shown or not), the node marks, and
// the exports. In the page from the start (its counts say the graph is being built), so the canvas
// below it keeps its size when the graph comes.
import { memo, useMemo } from 'react';
import { EDGE_KINDS, EDGE_VIAS, type EdgeVia } from '../../core/graph/model';
import type { GraphRender } from '../../wire/graph';
import { download } from '../download';
import { graphToSvg, svgToPng } from './export';

interface Props {
  /** Undefined while the worker builds it. */
  graph: GraphRender | undefined;
  /** The kinds of edge drawn. */
  visible: ReadonlySet<string>;
  onToggle: (via: EdgeVia) => void;
}

export const GraphLegend = memo(function GraphLegend({ graph, visible, onToggle }: Props) {
  // Ghosts stand for parents absent from the input: counted as missing, not as nodes.
  const drawable = useMemo(() => graph?.nodes.reduce((n, node) => n + (node.kind === 'ghost' ? 0 : 1), 0) ?? 0, [graph]);
  // On a narrow screen the legend is one line that scrolls sideways, so the canvas keeps its height.
  return (
    <div
      className="flex items-center gap-x-3 gap-y-1 overflow-x-auto border-b border-slate-200 px-3 py-1 text-[11px] whitespace-nowrap sm:flex-wrap sm:whitespace-normal dark:border-slate-800"
      role="note"
      aria-label="Graph legend"
    >
      {graph ? (
        <span data-testid="graph-counts">
          {drawable} nodes · {graph.edges.length} edges · {graph.missing} missing · {graph.cycles} cycles · {graph.streams} streams
        </span>
      ) : (
        <span className="text-slate-600 dark:text-slate-400">Building the graph…</span>
      )}
      {EDGE_VIAS.map((via) => (
        <label key={via} className="inline-flex items-center gap-1">
          <input type="checkbox" checked={visible.has(via)} onChange={() => onToggle(via)} />
          <svg width="22" height="6" aria-hidden="true">
            <line x1="0" y1="3" x2="22" y2="3" stroke={EDGE_KINDS[via].color} strokeWidth="2" strokeDasharray={EDGE_KINDS[via].dash || undefined} />
          </svg>
          {EDGE_KINDS[via].label}
        </label>
      ))}
      <span className="inline-flex items-center gap-1">
        <span className="inline-block h-3 w-3 rounded-sm border-2 border-red-500 bg-red-50" /> needs a look
      </span>
      <span className="inline-flex items-center gap-1">
        <span className="inline-block h-3 w-3 rounded-sm border-2 border-dashed border-slate-400" /> missing parent
      </span>
      <span className="inline-flex items-center gap-1">
        <span className="inline-block h-3 w-3 rounded-sm border border-dashed border-sky-500 bg-sky-50" /> conversation
      </span>
      <span className="ml-auto inline-flex gap-1">
        <button
          type="button"
          className="rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
          disabled={!graph}
          onClick={() => graph && download('graph.svg', graphToSvg(graph, visible), 'image/svg+xml')}
        >
          Export SVG
        </button>
        <button
          type="button"
          className="rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
          disabled={!graph}
          onClick={async () => graph && download('graph.png', await svgToPng(graphToSvg(graph, visible)))}
        >
          Export PNG
        </button>
      </span>
    </div>
  );
});
