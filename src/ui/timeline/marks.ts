// Marks: a record's verdict in the badge tones and a glyph that says it without colour (circle,
// ring, diamond, triangle, crossed square), rings for late and skewed records, and the selected and
// the keyboard's marks ringed.
import { MARK_VERDICTS } from '../../core/timeline/model';
import { MARK, MARK_FLAG, rows, type TimelinePack } from '../../wire/timeline-pack';
import type { DrawState, PaintFrame } from './frame';
import { MARK_RADIUS, markY } from './layout';
import type { Palette } from './palette';
import { firstMarkFrom, xOf } from './view';

const V = Object.fromEntries(MARK_VERDICTS.map((v, i) => [v, i])) as Record<(typeof MARK_VERDICTS)[number], number>;

/** A mark's glyph: a path added to the current one (filled by the caller). */
function glyph(ctx: CanvasRenderingContext2D, verdict: number, x: number, y: number): void {
  switch (verdict) {
    case V.invalid:
      ctx.rect(x - MARK_RADIUS, y - MARK_RADIUS, 2 * MARK_RADIUS, 2 * MARK_RADIUS);
      return;
    case V['bad-signature']:
      ctx.moveTo(x, y - MARK_RADIUS - 1);
      ctx.lineTo(x + MARK_RADIUS + 1, y + MARK_RADIUS);
      ctx.lineTo(x - MARK_RADIUS - 1, y + MARK_RADIUS);
      ctx.closePath();
      return;
    case V['unknown-key']:
      ctx.moveTo(x, y - MARK_RADIUS - 1);
      ctx.lineTo(x + MARK_RADIUS + 1, y);
      ctx.lineTo(x, y + MARK_RADIUS + 1);
      ctx.lineTo(x - MARK_RADIUS - 1, y);
      ctx.closePath();
      return;
    default:
      ctx.moveTo(x + MARK_RADIUS, y);
      ctx.arc(x, y, MARK_RADIUS, 0, 2 * Math.PI);
  }
}

/** Reused per frame: x, y pairs by verdict, and per-lane pixel merging of marks. */
const scratch = {
  xs: MARK_VERDICTS.map(() => [] as number[]),
  lastX: new Int32Array(0),
  lastV: new Int32Array(0),
};

/** Marks, by verdict (the worst last, on top), merged per pixel of each lane; then the selected mark and the keyboard's. */
export function drawMarks(ctx: CanvasRenderingContext2D, p: TimelinePack, s: DrawState, c: Palette, f: PaintFrame): void {
  const { view, layout: l } = s;
  const { minX, maxX, visibleLane } = f;
  const marks = p.marks;
  const from = firstMarkFrom(marks, view.start + minX * view.perPx);
  const until = view.start + maxX * view.perPx;
  if (scratch.lastX.length < p.lanes.length) {
    scratch.lastX = new Int32Array(p.lanes.length);
    scratch.lastV = new Int32Array(p.lanes.length);
  }
  scratch.lastX.fill(-1 << 30);
  for (const xs of scratch.xs) xs.length = 0;
  const rings: number[] = [];
  const skewRings: number[] = [];
  const count = rows(marks, MARK.STRIDE);
  for (let i = from; i < count; i++) {
    const o = i * MARK.STRIDE;
    const t = marks[o + MARK.T];
    if (t > until) break;
    const lane = marks[o + MARK.LANE];
    if (!visibleLane(lane)) continue;
    const x = xOf(view, t);
    const px = Math.round(x);
    const v = marks[o + MARK.VERDICT];
    if (px === scratch.lastX[lane] && v >= scratch.lastV[lane]) continue;
    scratch.lastX[lane] = px;
    scratch.lastV[lane] = v;
    const y = markY(l, lane);
    scratch.xs[v].push(x, y);
    const flags = marks[o + MARK.FLAGS];
    if (flags & MARK_FLAG.LATE) rings.push(x, y);
    if (flags & MARK_FLAG.SKEWED) skewRings.push(x, y);
  }
  for (let v = MARK_VERDICTS.length - 1; v >= 0; v--) {
    const xs = scratch.xs[v];
    if (xs.length === 0) continue;
    ctx.fillStyle = c.verdicts[v];
    ctx.beginPath();
    for (let k = 0; k < xs.length; k += 2) glyph(ctx, v, xs[k], xs[k + 1]);
    ctx.fill();
    if (v === V.untrusted || v === V.invalid) {
      // Not trusted: a ring (a hollow centre); invalid: a cross through the square.
      ctx.strokeStyle = v === V.untrusted ? c.verdicts[v] : '#ffffff';
      ctx.fillStyle = '#ffffff';
      ctx.beginPath();
      for (let k = 0; k < xs.length; k += 2) {
        if (v === V.untrusted) {
          ctx.moveTo(xs[k] + 2, xs[k + 1]);
          ctx.arc(xs[k], xs[k + 1], 2, 0, 2 * Math.PI);
        } else {
          ctx.moveTo(xs[k] - 2.5, xs[k + 1] - 2.5);
          ctx.lineTo(xs[k] + 2.5, xs[k + 1] + 2.5);
          ctx.moveTo(xs[k] + 2.5, xs[k + 1] - 2.5);
          ctx.lineTo(xs[k] - 2.5, xs[k + 1] + 2.5);
        }
      }
      if (v === V.untrusted) ctx.fill();
      else ctx.stroke();
    }
  }
  if (rings.length > 0) {
    ctx.strokeStyle = c.missed;
    ctx.setLineDash([2, 2]);
    ctx.beginPath();
    for (let k = 0; k < rings.length; k += 2) {
      ctx.moveTo(rings[k] + MARK_RADIUS + 3, rings[k + 1]);
      ctx.arc(rings[k], rings[k + 1], MARK_RADIUS + 3, 0, 2 * Math.PI);
    }
    ctx.stroke();
    ctx.setLineDash([]);
  }
  if (skewRings.length > 0) {
    ctx.strokeStyle = c.skew;
    ctx.beginPath();
    for (let k = 0; k < skewRings.length; k += 2) {
      ctx.moveTo(skewRings[k] + MARK_RADIUS + 2, skewRings[k + 1]);
      ctx.arc(skewRings[k], skewRings[k + 1], MARK_RADIUS + 2, 0, 2 * Math.PI);
    }
    ctx.stroke();
  }

  // The selected mark and the keyboard's mark.
  for (const [index, dash] of [
    [s.selected, false],
    [s.focused, true],
  ] as const) {
    if (index < 0 || index >= count) continue;
    const o = index * MARK.STRIDE;
    const lane = marks[o + MARK.LANE];
    if (!visibleLane(lane)) continue;
    const x = xOf(view, marks[o + MARK.T]);
    const y = markY(l, lane);
    ctx.strokeStyle = c.selection;
    ctx.lineWidth = 2;
    if (dash) ctx.setLineDash([3, 2]);
    ctx.beginPath();
    ctx.arc(x, y, MARK_RADIUS + (dash ? 8 : 5), 0, 2 * Math.PI);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.lineWidth = 1;
  }
}
