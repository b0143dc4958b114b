// Paints the timeline's canvas once a frame when something it shows has changed (a wheel or a drag
// asks for a frame each event; requestAnimationFrame makes them one), and writes what the canvas
// cannot say itself into the page: the stretch of time in view in words, and the box of the
// keyboard's mark.
import { useCallback, useEffect, useRef } from 'react';
import { formatDuration } from '../../core/time';
import { MARK, type TimelinePack } from '../../wire/timeline-pack';
import { drawTimeline } from './draw';
import { markY } from './layout';
import { DARK, LIGHT } from './palette';
import { at } from './parts';
import { AXIS } from './summary';
import type { Viewport } from './use-timeline-viewport';
import { xOf } from './view';

/** What a frame shows besides the view: mark indices (-1: none), the links toggle, the colour scheme. */
interface Drawn {
  selected: number;
  focused: number;
  links: boolean;
  dark: boolean;
}

export function useTimelinePainter(pack: TimelinePack, viewport: Viewport, drawn: Drawn) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const ring = useRef<HTMLDivElement>(null);
  const range = useRef<HTMLSpanElement>(null);
  const frame = useRef(0);
  // Read when the frame is painted, not when it was asked for.
  const state = useRef(drawn);
  state.current = drawn;
  const { view, size, layout } = viewport;

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
  }, [pack, view, size, layout]);
  const schedule = useCallback(() => {
    cancelAnimationFrame(frame.current);
    frame.current = requestAnimationFrame(draw);
  }, [draw]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: redrawn whenever what it draws changes
  useEffect(schedule, [schedule, drawn.selected, drawn.focused, drawn.links, drawn.dark]);
  useEffect(() => () => cancelAnimationFrame(frame.current), []);

  return { canvas, ring, range, schedule };
}
