// The pointer on the timeline's canvas: the wheel zooms about it (or pans), a drag pans the time and
// scrolls the lanes, hovering a mark says it in a tooltip, a click picks a mark (or a stream's bar).
import { type PointerEvent as ReactPointerEvent, type RefObject, useEffect, useRef, useState } from 'react';
import { MARK, type TimelinePack } from '../../wire/timeline-pack';
import { markAt, streamAt } from './pick';
import type { Viewport } from './use-timeline-viewport';
import { panBy, wheelFactor, zoomAt } from './view';

interface Tip {
  x: number;
  y: number;
  text: string;
}

export function useTimelinePointer({
  pack,
  viewport,
  box,
  list,
  schedule,
  setScroll,
  describe,
  setFocused,
  onSelect,
}: {
  pack: TimelinePack;
  viewport: Viewport;
  box: RefObject<HTMLDivElement | null>;
  /** Whether the list view shows instead of the canvas: a new canvas box takes the wheel again. */
  list: boolean;
  schedule: () => void;
  setScroll: (top: number) => void;
  describe: (mark: number) => string;
  setFocused: (mark: number) => void;
  onSelect: (record: number) => void;
}) {
  const { view, scroll, layout } = viewport;
  const [tip, setTip] = useState<Tip | null>(null);

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
  }, [box, view, schedule, list]);

  const drag = useRef<{ x: number; y: number; moved: boolean } | null>(null);
  const markAtPoint = (x: number, y: number) => (view.current ? markAt(pack, view.current, layout(), x, y) : -1);
  const streamAtPoint = (x: number, y: number) => (view.current ? streamAt(pack, view.current, layout(), x, y) : -1);
  const point = (e: ReactPointerEvent<HTMLElement>) => {
    const r = box.current!.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };
  const onPointerDown = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    drag.current = { x: e.clientX, y: e.clientY, moved: false };
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
  const onPointerCancel = () => (drag.current = null);
  const onPointerLeave = () => setTip(null);

  return { tip, handlers: { onPointerDown, onPointerMove, onPointerUp, onPointerCancel, onPointerLeave } };
}
