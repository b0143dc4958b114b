// The Timeline tab: the AGDX records of the load on a time axis, one lane per agent, modelled in
// the worker (core/timeline, packed by wire/timeline-pack) and drawn here on a canvas, only what is
// in view. Marks select their records; a record selected elsewhere is ringed and brought into view.
// Everything the canvas says is also said in text: the deadline problems above it, the mark under
// the pointer or the keyboard in words (announced), and a list view of every mark.
import { useQuery } from '@tanstack/react-query';
import {
  memo,
  startTransition,
  useCallback,
  useDeferredValue,
  useEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent as ReactPointerEvent,
} from 'react';
import { formatDuration } from '../../core/time';
import { MARK, rows, STREAM, type TimelinePack } from '../../wire/timeline-pack';
import { displayText } from '../format';
import { queryKeys } from '../query-keys';
import { inspectorClient } from '../worker-client';
import { drawTimeline } from './draw';
import { laneAt, laneTops, markY, streamY, type TimelineLayout } from './layout';
import { DARK, LIGHT } from './palette';
import { centreOn, fitView, markNear, panBy, wheelFactor, xOf, zoomAt, type TimeView } from './view';
import { at, describeMark, MarkList, problemsOf } from './parts';
import { usePrefersDark } from '../hooks/use-prefers-dark';
import { AXIS, LaneColumn, TimelineSummary } from './summary';

interface Props {
  version: number;
  selected: number | null;
  onSelect: (key: number) => void;
}

/** Arrow keys scroll the lanes by this much. */
const LANE_STEP = 60;
/** How far a click may be from a mark and still pick it (px). */
const HIT = 8;
const KEY_ZOOM = 1.5;

export default function TimelineView({ version, selected, onSelect }: Props) {
  const query = useQuery({ queryKey: queryKeys.timeline(version), queryFn: () => inspectorClient().call('timeline', {}), structuralSharing: false });
  // Drawn as a transition (in slices), not in the synchronous update a query's result makes.
  const pack = useDeferredValue(query.data);
  if (query.isError) return <p className="p-4 text-sm text-red-600">The timeline could not be built: {query.error.message}</p>;
  if (!pack) return <p className="p-4 text-sm text-slate-600 dark:text-slate-400">Building the timeline…</p>;
  return <Timeline key={version} pack={pack} selected={selected} onSelect={onSelect} />;
}

const Timeline = memo(function Timeline({
  pack,
  selected,
  onSelect: select0,
}: {
  pack: TimelinePack;
  selected: number | null;
  onSelect: (key: number) => void;
}) {
  // Selecting re-renders the list and the detail: as a transition, in slices that leave the
  // canvas's frames (and the pointer) free.
  const onSelect = useCallback((record: number) => startTransition(() => select0(record)), [select0]);
  const count = rows(pack.marks, MARK.STRIDE);
  // Record → mark (the marks are by time).
  const markOf = useMemo(() => {
    let max = -1;
    for (let i = 0; i < count; i++) max = Math.max(max, pack.marks[i * MARK.STRIDE + MARK.RECORD]);
    const out = new Int32Array(max + 1).fill(-1);
    for (let i = 0; i < count; i++) out[pack.marks[i * MARK.STRIDE + MARK.RECORD]] = i;
    return out;
  }, [pack, count]);
  const labelOf = useCallback(
    (record: number) => (record < markOf.length && markOf[record] >= 0 ? pack.labels[markOf[record]] : `record ${record}`),
    [pack, markOf],
  );
  const problems = useMemo(() => problemsOf(pack, labelOf), [pack, labelOf]);
  // What a mark is, in words (the tooltip, the announcement and the list view).
  const describe = useCallback((i: number) => describeMark(pack, i), [pack]);
  const dark = usePrefersDark();
  const [links, setLinks] = useState(false);
  const [list, setList] = useState(false);
  const [focused, setFocused] = useState(-1);
  const [tip, setTip] = useState<{ x: number; y: number; text: string } | null>(null);
  const [laneWindow, setLaneWindow] = useState<[number, number]>([0, 20]);
  const tops = useMemo(() => laneTops(pack.laneTracks), [pack]);

  const canvas = useRef<HTMLCanvasElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const lanesCol = useRef<HTMLDivElement>(null);
  const ring = useRef<HTMLDivElement>(null);
  const range = useRef<HTMLSpanElement>(null);
  const view = useRef<TimeView | null>(null);
  const size = useRef({ width: 0, height: 0 });
  const scroll = useRef(0);
  const frame = useRef(0);
  const state = useRef({ selected: -1, focused: -1, links: false, dark: false });
  const selectedMark = selected !== null && selected < markOf.length ? markOf[selected] : -1;
  state.current = { selected: selectedMark, focused, links, dark };

  const layout = (): TimelineLayout => ({
    width: size.current.width,
    height: size.current.height,
    axis: AXIS,
    scroll: scroll.current,
    tops,
    tracks: pack.laneTracks,
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: layout() is made each render from pack and tops and reads refs; draw follows pack and tops
  const draw = useCallback(() => {
    const c = canvas.current;
    const v = view.current;
    if (!c || !v || size.current.width === 0) return;
    const ctx = c.getContext('2d');
    if (!ctx) return;
    const dpr = window.devicePixelRatio || 1;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const l = layout();
    const s = state.current;
    drawTimeline(ctx, pack, { view: v, layout: l, selected: s.selected, focused: s.focused, links: s.links }, s.dark ? DARK : LIGHT);
    c.parentElement?.setAttribute('data-drawn', 'true');
    // The stretch of time in view, in words (set here, not through React: a wheel redraws every frame).
    const shown = l.width * v.perPx;
    const words = range.current;
    if (words) {
      words.textContent = `Showing ${at(v.start)} to ${at(v.start + shown)} (${formatDuration(Math.max(1, Math.round(shown)))} across)`;
      words.dataset.spanMicros = String(shown);
    }
    // The keyboard's mark has a box in the page too (where a pointer would click it).
    const r = ring.current;
    if (r) {
      const i = s.focused;
      const x = i >= 0 ? xOf(v, pack.marks[i * MARK.STRIDE + MARK.T]) : -1;
      const y = i >= 0 ? markY(l, pack.marks[i * MARK.STRIDE + MARK.LANE]) : -1;
      const shown = i >= 0 && x >= 0 && x <= l.width && y >= AXIS && y <= l.height;
      r.style.display = shown ? 'block' : 'none';
      if (shown) r.style.transform = `translate(${x - 12}px, ${y - 12}px)`;
    }
  }, [pack, tops]);
  const schedule = useCallback(() => {
    cancelAnimationFrame(frame.current);
    frame.current = requestAnimationFrame(draw);
  }, [draw]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: redrawn whenever what it draws changes
  useEffect(schedule, [schedule, selectedMark, focused, links, dark]);
  useEffect(() => () => cancelAnimationFrame(frame.current), []);

  const fit = useCallback(() => {
    if (size.current.width === 0) return;
    view.current = fitView(pack.start, pack.end, size.current.width);
    schedule();
  }, [pack, schedule]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: layout() reads refs and the lane tops; setScroll follows pack, tops and schedule
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
    [pack, tops, schedule],
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
  }, [pack, setScroll, list]);

  /** Brings a mark into view: its time to the middle when it is off the canvas, its lane into the lanes shown. */
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
    [pack, tops, schedule, setScroll],
  );

  // A record selected elsewhere: its mark is ringed, brought into view, and the keyboard goes on from it.
  useEffect(() => {
    if (selectedMark < 0) return;
    setFocused(selectedMark);
    reveal(selectedMark);
  }, [selectedMark, reveal]);

  // Wheel and pinch (a trackpad's pinch is a wheel with ctrlKey): zoom about the pointer; sideways
  // or with shift: pan. A native listener, so the page does not scroll too.
  // biome-ignore lint/correctness/useExhaustiveDependencies: list stands for the lanes drawn: a new one re-binds the wheel to the new view
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      const v = view.current;
      if (!v) return;
      e.preventDefault();
      const x = e.clientX - el.getBoundingClientRect().left;
      const sideways = Math.abs(e.deltaX) > Math.abs(e.deltaY);
      if (sideways || (e.shiftKey && !e.ctrlKey)) view.current = panBy(v, (sideways ? e.deltaX : e.deltaY) * (e.deltaMode === 1 ? 16 : 1));
      else view.current = zoomAt(v, wheelFactor(e.deltaY, e.deltaMode), x);
      setTip(null);
      schedule();
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [schedule, list]);

  const drag = useRef<{ x: number; y: number; moved: boolean; id: number } | null>(null);
  const markAtPoint = (x: number, y: number) => {
    const v = view.current;
    if (!v) return -1;
    const lane = laneAt(layout(), y);
    if (lane < 0 || lane >= pack.lanes.length || y < AXIS) return -1;
    return markNear(pack.marks, v, lane, x, HIT);
  };
  /** The stream whose bar is at a point (it selects its opening chunk), or -1. */
  const streamAtPoint = (x: number, y: number) => {
    const v = view.current;
    if (!v) return -1;
    const l = layout();
    for (let i = 0, n = rows(pack.streams, STREAM.STRIDE); i < n; i++) {
      const o = i * STREAM.STRIDE;
      const by = streamY(l, pack.streams[o + STREAM.LANE]);
      if (y < by - 3 || y > by + 8) continue;
      if (x >= xOf(v, pack.streams[o + STREAM.START]) - 2 && x <= xOf(v, pack.streams[o + STREAM.END]) + 2) return pack.streams[o + STREAM.RECORD];
    }
    return -1;
  };
  const point = (e: ReactPointerEvent<HTMLElement>) => {
    const r = box.current!.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };
  const onPointerDown = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    drag.current = { x: e.clientX, y: e.clientY, moved: false, id: e.pointerId };
    e.currentTarget.setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e: ReactPointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (d) {
      const dx = e.clientX - d.x;
      const dy = e.clientY - d.y;
      if (!d.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
      d.moved = true;
      d.x = e.clientX;
      d.y = e.clientY;
      if (view.current) view.current = panBy(view.current, -dx);
      if (dy) setScroll(scroll.current - dy);
      setTip(null);
      schedule();
      return;
    }
    const { x, y } = point(e);
    const i = markAtPoint(x, y);
    setTip((cur) => (i < 0 ? null : cur && cur.text === describe(i) ? cur : { x, y, text: describe(i) }));
  };
  const onPointerUp = (e: ReactPointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    drag.current = null;
    if (e.currentTarget.hasPointerCapture(e.pointerId)) e.currentTarget.releasePointerCapture(e.pointerId);
    if (!d || d.moved) return;
    const { x, y } = point(e);
    const i = markAtPoint(x, y);
    if (i >= 0) {
      setFocused(i);
      onSelect(pack.marks[i * MARK.STRIDE + MARK.RECORD]);
      return;
    }
    const record = streamAtPoint(x, y);
    if (record >= 0) onSelect(record);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const v = view.current;
    if (!v) return;
    const w = size.current.width;
    const move = (i: number) => {
      const next = Math.max(0, Math.min(count - 1, i));
      if (count === 0) return;
      setFocused(next);
      reveal(next);
    };
    switch (e.key) {
      case '+':
      case '=':
        view.current = zoomAt(v, KEY_ZOOM, w / 2);
        break;
      case '-':
      case '_':
        view.current = zoomAt(v, 1 / KEY_ZOOM, w / 2);
        break;
      case 'ArrowLeft':
        view.current = panBy(v, -w / 8);
        break;
      case 'ArrowRight':
        view.current = panBy(v, w / 8);
        break;
      case 'ArrowUp':
        setScroll(scroll.current - LANE_STEP);
        break;
      case 'ArrowDown':
        setScroll(scroll.current + LANE_STEP);
        break;
      case 'Home':
        fit();
        setScroll(0);
        break;
      case ']':
        move(focused < 0 ? 0 : focused + 1);
        break;
      case '[':
        move(focused < 0 ? 0 : focused - 1);
        break;
      case 'Enter':
      case ' ':
        if (focused < 0) return;
        onSelect(pack.marks[focused * MARK.STRIDE + MARK.RECORD]);
        break;
      default:
        return;
    }
    e.preventDefault();
    schedule();
  };

  const select = (record: number) => {
    onSelect(record);
    const i = record < markOf.length ? markOf[record] : -1;
    if (i >= 0) {
      setFocused(i);
      reveal(i);
    }
  };
  const selectedWords = selectedMark >= 0 ? describe(selectedMark) : null;

  return (
    <section aria-label="Timeline" className="flex h-full flex-col text-[11px]">
      <TimelineSummary
        pack={pack}
        count={count}
        problems={problems}
        links={links}
        onLinks={() => setLinks((x) => !x)}
        list={list}
        onList={() => setList((x) => !x)}
        onSelect={select}
        range={range}
      />
      {list ? (
        <MarkList pack={pack} selected={selectedMark} describe={describe} onSelect={select} />
      ) : (
        <div className="flex min-h-[50%] flex-1" data-testid="timeline-chart">
          <LaneColumn pack={pack} tops={tops} laneWindow={laneWindow} column={lanesCol} onScroll={setScroll} />
          <div
            ref={box}
            // A widget of its own: it takes the keys (zoom, pan, marks) while it has focus.
            role="application"
            aria-label="Timeline canvas"
            aria-describedby="timeline-keys"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: the canvas is a widget that takes keys (above)
            tabIndex={0}
            onKeyDown={onKeyDown}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onPointerCancel={() => (drag.current = null)}
            onPointerLeave={() => setTip(null)}
            className="relative min-h-0 min-w-0 flex-1 cursor-crosshair touch-none overflow-hidden outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-teal-500"
            data-testid="timeline-canvas"
          >
            <canvas ref={canvas} className="absolute top-0 left-0" />
            <div ref={ring} data-testid="timeline-focus" aria-hidden="true" className="pointer-events-none absolute top-0 left-0 hidden h-6 w-6" />
            {tip && (
              <div
                role="tooltip"
                className="pointer-events-none absolute z-10 max-w-md rounded border border-slate-300 bg-white px-2 py-1 text-[11px] shadow dark:border-slate-600 dark:bg-slate-900"
                style={{ left: Math.min(tip.x + 12, Math.max(0, size.current.width - 300)), top: tip.y + 14 }}
              >
                <bdi>{displayText(tip.text)}</bdi>
              </div>
            )}
          </div>
        </div>
      )}
      <p className="truncate border-t border-slate-200 px-3 py-0.5 dark:border-slate-800" data-testid="timeline-selected">
        {selectedWords ? (
          <>
            Selected: <bdi>{displayText(selectedWords)}</bdi>
          </>
        ) : selected !== null ? (
          'The selected record is not on the timeline (it has no time, or it is not an AGDX record).'
        ) : (
          'Click a mark to select its record.'
        )}
      </p>
      <p className="sr-only" aria-live="polite">
        {focused >= 0 && focused < count ? displayText(describe(focused)) : ''}
      </p>
    </section>
  );
});
