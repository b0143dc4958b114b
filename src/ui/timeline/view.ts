// The timeline's view: which stretch of time the canvas shows (its left edge and µs per pixel), and
// the pure steps that move it (fit, zoom about a point, pan), the axis ticks, and finding marks by
// time (the marks are packed by time: a binary search finds those in view). No DOM.
import { formatDuration } from '../../core/time';
import { MARK } from '../../wire/timeline-pack';

export interface TimeView {
  /** Time at the canvas's left edge (µs from the timeline's origin). */
  start: number;
  /** Microseconds per CSS pixel. */
  perPx: number;
}

/** Zoom limits: 1 ns a pixel (a µs is 1000 px wide), and 100 years across a pixel. */
export const MIN_PER_PX = 0.001;
export const MAX_PER_PX = 100 * 365.25 * 86_400e6;
/** Room left at each end when fitting, in pixels (a mark and its label stay inside). */
export const FIT_MARGIN = 40;

const clampPerPx = (v: number) => Math.min(MAX_PER_PX, Math.max(MIN_PER_PX, v));

/** The view that shows [start, end] across `width` pixels (a single instant: a second around it). */
export function fitView(start: number, end: number, width: number): TimeView {
  if (!(width > 0) || !Number.isFinite(start) || !Number.isFinite(end) || end < start) throw new TypeError('fitView: a width and a finite start ≤ end');
  const span = end - start || 1_000_000;
  const room = Math.max(1, width - 2 * FIT_MARGIN);
  const perPx = clampPerPx(span / room);
  const middle = (start + end) / 2;
  return { start: middle - (width / 2) * perPx, perPx };
}

/** Zoomed by `factor` (> 1: in) about the pixel `x`, which keeps its time. */
export function zoomAt(view: TimeView, factor: number, x: number): TimeView {
  if (!(factor > 0) || !Number.isFinite(factor)) throw new TypeError('zoomAt: factor must be a positive number');
  const perPx = clampPerPx(view.perPx / factor);
  const at = view.start + x * view.perPx;
  return { start: at - x * perPx, perPx };
}

/** Panned by `dx` pixels (positive: later times come into view). */
export const panBy = (view: TimeView, dx: number): TimeView => ({ start: view.start + dx * view.perPx, perPx: view.perPx });

/** The view with time `t` at the middle of `width`, at the same zoom. */
export const centreOn = (view: TimeView, t: number, width: number): TimeView => ({ start: t - (width / 2) * view.perPx, perPx: view.perPx });

export const xOf = (view: TimeView, t: number) => (t - view.start) / view.perPx;
export const tOf = (view: TimeView, x: number) => view.start + x * view.perPx;

/** Zoom factor for a wheel's deltaY (pixels; a line is taken as 16 px): about ×1.1 a notch, smooth for a trackpad. */
export function wheelFactor(deltaY: number, deltaMode: number): number {
  const px = deltaMode === 1 ? deltaY * 16 : deltaMode === 2 ? deltaY * 400 : deltaY;
  return Math.exp(-Math.max(-600, Math.min(600, px)) * 0.002);
}

const STEPS: number[] = [];
for (let decade = 1; decade <= 1e6; decade *= 10) for (const m of [1, 2, 5]) STEPS.push(m * decade);
// Past a second: seconds, minutes, hours and days as people count them.
for (const s of [2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400]) STEPS.push(s * 1e6);

/** Axis ticks every "nice" step, at least `minPx` pixels apart, across `width` pixels. */
export function ticks(view: TimeView, width: number, minPx = 90): { t: number; x: number; label: string }[] {
  const least = view.perPx * minPx;
  let step = STEPS.find((s) => s >= least);
  if (step === undefined) {
    const day = 86_400e6;
    step = day * 10 ** Math.ceil(Math.log10(least / day));
  }
  const out: { t: number; x: number; label: string }[] = [];
  const first = Math.ceil(view.start / step) * step;
  const last = view.start + width * view.perPx;
  for (let n = 0; n < 200; n++) {
    // From `first` by multiples (adding the step each time would pile up rounding errors).
    const t = first + n * step;
    if (t > last) break;
    out.push({ t, x: xOf(view, t), label: t === 0 ? '0' : `${t < 0 ? '' : '+'}${formatDuration(Math.round(t))}` });
  }
  return out;
}

/** The first mark at or after time `t` (marks are packed by time): an index from 0 to the count. */
export function firstMarkFrom(marks: Float64Array, t: number): number {
  let lo = 0;
  let hi = marks.length / MARK.STRIDE;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (marks[mid * MARK.STRIDE + MARK.T] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The mark of `lane` nearest the pixel `x`, within `radius` pixels, or -1. */
export function markNear(marks: Float64Array, view: TimeView, lane: number, x: number, radius: number): number {
  const from = firstMarkFrom(marks, tOf(view, x - radius));
  const to = tOf(view, x + radius);
  let best = -1;
  let bestDx = Infinity;
  for (let i = from; i < marks.length / MARK.STRIDE; i++) {
    const o = i * MARK.STRIDE;
    if (marks[o + MARK.T] > to) break;
    if (marks[o + MARK.LANE] !== lane) continue;
    const dx = Math.abs(xOf(view, marks[o + MARK.T]) - x);
    if (dx < bestDx) {
      bestDx = dx;
      best = i;
    }
  }
  return best;
}
