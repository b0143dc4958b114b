// The graph tab: the AGDX causal graph and the AgentDNA DAGs, modelled and laid out in the worker,
// drawn by React Flow. Only what is visible is rendered; streams and large fan-outs come folded.
import '@xyflow/react/dist/style.css';
import { useQuery } from '@tanstack/react-query';
import {
  Background,
  ControlButton,
  Controls,
  Panel,
  MiniMap,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  ViewportPortal,
  type Edge,
  type Viewport,
} from '@xyflow/react';
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import type { GraphRender } from '../../wire/graph';
import { inspectorClient } from '../worker-client';
import { queryKeys } from '../query-keys';
import { EDGE_KINDS, EDGE_VIAS, type EdgeVia } from '../../core/graph/model';
import { shortId } from '../../core/short-id';
import { nodeTypes, type FlowNode } from './GraphNodes';
import { conversationBoxes, GROUP_LABEL } from './groups';
import { GraphLegend } from './GraphLegend';
import { fitViewport, MIN_ZOOM, openViewport, READABLE_ZOOM, showsAnyNode } from './viewport';

interface Props {
  version: number;
  selected: number | null;
  onSelect: (key: number) => void;
  viewport: Viewport | null;
  onViewport: (v: Viewport) => void;
}

/** Above this many nodes, only those around the view go to React Flow. */
const CULL_ABOVE = 400;
/** Below this canvas size the minimap would cover what it maps: it is not drawn. */
const MINIMAP_MIN = { width: 640, height: 360 };

/** The id of the arrowhead drawn at the end of an edge of this kind (`EdgeArrows` defines it). */
const arrowId = (via: EdgeVia) => `graph-arrow-${via}`;

/**
 * Each edge kind's line and arrowhead, made once. An edge names its arrowhead by id: React Flow
 * would otherwise derive a marker id from a marker object on every edge it is given, each time.
 */
const EDGE_LOOK = Object.fromEntries(
  EDGE_VIAS.map((via) => [
    via,
    {
      style: { stroke: EDGE_KINDS[via].color, strokeWidth: 1.5, strokeDasharray: EDGE_KINDS[via].dash || undefined },
      markerEnd: arrowId(via),
      className: `edge-${via}`,
    },
  ]),
) as Record<EdgeVia, Pick<Edge, 'style' | 'markerEnd' | 'className'>>;

/** The arrowheads the edges name, one a kind, its tip at the line's end. */
function EdgeArrows() {
  return (
    <svg aria-hidden="true" width="0" height="0" className="absolute">
      <defs>
        {EDGE_VIAS.map((via) => (
          <marker
            key={via}
            id={arrowId(via)}
            viewBox="0 0 10 10"
            refX="10"
            refY="5"
            markerWidth="8"
            markerHeight="8"
            markerUnits="userSpaceOnUse"
            orient="auto-start-reverse"
          >
            <path d="M0,1 L10,5 L0,9 z" fill={EDGE_KINDS[via].color} />
          </marker>
        ))}
      </defs>
    </svg>
  );
}

function Graph({ version, selected, onSelect, viewport, onViewport }: Props) {
  const [expanded, setExpanded] = useState<string[]>([]);
  const [visible, setVisible] = useState<Set<string>>(() => new Set(EDGE_VIAS));
  // No structural sharing: a graph from the worker is new anyway, and keeping unchanged parts would
  // walk every node of both graphs, deeply, each time it is rebuilt (a fold opened, keys changed).
  const query = useQuery({
    queryKey: queryKeys.graph(version, expanded),
    queryFn: () => inspectorClient().graph(expanded),
    placeholderData: (prev) => prev,
    structuralSharing: false,
  });
  const flow = useReactFlow();
  // Drawn as a transition (in slices), not in the synchronous update a query's result makes.
  const graph: GraphRender | undefined = useDeferredValue(query.data);

  const toggleVia = useCallback(
    (via: EdgeVia) =>
      setVisible((cur) => {
        const next = new Set(cur);
        if (next.has(via)) next.delete(via);
        else next.add(via);
        return next;
      }),
    [],
  );
  const toggle = useCallback((id: string) => setExpanded((cur) => (cur.includes(id) ? cur.filter((x) => x !== id) : [...cur, id])), []);

  // A large graph is culled here before React Flow sees it: only the nodes in and around the view
  // (one screen of margin each way) are handed over, so a pan or a zoom costs what is on screen.
  const large = (graph?.nodes.length ?? 0) > CULL_ABOVE;
  const box = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState({ width: 1200, height: 600 });
  const [view, setView] = useState<Viewport>(viewport ?? { x: 20, y: 20, zoom: 0.8 });
  // The canvas is mounted while the worker builds the graph (the legend says so): React Flow's
  // own mount (its store, its size read from the page) is then done before the graph comes, and
  // drawing the graph is a task of its own.
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setSize({ width: el.clientWidth, height: el.clientHeight }));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  const frame = useRef(0);
  const onMove = useCallback((_: unknown, v: Viewport) => {
    cancelAnimationFrame(frame.current);
    frame.current = requestAnimationFrame(() => setView(v));
  }, []);
  // The view and a screen each way around it, in the graph's coordinates; null when all is drawn.
  const around = useMemo(() => {
    if (!large) return null;
    const w = size.width / view.zoom;
    const h = size.height / view.zoom;
    const left = -view.x / view.zoom - w;
    const top = -view.y / view.zoom - h;
    return { left, top, right: left + 3 * w, bottom: top + 3 * h };
  }, [large, size, view]);
  const inAround = useCallback(
    (b: { x: number; y: number; width: number; height: number }) =>
      !around || (b.x + b.width >= around.left && b.x <= around.right && b.y + b.height >= around.top && b.y <= around.bottom),
    [around],
  );
  const shown = useMemo(() => {
    if (!graph) return null;
    if (!around) return { nodes: graph.nodes, ids: null as Set<string> | null };
    const nodes = graph.nodes.filter(inAround);
    return { nodes, ids: new Set(nodes.map((n) => n.id)) };
  }, [graph, around, inAround]);

  const nodes: FlowNode[] = useMemo(
    () =>
      (shown?.nodes ?? []).map((n) => ({
        id: n.id,
        type: n.kind,
        position: { x: n.x, y: n.y },
        width: n.width,
        height: n.height,
        data: { ...n, selected: selected !== null && n.recordKeys.includes(selected), onToggle: toggle, expanded: expanded.includes(n.id) },
        ariaLabel: `${n.title} ${n.subtitle}${n.place ? ` (${n.place})` : ''}: ${n.detail}${n.timing.map((t) => `; ${t.mark}`).join('')}${n.stream ? `; stream: ${n.stream.summary}, ${n.stream.detail}` : ''}`,
        draggable: false,
        connectable: false,
      })),
    [shown, selected, toggle, expanded],
  );
  // Each conversation as a box behind its nodes (those around the view, for a large graph).
  const allBoxes = useMemo(() => conversationBoxes(graph?.nodes ?? []), [graph]);
  const boxes = useMemo(() => (around ? allBoxes.filter(inAround) : allBoxes), [allBoxes, around, inAround]);
  // What the folds note says: the streams folded and their chunks, the fan-outs and their records.
  const folds = useMemo(() => {
    const of = (kind: 'stream' | 'fan-out') => {
      const list = (graph?.folded ?? []).filter((f) => f.kind === kind);
      return { count: list.length, members: list.reduce((n, f) => n + f.count, 0) };
    };
    return { streams: of('stream'), fanOuts: of('fan-out') };
  }, [graph]);
  // Edges are named for assistive technology by what their nodes show (short ids), not by internal
  // node ids. An edge is drawn only between nodes drawn, so the nodes drawn are the faces needed.
  const faces = useMemo(() => new Map((shown?.nodes ?? []).map((n) => [n.id, `${n.title} ${n.subtitle}`])), [shown]);
  const edges: Edge[] = useMemo(
    () =>
      (graph?.edges ?? [])
        .filter((e) => visible.has(e.via) && (!shown?.ids || (shown.ids.has(e.from) && shown.ids.has(e.to))))
        .map((e) => ({
          id: e.id,
          source: e.from,
          target: e.to,
          label: e.count > 1 ? `×${e.count}` : undefined,
          data: { via: e.via, note: e.note },
          ...EDGE_LOOK[e.via],
          ariaLabel: `${EDGE_KINDS[e.via].label}: from ${faces.get(e.from) ?? 'a node'} to ${faces.get(e.to) ?? 'a node'}`,
        })),
    [graph, visible, shown, faces],
  );

  // The first time the graph is drawn (not from a link's viewport), it opens on the selected
  // record's neighbourhood at a zoom where node text reads at 12 px or more (viewport.ts).
  const fitted = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new load (version) is fitted afresh
  useEffect(() => {
    fitted.current = false;
  }, [version]);
  // Selecting a record elsewhere centres its node (the first fit keeps it in view instead).
  const lastCentred = useRef<number | null>(null);
  /** Fit: as much of the graph as fits, at a readable zoom (the 0 key, the fit button). */
  const fit = useCallback(
    (duration = 0) => {
      const el = box.current;
      if (!graph || !el || el.clientWidth === 0 || el.clientHeight === 0) return;
      void flow.setViewport(fitViewport(graph.nodes, { width: el.clientWidth, height: el.clientHeight }), { duration });
    },
    [graph, flow],
  );
  // A viewport the view opened with (a link's) that shows no node, aimed at empty space: opened as
  // without one instead, and said.
  const [emptyViewport, setEmptyViewport] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: opened once, when the graph and the canvas's size are known; `selected` is read then
  useEffect(() => {
    const el = box.current;
    if (fitted.current || !graph || !el || el.clientWidth === 0 || el.clientHeight === 0) return;
    const canvas = { width: el.clientWidth, height: el.clientHeight };
    fitted.current = true;
    if (viewport && (graph.nodes.length === 0 || showsAnyNode(graph.nodes, canvas, viewport))) return;
    const focus = selected === null ? null : (graph.nodes.find((x) => x.recordKeys.includes(selected)) ?? null);
    const v = openViewport(graph.nodes, graph.edges, canvas, focus);
    void flow.setViewport(v);
    // A large graph draws the nodes around the view: the view it opens on, now.
    if (large) setView(v);
    if (viewport) setEmptyViewport(true);
    lastCentred.current = selected;
  }, [graph, viewport, large, flow, size]);

  useEffect(() => {
    if (selected === null || !graph || lastCentred.current === selected) return;
    const n = graph.nodes.find((x) => x.recordKeys.includes(selected));
    if (!n) return;
    lastCentred.current = selected;
    flow.setCenter(n.x + n.width / 2, n.y + n.height / 2, { zoom: Math.max(flow.getZoom(), READABLE_ZOOM), duration: 250 });
  }, [selected, graph, flow]);

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === '+' || e.key === '=') flow.zoomIn();
    else if (e.key === '-') flow.zoomOut();
    else if (e.key === '0') fit(200);
    else return;
    e.preventDefault();
  };

  if (query.isError) return <p className="p-4 text-sm text-red-600">The graph could not be built: {query.error.message}</p>;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: keys pressed anywhere in the view (the canvas, its controls) reach its shortcuts
    <div className="flex h-full flex-col" onKeyDown={onKeyDown}>
      <GraphLegend graph={graph} visible={visible} onToggle={toggleVia} />
      <div
        ref={box}
        className="relative min-h-0 flex-1"
        // A widget of its own: it takes the keys (+, -, 0 zoom) while it has focus.
        role="application"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the canvas is a widget that takes keys (above)
        tabIndex={0}
        aria-label="Graph canvas (keys: + zoom in, - zoom out, 0 fit)"
      >
        <EdgeArrows />
        <ReactFlow
          nodes={nodes}
          edges={edges}
          nodeTypes={nodeTypes}
          onNodeClick={(_, node) => {
            const key = (node.data as FlowNode['data']).recordKey;
            if (key !== null) {
              lastCentred.current = key;
              onSelect(key);
            }
          }}
          onMove={large ? onMove : undefined}
          onMoveEnd={(_, v) => onViewport(v)}
          defaultViewport={viewport ?? view}
          onlyRenderVisibleElements
          minZoom={MIN_ZOOM}
          nodesDraggable={false}
          nodesConnectable={false}
          proOptions={{ hideAttribution: true }}
          colorMode="system"
        >
          <Background />
          {/* What comes and goes with the graph drawn, over the canvas: the canvas keeps its size. */}
          {graph && (large || emptyViewport || graph.folded.length > 0 || expanded.length > 0) && (
            <Panel
              position="top-left"
              className="max-w-[calc(100%-2rem)] space-y-0.5 rounded border border-slate-200 bg-white/90 px-2 py-1 text-[11px] text-slate-600 dark:border-slate-700 dark:bg-slate-900/90 dark:text-slate-300"
            >
              {large && <p data-testid="culled">Drawing the {nodes.length} nodes around the view.</p>}
              {emptyViewport && (
                <p role="status" data-testid="viewport-fitted" className="font-medium text-amber-800 dark:text-amber-300">
                  The viewport this view opened with showed no node: fitted to the graph instead.
                </p>
              )}
              {graph.folded.length > 0 && (
                <p className="min-w-0 truncate sm:whitespace-normal" data-testid="folded">
                  Folded: {folds.streams.count} stream{folds.streams.count === 1 ? '' : 's'} ({folds.streams.members} chunks)
                  {folds.fanOuts.count > 0 && `, ${folds.fanOuts.count} fan-outs of ${folds.fanOuts.members} records`}. Unfold one from its node.
                </p>
              )}
              {expanded.length > 0 && (
                // Unfolded streams keep their diagnostics on their first chunk, which folds them back; so does this button, for them all.
                <p data-testid="unfolded">
                  Unfolded: {expanded.length}; a stream's first chunk keeps its diagnostics and folds it back.{' '}
                  <button
                    type="button"
                    onClick={() => setExpanded([])}
                    className="rounded border border-slate-300 px-1.5 hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
                  >
                    Fold all back
                  </button>
                </p>
              )}
            </Panel>
          )}
          {/* Behind the edges and nodes (z-index -1 in the viewport's stacking context), and never in the way of a click. */}
          <ViewportPortal>
            {boxes.map((b) => (
              <div
                key={`${b.id}:${b.y}`}
                data-testid="conversation-group"
                aria-hidden="true"
                className="pointer-events-none absolute top-0 left-0 rounded-lg border border-dashed border-sky-500/70 bg-sky-50/50 dark:border-sky-400/50 dark:bg-sky-950/30"
                style={{ transform: `translate(${b.x}px, ${b.y}px)`, width: b.width, height: b.height, zIndex: -1 }}
              >
                <span
                  className="absolute left-2 truncate text-[11px] leading-5 text-sky-900 dark:text-sky-200"
                  style={{ top: 0, height: GROUP_LABEL, maxWidth: b.width - 16 }}
                >
                  conversation {shortId(b.id)} · {b.nodes} node{b.nodes === 1 ? '' : 's'}
                </span>
              </div>
            ))}
          </ViewportPortal>
          {size.width >= MINIMAP_MIN.width && size.height >= MINIMAP_MIN.height && (
            <MiniMap pannable zoomable style={{ width: 140, height: 90 }} ariaLabel="Graph overview (minimap)" />
          )}
          <Controls showInteractive={false} showFitView={false}>
            <ControlButton
              onClick={() => fit(200)}
              title="Fit the graph (at a readable zoom)"
              aria-label="Fit the graph (at a readable zoom)"
              className="react-flow__controls-fitview"
            >
              <svg viewBox="0 0 32 30" aria-hidden="true">
                <path d="M3.692 4.63c0-.53.4-.938.939-.938h5.215V0H4.708C2.13 0 0 2.054 0 4.63v5.216h3.692V4.631zM27.354 0h-5.2v3.692h5.17c.53 0 .984.4.984.939v5.215H32V4.631A4.624 4.624 0 0027.354 0zm.954 24.83c0 .532-.4.94-.939.94h-5.215v3.768h5.215c2.577 0 4.631-2.13 4.631-4.707v-5.139h-3.692v5.139zm-23.677.94c-.531 0-.939-.4-.939-.94v-5.138H0v5.139c0 2.577 2.13 4.707 4.708 4.707h5.138V25.77H4.631z" />
              </svg>
            </ControlButton>
          </Controls>
        </ReactFlow>
      </div>
    </div>
  );
}

export default function GraphView(props: Props) {
  return (
    <ReactFlowProvider>
      <Graph {...props} />
    </ReactFlowProvider>
  );
}
