// What a lane's tracks carry: command → answer spans and deadlines, each batched into a path per
// colour and merged per pixel of its track (at a zoom where hundreds share a few pixels, a frame
// draws what shows).
import { formatDuration } from '../../core/time';
import { MAX_TRACKS } from '../../core/timeline/model';
import { DEADLINE, DEADLINE_STATES, rows, SPAN, type TimelinePack } from '../../wire/timeline-pack';
import { text } from './canvas-text';
import { CHAR, type DrawState, type PaintFrame } from './frame';
import { trackY } from './layout';
import type { Palette } from './palette';
import { xOf } from './view';

const STATE = Object.fromEntries(DEADLINE_STATES.map((s, i) => [s, i])) as Record<(typeof DEADLINE_STATES)[number], number>;

/** Reused per frame: per-track merging of spans, flags and labels (the spans fill it first, then the deadlines). */
const scratch = {
  slotA: new Int32Array(0),
  slotB: new Int32Array(0),
  labelEnd: new Float64Array(0),
  dashA: new Float64Array(0),
  dashB: new Float64Array(0),
  dashY: new Float64Array(0),
};

/** The scratch, grown to this many slots (a lane's tracks each). */
function scratchFor(slots: number) {
  if (scratch.slotA.length < slots) {
    scratch.slotA = new Int32Array(slots);
    scratch.slotB = new Int32Array(slots);
    scratch.labelEnd = new Float64Array(slots);
  }
  if (scratch.dashA.length < 2 * slots) {
    scratch.dashA = new Float64Array(2 * slots);
    scratch.dashB = new Float64Array(2 * slots);
    scratch.dashY = new Float64Array(2 * slots);
  }
  return scratch;
}

/**
 * Adds [a, b] at height y to the open run of slot k: joined when they touch (within a pixel), else
 * the open run goes to `out` (as a, b, y) and this one opens. Runs left open are flushed by the caller.
 */
function joinRun(k: number, a: number, b: number, y: number, out: number[]): void {
  const { dashA, dashB, dashY } = scratch;
  if (Number.isNaN(dashA[k]) || a > dashB[k] + 1 || b < dashA[k] - 1) {
    if (!Number.isNaN(dashA[k])) out.push(dashA[k], dashB[k], dashY[k]);
    dashA[k] = a;
    dashB[k] = b;
    dashY[k] = y;
  } else {
    dashA[k] = Math.min(dashA[k], a);
    dashB[k] = Math.max(dashB[k], b);
  }
}

/**
 * Command → answer spans on their command's track, labelled with the latency (where it fits: before
 * a deadline flag on it, and after the previous label on the track). Batched into one path per
 * colour, and a span whose ends fall on the same pixels as the previous one on its track is skipped.
 */
export function drawSpans(ctx: CanvasRenderingContext2D, p: TimelinePack, s: DrawState, c: Palette, f: PaintFrame): void {
  const { view, layout: l } = s;
  const { minX, maxX, clampX, visibleLane, fits } = f;
  const slots = p.lanes.length * MAX_TRACKS;
  const { slotA, slotB, labelEnd, dashA, dashB, dashY } = scratchFor(slots);
  slotA.fill(-1 << 30);
  slotB.fill(-1 << 30);
  labelEnd.fill(-Infinity);
  dashA.fill(Number.NaN);
  // Plain spans: their lines joined where they overlap on a track, and their end ticks once a pixel
  // (at a zoom where hundreds of spans share a few pixels, a frame draws what shows).
  const plain: number[] = [];
  const plainTicks: number[] = [];
  const lastTick = slotB;
  const skewedSpans: number[] = [];
  for (let i = 0, n = rows(p.spans, SPAN.STRIDE); i < n; i++) {
    const o = i * SPAN.STRIDE;
    const lane = p.spans[o + SPAN.LANE];
    if (!visibleLane(lane)) continue;
    const x1 = xOf(view, p.spans[o + SPAN.START]);
    const x2 = xOf(view, p.spans[o + SPAN.END]);
    if (Math.max(x1, x2) < minX || Math.min(x1, x2) > maxX) continue;
    const track = p.spans[o + SPAN.TRACK];
    const slot = lane * MAX_TRACKS + track;
    const a = Math.round(x1);
    const b = Math.round(x2);
    const y = trackY(l, lane, track);
    const skewed = x2 < x1;
    if (skewed) skewedSpans.push(x1, x2, y);
    else {
      joinRun(slot * 2, clampX(x1), clampX(x2), y, plain);
      for (const x of [a, b]) {
        if (x < minX || x > maxX || lastTick[slot] === x) continue;
        lastTick[slot] = x;
        plainTicks.push(x, y);
      }
    }
    // One label a pixel pair: the first span there.
    if (slotA[slot] === a * 65536 + b) continue;
    slotA[slot] = a * 65536 + b;
    const left = Math.min(x1, x2);
    if (left < labelEnd[slot]) continue;
    const deadline = p.spans[o + SPAN.DEADLINE];
    const xd = Number.isNaN(deadline) ? Infinity : xOf(view, deadline);
    const room = (xd > left ? Math.min(xd, Math.max(x1, x2)) : Math.max(x1, x2)) - left;
    if (room < 30) continue;
    const label = formatDuration(Math.round(p.spans[o + SPAN.END] - p.spans[o + SPAN.START]));
    if (!fits(label, room)) continue;
    text(ctx, label, left + 4, y - 7, skewed ? c.skew : c.muted);
    labelEnd[slot] = left + 8 + label.length * CHAR;
  }
  for (let k = 0; k < 2 * slots; k += 2) if (!Number.isNaN(dashA[k])) plain.push(dashA[k], dashB[k], dashY[k]);
  if (plain.length > 0) {
    ctx.strokeStyle = c.span;
    ctx.beginPath();
    for (let k = 0; k < plain.length; k += 3) {
      ctx.moveTo(plain[k], plain[k + 2]);
      ctx.lineTo(plain[k + 1], plain[k + 2]);
    }
    for (let k = 0; k < plainTicks.length; k += 2) {
      ctx.moveTo(plainTicks[k], plainTicks[k + 1] - 3);
      ctx.lineTo(plainTicks[k], plainTicks[k + 1] + 3);
    }
    ctx.stroke();
  }
  if (skewedSpans.length > 0) {
    ctx.strokeStyle = c.skew;
    ctx.beginPath();
    for (let k = 0; k < skewedSpans.length; k += 3) {
      const [x1, x2, y] = [skewedSpans[k], skewedSpans[k + 1], skewedSpans[k + 2]];
      ctx.moveTo(clampX(x1), y);
      ctx.lineTo(clampX(x2), y);
      // The ends, where they are in view.
      for (const x of [x1, x2]) {
        if (x < minX || x > maxX) continue;
        ctx.moveTo(x, y - 3);
        ctx.lineTo(x, y + 3);
      }
    }
    ctx.stroke();
  }
}

/**
 * Deadlines on the command's lane: a flag at the deadline in its state's colour; a miss a solid
 * red bar to the late answer, with the words; unanswered and pending a dashed line from the
 * command. Batched by state; a flag on the same pixel of its track as the previous one is skipped.
 */
export function drawDeadlines(ctx: CanvasRenderingContext2D, p: TimelinePack, s: DrawState, c: Palette, f: PaintFrame): void {
  const { view, layout: l } = s;
  const { minX, maxX, clampX, visibleLane, fits, place } = f;
  const slots = p.lanes.length * MAX_TRACKS;
  const { slotA, labelEnd, dashA, dashB, dashY } = scratchFor(slots);
  const byState = DEADLINE_STATES.map(() => ({ flags: [] as number[], dashes: [] as number[], bars: [] as number[] }));
  const stateColor = (state: number) => (state === STATE.missed || state === STATE.unanswered ? c.missed : state === STATE.met ? c.met : c.pending);
  slotA.fill(-1 << 30);
  labelEnd.fill(-Infinity);
  const words: [string, number, number][] = [];
  dashA.fill(Number.NaN);
  for (let i = 0, n = rows(p.deadlines, DEADLINE.STRIDE); i < n; i++) {
    const o = i * DEADLINE.STRIDE;
    const lane = p.deadlines[o + DEADLINE.LANE];
    if (!visibleLane(lane)) continue;
    const state = p.deadlines[o + DEADLINE.STATE];
    const x0 = xOf(view, p.deadlines[o + DEADLINE.START]);
    const xd = xOf(view, p.deadlines[o + DEADLINE.AT]);
    const missedBy = p.deadlines[o + DEADLINE.MISSED_BY];
    const xa = state === STATE.missed ? xOf(view, p.deadlines[o + DEADLINE.AT] + missedBy) : xd;
    if (Math.max(x0, xd, xa) < minX || Math.min(x0, xd) > maxX) continue;
    const track = p.deadlines[o + DEADLINE.TRACK];
    const slot = lane * MAX_TRACKS + track;
    const y = trackY(l, lane, track);
    const into = byState[state];
    if (state === STATE.unanswered || state === STATE.pending) {
      // Dashed from the command to the deadline; overlapping ones on a track are drawn as one.
      const a = clampX(Math.min(x0, xd));
      const b = clampX(Math.max(x0, xd));
      joinRun(slot * 2 + (state === STATE.unanswered ? 1 : 0), a, b, y, into.dashes);
    }
    // A solid bar, 4 px on whole pixels, from the deadline to the late answer: the miss, at a glance.
    if (state === STATE.missed) {
      const a = Math.round(clampX(xd));
      into.bars.push(a, Math.round(y) - 2, Math.max(2, Math.round(clampX(xa)) - a));
    }
    const px = Math.round(xd) * 8 + state;
    if (slotA[slot] === px) continue;
    slotA[slot] = px;
    into.flags.push(xd, y);
    if (state !== STATE.missed && state !== STATE.unanswered) continue;
    if (xd + 9 < labelEnd[slot]) continue;
    const said = state === STATE.missed ? `⚠ deadline missed by ${formatDuration(Math.round(missedBy))}` : '⚠ deadline passed, no answer';
    const room = p.deadlines[o + DEADLINE.ROOM];
    if (!Number.isNaN(room) && !fits(said, xOf(view, p.deadlines[o + DEADLINE.AT] + room) - xd)) continue;
    if (!place(said, xd + 9, y - 7)) continue;
    words.push([said, xd + 9, y - 7]);
    labelEnd[slot] = xd + 13 + said.length * CHAR;
  }
  for (let k = 0; k < 2 * slots; k++) if (!Number.isNaN(dashA[k])) byState[k % 2 ? STATE.unanswered : STATE.pending].dashes.push(dashA[k], dashB[k], dashY[k]);
  for (let state = 0; state < byState.length; state++) {
    const { flags, dashes, bars } = byState[state];
    const color = stateColor(state);
    ctx.strokeStyle = color;
    ctx.fillStyle = color;
    if (dashes.length > 0) {
      ctx.setLineDash([4, 3]);
      ctx.beginPath();
      for (let k = 0; k < dashes.length; k += 3) {
        ctx.moveTo(dashes[k], dashes[k + 2]);
        ctx.lineTo(dashes[k + 1], dashes[k + 2]);
      }
      ctx.stroke();
      ctx.setLineDash([]);
    }
    for (let k = 0; k < bars.length; k += 3) ctx.fillRect(bars[k], bars[k + 1], bars[k + 2], 4);
    if (flags.length === 0) continue;
    // The flags: a pole, and a pennant.
    ctx.lineWidth = 2;
    ctx.beginPath();
    for (let k = 0; k < flags.length; k += 2) {
      ctx.moveTo(flags[k], flags[k + 1] - 12);
      ctx.lineTo(flags[k], flags[k + 1] + 4);
    }
    ctx.stroke();
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (let k = 0; k < flags.length; k += 2) {
      ctx.moveTo(flags[k], flags[k + 1] - 12);
      ctx.lineTo(flags[k] + 6, flags[k + 1] - 9);
      ctx.lineTo(flags[k], flags[k + 1] - 6);
      ctx.closePath();
    }
    ctx.fill();
  }
  for (const [said, x, y] of words) text(ctx, said, x, y, c.missed);
}
