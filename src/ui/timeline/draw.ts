// Drawing the packed timeline on a 2D canvas: only what is in view (marks found by binary search in
// time, lanes by the scroll offset), marks batched by verdict into one path each and merged per
// pixel (the worst verdict at a pixel wins), so a frame costs about what the screen shows, not the
// number of records. Each layer has its painter, called here in the order they stack (sessions at
// the back, marks at the front); they share the frame (what is in view, where words went).
import type { TimelinePack } from '../../wire/timeline-pack';
import { fontOf, text } from './canvas-text';
import { type DrawState, frameOf } from './frame';
import { laneTop } from './layout';
import { drawLinks, drawSkews } from './links';
import { drawMarks } from './marks';
import type { Palette } from './palette';
import { drawSessions } from './sessions';
import { drawStreams } from './streams';
import { drawDeadlines, drawSpans } from './tracks';
import { ticks } from './view';

export function drawTimeline(ctx: CanvasRenderingContext2D, p: TimelinePack, s: DrawState, c: Palette): void {
  const { view, layout: l } = s;
  const W = l.width;
  const H = l.height;
  ctx.clearRect(0, 0, W, H);
  ctx.font = fontOf(ctx.canvas);
  ctx.textBaseline = 'middle';
  const f = frameOf(l, p.lanes.length);
  const { firstLane, lastLane } = f;

  // Everything but the axis labels stays below the axis.
  ctx.save();
  ctx.beginPath();
  ctx.rect(0, l.axis, W, H - l.axis);
  ctx.clip();
  // Lanes, striped, and the time grid.
  for (let lane = firstLane; lane <= lastLane; lane++) {
    if (lane % 2 === 1) {
      ctx.fillStyle = c.laneAlt;
      ctx.fillRect(0, laneTop(l, lane), W, l.tops[lane + 1] - l.tops[lane]);
    }
  }
  const axisTicks = ticks(view, W);
  ctx.strokeStyle = c.grid;
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (const t of axisTicks) {
    const x = Math.round(t.x) + 0.5;
    ctx.moveTo(x, l.axis);
    ctx.lineTo(x, H);
  }
  ctx.moveTo(0, l.axis - 0.5);
  ctx.lineTo(W, l.axis - 0.5);
  ctx.stroke();

  drawSessions(ctx, p, s, c, f);
  drawLinks(ctx, p, s, c, f);
  drawStreams(ctx, p, s, c, f);
  drawSpans(ctx, p, s, c, f);
  drawDeadlines(ctx, p, s, c, f);
  drawSkews(ctx, p, s, c, f);
  drawMarks(ctx, p, s, c, f);

  ctx.restore();
  // The axis labels, over everything.
  ctx.textBaseline = 'middle';
  for (const t of axisTicks) if (t.x > -40 && t.x < W + 40) text(ctx, t.label, t.x + 4, l.axis / 2, c.muted);
}
