// Lines from record to record: causal links (a toggle) and clock skew.
import { formatDuration } from '../../core/time';
import { LINK, rows, SKEW, type TimelinePack } from '../../wire/timeline-pack';
import { text } from './canvas-text';
import type { DrawState, PaintFrame } from './frame';
import { MARK_RADIUS, MARK_ROW, markY } from './layout';
import type { Palette } from './palette';
import { xOf } from './view';

/** Causal links (a toggle): child to parent, one path. */
export function drawLinks(ctx: CanvasRenderingContext2D, p: TimelinePack, s: DrawState, c: Palette, f: PaintFrame): void {
  const { view, layout: l } = s;
  const { minX, maxX, firstLane, lastLane } = f;
  if (!s.links || p.links.length === 0) return;
  ctx.strokeStyle = c.link;
  ctx.beginPath();
  for (let i = 0, n = rows(p.links, LINK.STRIDE); i < n; i++) {
    const o = i * LINK.STRIDE;
    const x1 = xOf(view, p.links[o + LINK.FROM_T]);
    const x2 = xOf(view, p.links[o + LINK.TO_T]);
    if (Math.max(x1, x2) < minX || Math.min(x1, x2) > maxX) continue;
    const a = p.links[o + LINK.FROM_LANE];
    const b = p.links[o + LINK.TO_LANE];
    if ((a < firstLane && b < firstLane) || (a > lastLane && b > lastLane)) continue;
    ctx.moveTo(x1, markY(l, a));
    ctx.lineTo(x2, markY(l, b));
  }
  ctx.stroke();
}

/** Clock skew: an arrow from what a record names (later) back to the record (earlier), with the difference. */
export function drawSkews(ctx: CanvasRenderingContext2D, p: TimelinePack, s: DrawState, c: Palette, f: PaintFrame): void {
  const { view, layout: l } = s;
  const { minX, maxX, visibleLane, place } = f;
  ctx.strokeStyle = c.skew;
  for (let i = 0, n = rows(p.skews, SKEW.STRIDE); i < n; i++) {
    const o = i * SKEW.STRIDE;
    const a = p.skews[o + SKEW.LANE];
    const b = p.skews[o + SKEW.OTHER_LANE];
    if (!visibleLane(a) && !visibleLane(b)) continue;
    const x1 = xOf(view, p.skews[o + SKEW.OTHER_T]);
    const x2 = xOf(view, p.skews[o + SKEW.T]);
    if (x1 < minX || x2 > maxX) continue;
    const y1 = markY(l, b);
    const y2 = markY(l, a);
    const lift = MARK_ROW;
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.moveTo(x1, y1);
    ctx.bezierCurveTo(x1, Math.min(y1, y2) - lift, x2, Math.min(y1, y2) - lift, x2, y2 - MARK_RADIUS - 2);
    ctx.stroke();
    ctx.lineWidth = 1;
    // The arrowhead at the earlier record.
    ctx.fillStyle = c.skew;
    ctx.beginPath();
    ctx.moveTo(x2, y2 - MARK_RADIUS - 1);
    ctx.lineTo(x2 - 4, y2 - MARK_RADIUS - 8);
    ctx.lineTo(x2 + 4, y2 - MARK_RADIUS - 8);
    ctx.fill();
    const said = `⟲ skew −${formatDuration(Math.round(p.skews[o + SKEW.BY]))}`;
    if (place(said, Math.max(x1, x2) + 8, Math.min(y1, y2) - lift + 4)) text(ctx, said, Math.max(x1, x2) + 8, Math.min(y1, y2) - lift + 4, c.skew);
  }
}
