// Chunk streams: a bar below a lane's marks from the opening to the terminal, with how it ended.
import { rows, STREAM, STREAM_TERMINALS, type TimelinePack } from '../../wire/timeline-pack';
import { text } from './canvas-text';
import type { DrawState, PaintFrame } from './frame';
import { streamY } from './layout';
import type { Palette } from './palette';
import { xOf } from './view';

const TERMINAL = Object.fromEntries(STREAM_TERMINALS.map((s, i) => [s, i])) as Record<(typeof STREAM_TERMINALS)[number], number>;

/** Each stream's bar, its end (a tick, or two slashes at a gap), how it ended in words, and how many chunks came late. */
export function drawStreams(ctx: CanvasRenderingContext2D, p: TimelinePack, s: DrawState, c: Palette, f: PaintFrame): void {
  const { view, layout: l } = s;
  const { minX, maxX, clampX, visibleLane, place } = f;
  for (let i = 0, n = rows(p.streams, STREAM.STRIDE); i < n; i++) {
    const o = i * STREAM.STRIDE;
    const lane = p.streams[o + STREAM.LANE];
    if (!visibleLane(lane)) continue;
    const x1 = xOf(view, p.streams[o + STREAM.START]);
    const x2 = xOf(view, p.streams[o + STREAM.END]);
    if (x2 < minX || x1 > maxX) continue;
    const y = streamY(l, lane);
    ctx.fillStyle = c.stream;
    ctx.fillRect(clampX(x1), y, Math.max(2, clampX(x2) - clampX(x1)), 5);
    const terminal = p.streams[o + STREAM.TERMINAL];
    const words =
      terminal === TERMINAL.gap
        ? `⚠ gap${p.streamGaps[i].length ? ` at ${p.streamGaps[i].slice(0, 3).join(', ')}` : ''}`
        : terminal === TERMINAL.abandoned
          ? '⚠ abandoned'
          : terminal === TERMINAL.error
            ? 'ended by an error'
            : terminal === TERMINAL.open
              ? 'open…'
              : '';
    const alarm = terminal === TERMINAL.gap || terminal === TERMINAL.abandoned || terminal === TERMINAL.error;
    ctx.strokeStyle = alarm ? c.missed : c.span;
    ctx.lineWidth = 2;
    ctx.beginPath();
    if (terminal === TERMINAL.gap) {
      // A break: two slashes at the end.
      ctx.moveTo(x2 - 2, y + 8);
      ctx.lineTo(x2 + 2, y - 3);
      ctx.moveTo(x2 + 3, y + 8);
      ctx.lineTo(x2 + 7, y - 3);
    } else {
      ctx.moveTo(x2, y - 2);
      ctx.lineTo(x2, y + 7);
    }
    ctx.stroke();
    ctx.lineWidth = 1;
    if (words && place(words, x2 + 9, y + 3)) text(ctx, words, x2 + 9, y + 3, alarm ? c.missed : c.muted);
    const lateN = p.streams[o + STREAM.LATE_COUNT];
    if (lateN > 0) {
      const from = p.streams[o + STREAM.LATE_FROM];
      const lx = xOf(view, p.streamLate[from + lateN - 1]);
      if (lx > x2 + 60) text(ctx, `${lateN} late`, lx + 8, y + 3, c.missed);
    }
  }
}
