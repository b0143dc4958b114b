// Where the timeline's canvas looks: the stretch of time across it, its size and how far its lanes
// are scrolled, kept in refs (a wheel or a drag moves them every frame, with no render), and the
// moves that change them: fit the whole timeline, scroll the lanes, bring a mark into view, follow
// the box's size.
import { type MutableRefObject, type RefObject, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { MARK, type TimelinePack } from '../../wire/timeline-pack';
import { laneAt, type TimelineLayout } from './layout';
import { AXIS } from './summary';
import { centreOn, fitView, type TimeView, xOf } from './view';

export interface Viewport {
  /** The stretch of time across the canvas (null until the canvas has a size). */
  view: MutableRefObject<TimeView | null>;
  /** The canvas's size in CSS pixels. */
  size: MutableRefObject<{ width: number; height: number }>;
  /** Pixels of lanes scrolled out of view above. */
  scroll: MutableRefObject<number>;
  /** The layout at this moment's size and scroll. */
  layout: () => TimelineLayout;
}

export function useViewport(pack: TimelinePack, tops: Float64Array): Viewport {
  const view = useRef<TimeView | null>(null);
  const size = useRef({ width: 0, height: 0 });
  const scroll = useRef(0);
  const layout = useCallback(
    (): TimelineLayout => ({ width: size.current.width, height: size.current.height, axis: AXIS, scroll: scroll.current, tops, tracks: pack.laneTracks }),
    [pack, tops],
  );
  return useMemo(() => ({ view, size, scroll, layout }), [layout]);
}

export interface ViewportMoves {
  /** The lanes in view, first and last (the column of agents beside the canvas shows them). */
  laneWindow: [number, number];
  setScroll: (top: number) => void;
  fit: () => void;
  /** Brings a mark into view: its time to the middle when it is off the canvas, its lane into the lanes shown. */
  reveal: (mark: number) => void;
}

export function useViewportMoves(
  pack: TimelinePack,
  tops: Float64Array,
  viewport: Viewport,
  schedule: () => void,
  elements: {
    box: RefObject<HTMLDivElement | null>;
    canvas: RefObject<HTMLCanvasElement | null>;
    lanesCol: RefObject<HTMLDivElement | null>;
    /** Whether the list view shows instead of the canvas: a new canvas must be fitted again. */
    list: boolean;
  },
): ViewportMoves {
  const { view, size, scroll, layout } = viewport;
  const { box, canvas, lanesCol, list } = elements;
  const [laneWindow, setLaneWindow] = useState<[number, number]>([0, 20]);

  const fit = useCallback(() => {
    if (size.current.width === 0) return;
    view.current = fitView(pack.start, pack.end, size.current.width);
    schedule();
  }, [pack, view, size, schedule]);

  const setScroll = useCallback(
    (top: number) => {
      const col = lanesCol.current;
      const max = Math.max(0, tops[tops.length - 1] - (size.current.height - AXIS));
      const next = Math.max(0, Math.min(max, top));
      scroll.current = next;
      if (col && Math.abs(col.scrollTop - next) > 0.5) col.scrollTop = next;
      const l = layout();
      const first = Math.max(0, laneAt(l, AXIS));
      const last = Math.min(pack.lanes.length - 1, laneAt(l, size.current.height));
      setLaneWindow((w) => (w[0] === first && w[1] === last ? w : [first, last]));
      schedule();
    },
    [pack, tops, size, scroll, layout, lanesCol, schedule],
  );

  // The canvas follows its box's size (in device pixels); the first size fits the whole timeline.
  // biome-ignore lint/correctness/useExhaustiveDependencies: list stands for the lanes drawn: a new one must re-fit the view
  useEffect(() => {
    const el = box.current;
    const c = canvas.current;
    if (!el || !c) return;
    const ro = new ResizeObserver(() => {
      const width = el.clientWidth;
      const height = el.clientHeight;
      if (width === size.current.width && height === size.current.height) return;
      size.current = { width, height };
      const dpr = window.devicePixelRatio || 1;
      c.width = Math.round(width * dpr);
      c.height = Math.round(height * dpr);
      c.style.width = `${width}px`;
      c.style.height = `${height}px`;
      if (!view.current && width > 0) view.current = fitView(pack.start, pack.end, width);
      setScroll(scroll.current);
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [pack, box, canvas, view, size, scroll, setScroll, list]);

  const reveal = useCallback(
    (i: number) => {
      const v = view.current;
      if (!v || i < 0) return;
      const t = pack.marks[i * MARK.STRIDE + MARK.T];
      const x = xOf(v, t);
      if (x < 24 || x > size.current.width - 24) view.current = centreOn(v, t, size.current.width);
      const lane = pack.marks[i * MARK.STRIDE + MARK.LANE];
      const top = tops[lane];
      const height = tops[lane + 1] - top;
      const room = size.current.height - AXIS;
      if (top < scroll.current || top + height > scroll.current + room) setScroll(top - room / 2 + height / 2);
      schedule();
    },
    [pack, tops, view, size, scroll, schedule, setScroll],
  );

  return { laneWindow, setScroll, fit, reveal };
}
