// Sessions, behind everything of their lanes: each state a stretch of tint behind the marks with a
// strip below them, the end a tick with its state; parked work a dashed curve to what unparked it.
import { formatDuration } from '../../core/time';
import { PARKING, rows, STRETCH, type TimelinePack } from '../../wire/timeline-pack';
import { text } from './canvas-text';
import { CHAR, type DrawState, type PaintFrame } from './frame';
import { MARK_RADIUS, MARK_ROW, markY } from './layout';
import type { Palette } from './palette';
import { xOf } from './view';

/** States a session ends in badly: its end is drawn red. */
const FAILED_STATES = new Set(['failed', 'canceled', 'rejected']);

/**
 * Sessions, behind everything of their lanes: each state a stretch of tint behind the marks with a
 * strip below them (paused hatched, in amber, and said where there is room), the end a tick with
 * its state; parked work a dashed curve below the marks to the record that unparked it.
 */
export function drawSessions(ctx: CanvasRenderingContext2D, p: TimelinePack, s: DrawState, c: Palette, f: PaintFrame): void {
  const { view, layout: l } = s;
  const { clampX } = f;
  for (let i = 0, n = rows(p.stretches, STRETCH.STRIDE); i < n; i++) {
    const o = i * STRETCH.STRIDE;
    const lane = p.stretches[o + STRETCH.LANE];
    if (lane < f.firstLane || lane > f.lastLane) continue;
    const x1 = xOf(view, p.stretches[o + STRETCH.START]);
    const x2 = xOf(view, p.stretches[o + STRETCH.END]);
    if (x2 < f.minX || x1 > f.maxX) continue;
    const state = p.sessionStates[p.stretches[o + STRETCH.STATE]];
    const y = markY(l, lane);
    const top = y - MARK_ROW / 2;
    if (x2 === x1) {
      // The terminal state: a tick, and its word.
      const bad = FAILED_STATES.has(state);
      ctx.strokeStyle = bad ? c.missed : c.met;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.moveTo(x1, top + 2);
      ctx.lineTo(x1, top + MARK_ROW);
      ctx.stroke();
      ctx.lineWidth = 1;
      const said = `session ${state}`;
      if (f.place(said, x1 + 4, top + MARK_ROW - 3)) text(ctx, said, x1 + 4, top + MARK_ROW - 3, bad ? c.missed : c.muted);
      continue;
    }
    const tone = state === 'working' ? c.working : state === 'paused' ? c.paused : c.waiting;
    const a = clampX(x1);
    const w = Math.max(1, clampX(x2) - a);
    ctx.fillStyle = tone.tint;
    ctx.fillRect(a, top, w, MARK_ROW);
    ctx.fillStyle = tone.strip;
    ctx.fillRect(a, top + MARK_ROW - 3, w, 2);
    if (state !== 'paused') continue;
    // Paused: hatched across the row, so the stretch shows without its colour.
    ctx.save();
    ctx.beginPath();
    ctx.rect(a, top, w, MARK_ROW);
    ctx.clip();
    ctx.strokeStyle = tone.strip;
    ctx.globalAlpha = 0.45;
    ctx.beginPath();
    const from = Math.floor(a / 8) * 8;
    for (let x = from; x < a + w + MARK_ROW; x += 8) {
      ctx.moveTo(x, top + MARK_ROW);
      ctx.lineTo(x - MARK_ROW, top);
    }
    ctx.stroke();
    ctx.restore();
    const said = `paused ${formatDuration(Math.round(p.stretches[o + STRETCH.END] - p.stretches[o + STRETCH.START]))}`;
    if (said.length * CHAR + 8 < w && f.place(said, a + 4, top + 6)) text(ctx, said, a + 4, top + 6, c.text);
  }

  for (let i = 0, n = rows(p.parkings, PARKING.STRIDE); i < n; i++) {
    const o = i * PARKING.STRIDE;
    const la = p.parkings[o + PARKING.FROM_LANE];
    const lb = p.parkings[o + PARKING.TO_LANE];
    if ((la < f.firstLane && lb < f.firstLane) || (la > f.lastLane && lb > f.lastLane)) continue;
    const x1 = xOf(view, p.parkings[o + PARKING.FROM_T]);
    const x2 = xOf(view, p.parkings[o + PARKING.TO_T]);
    if (Math.max(x1, x2) < f.minX || Math.min(x1, x2) > f.maxX) continue;
    const y1 = markY(l, la);
    const y2 = markY(l, lb);
    const drop = Math.max(y1, y2) + MARK_ROW;
    ctx.strokeStyle = c.paused.strip;
    ctx.lineWidth = 1.5;
    ctx.setLineDash([4, 3]);
    ctx.beginPath();
    ctx.moveTo(x1, y1 + MARK_RADIUS + 1);
    ctx.bezierCurveTo(x1, drop, x2, drop, x2, y2 + MARK_RADIUS + 2);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.lineWidth = 1;
    // The arrowhead at the record that unparked it.
    ctx.fillStyle = c.paused.strip;
    ctx.beginPath();
    ctx.moveTo(x2, y2 + MARK_RADIUS + 1);
    ctx.lineTo(x2 - 4, y2 + MARK_RADIUS + 8);
    ctx.lineTo(x2 + 4, y2 + MARK_RADIUS + 8);
    ctx.fill();
    const said = `parked ${formatDuration(Math.round(p.parkings[o + PARKING.TO_T] - p.parkings[o + PARKING.FROM_T]))}`;
    const x = (x1 + x2) / 2 - (said.length * CHAR) / 2;
    if (f.place(said, x, drop - 4)) text(ctx, said, x, drop - 4, c.paused.strip);
  }
}
