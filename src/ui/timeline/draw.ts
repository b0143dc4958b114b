// Drawing the packed timeline on a 2D canvas: only what is in view (marks found by binary search in
// time, lanes by the scroll offset), marks batched by verdict into one path each and merged per
// pixel (the worst verdict at a pixel wins), so a frame costs about what the screen shows, not the
// number of records. Colours and glyphs: a mark's verdict in the badge tones, and a glyph that says
// it without colour (circle, ring, diamond, triangle, crossed square).
import { formatDuration } from '../../core/time';
import { MARK_VERDICTS, MAX_TRACKS } from '../../core/timeline/model';
import {
  DEADLINE,
  DEADLINE_STATES,
  LINK,
  MARK,
  MARK_FLAG,
  PARKING,
  rows,
  SKEW,
  SPAN,
  STREAM,
  STREAM_TERMINALS,
  STRETCH,
  type TimelinePack,
} from '../../wire/timeline-pack';
import { firstMarkFrom, ticks, xOf, type TimeView } from './view';

export interface TimelineLayout {
  width: number;
  height: number;
  /** Height of the time axis at the top. */
  axis: number;
  /** Pixels of lanes scrolled out of view above. */
  scroll: number;
  /** Each lane's top, from the first lane's (one more than the lanes: the last is the bottom). */
  tops: Float64Array;
  /** Each lane's tracks of spans and deadlines (pack.laneTracks). */
  tracks: readonly number[];
}

/** A lane, top to bottom: padding, its tracks of spans and deadlines, its marks, its stream bars. */
const LANE_PAD = 4;
export const TRACK = 16;
const MARK_ROW = 22;
const STREAM_ROW = 12;

/** Each lane's top for lanes of these tracks, and the bottom of the last (length: lanes + 1). */
export function laneTops(tracks: readonly number[]): Float64Array {
  const tops = new Float64Array(tracks.length + 1);
  for (let i = 0; i < tracks.length; i++) tops[i + 1] = tops[i] + LANE_PAD + Math.max(1, tracks[i]) * TRACK + MARK_ROW + STREAM_ROW;
  return tops;
}

/** A lane's top on the canvas. */
const laneTop = (l: TimelineLayout, lane: number) => l.axis + l.tops[lane] - l.scroll;
/** The y of a lane's marks. */
export const markY = (l: TimelineLayout, lane: number) => laneTop(l, lane) + LANE_PAD + Math.max(1, l.tracks[lane]) * TRACK + MARK_ROW / 2;
/** The y of a track's line (spans, deadlines) in a lane. */
const trackY = (l: TimelineLayout, lane: number, track: number) => laneTop(l, lane) + LANE_PAD + track * TRACK + TRACK - 3;
/** The y of a lane's stream bars (their top). */
export const streamY = (l: TimelineLayout, lane: number) => markY(l, lane) + MARK_ROW / 2 + 1;

/** The lane at a canvas y: -1 above the first, the lane count below the last. */
export function laneAt(l: TimelineLayout, y: number): number {
  const at = y - l.axis + l.scroll;
  const n = l.tops.length - 1;
  if (at < 0) return -1;
  if (at >= l.tops[n]) return n;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (l.tops[mid] <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export interface Palette {
  text: string;
  muted: string;
  grid: string;
  laneAlt: string;
  span: string;
  link: string;
  stream: string;
  missed: string;
  met: string;
  pending: string;
  skew: string;
  selection: string;
  /** By verdict, in MARK_VERDICTS order. */
  verdicts: readonly string[];
  /** A session's band: a tint behind its lane's marks and a strip below them, working, paused or any other state. */
  working: { tint: string; strip: string };
  paused: { tint: string; strip: string };
  waiting: { tint: string; strip: string };
}

// The badge tones (components/Badges.tsx): red for invalid and bad signatures, amber for an unknown
// key, orange for not trusted, emerald for trusted, slate for unsigned.
export const LIGHT: Palette = {
  text: '#334155',
  muted: '#475569',
  grid: '#e2e8f0',
  laneAlt: 'rgba(241, 245, 249, 0.8)',
  span: '#64748b',
  link: 'rgba(100, 116, 139, 0.45)',
  stream: 'rgba(13, 148, 136, 0.55)',
  missed: '#dc2626',
  met: '#059669',
  pending: '#94a3b8',
  skew: '#7c3aed',
  selection: '#0d9488',
  verdicts: ['#b91c1c', '#dc2626', '#d97706', '#ea580c', '#059669', '#64748b'],
  working: { tint: 'rgba(13, 148, 136, 0.08)', strip: '#0d9488' },
  paused: { tint: 'rgba(217, 119, 6, 0.16)', strip: '#b45309' },
  waiting: { tint: 'rgba(100, 116, 139, 0.1)', strip: '#64748b' },
};

export const DARK: Palette = {
  text: '#e2e8f0',
  muted: '#cbd5e1',
  grid: '#1e293b',
  laneAlt: 'rgba(30, 41, 59, 0.55)',
  span: '#94a3b8',
  link: 'rgba(148, 163, 184, 0.4)',
  stream: 'rgba(45, 212, 191, 0.5)',
  missed: '#f87171',
  met: '#34d399',
  pending: '#64748b',
  skew: '#a78bfa',
  selection: '#2dd4bf',
  verdicts: ['#f87171', '#f87171', '#fbbf24', '#fb923c', '#34d399', '#94a3b8'],
  working: { tint: 'rgba(45, 212, 191, 0.08)', strip: '#2dd4bf' },
  paused: { tint: 'rgba(251, 191, 36, 0.16)', strip: '#fbbf24' },
  waiting: { tint: 'rgba(148, 163, 184, 0.1)', strip: '#94a3b8' },
};

export interface DrawState {
  view: TimeView;
  layout: TimelineLayout;
  /** Mark indices (-1: none). */
  selected: number;
  focused: number;
  links: boolean;
}

const R = 4.5;
/**
 * The canvas writes in the page's own font at the size of the text around it (11 px), read once per
 * canvas: the same family the page's text already resolved, symbol fallbacks (⚠ ⟲) included, so a
 * frame never waits for a font of its own to be found.
 */
const fonts = new WeakMap<HTMLCanvasElement | OffscreenCanvas, string>();
function fontOf(canvas: HTMLCanvasElement | OffscreenCanvas): string {
  let font = fonts.get(canvas);
  if (font === undefined) {
    const family = typeof getComputedStyle === 'function' && 'isConnected' in canvas && canvas.isConnected ? getComputedStyle(canvas).fontFamily : '';
    font = `11px ${family || 'ui-sans-serif, system-ui, sans-serif'}`;
    fonts.set(canvas, font);
  }
  return font;
}
/** A rough width of the font's characters, to decide whether a label fits (measureText per label is not cheap). */
const CHAR = 6.2;
const V = Object.fromEntries(MARK_VERDICTS.map((v, i) => [v, i])) as Record<(typeof MARK_VERDICTS)[number], number>;
const STATE = Object.fromEntries(DEADLINE_STATES.map((s, i) => [s, i])) as Record<(typeof DEADLINE_STATES)[number], number>;
const TERMINAL = Object.fromEntries(STREAM_TERMINALS.map((s, i) => [s, i])) as Record<(typeof STREAM_TERMINALS)[number], number>;

/** A mark's glyph: a path added to the current one (filled by the caller). */
function glyph(ctx: CanvasRenderingContext2D, verdict: number, x: number, y: number): void {
  switch (verdict) {
    case V.invalid:
      ctx.rect(x - R, y - R, 2 * R, 2 * R);
      return;
    case V['bad-signature']:
      ctx.moveTo(x, y - R - 1);
      ctx.lineTo(x + R + 1, y + R);
      ctx.lineTo(x - R - 1, y + R);
      ctx.closePath();
      return;
    case V['unknown-key']:
      ctx.moveTo(x, y - R - 1);
      ctx.lineTo(x + R + 1, y);
      ctx.lineTo(x, y + R + 1);
      ctx.lineTo(x - R - 1, y);
      ctx.closePath();
      return;
    default:
      ctx.moveTo(x + R, y);
      ctx.arc(x, y, R, 0, 2 * Math.PI);
  }
}

function text(ctx: CanvasRenderingContext2D, s: string, x: number, y: number, color: string, align: CanvasTextAlign = 'left'): void {
  ctx.fillStyle = color;
  ctx.textAlign = align;
  ctx.fillText(s, x, y);
}

/** Reused per frame: x, y pairs by verdict, per-lane pixel merging of marks, and per-track merging of spans, flags and labels. */
const scratch = {
  xs: MARK_VERDICTS.map(() => [] as number[]),
  lastX: new Int32Array(0),
  lastV: new Int32Array(0),
  slotA: new Int32Array(0),
  slotB: new Int32Array(0),
  labelEnd: new Float64Array(0),
  dashA: new Float64Array(0),
  dashB: new Float64Array(0),
  dashY: new Float64Array(0),
};

/** States a session ends in badly: its end is drawn red. */
const FAILED_STATES = new Set(['failed', 'canceled', 'rejected']);

/**
 * Sessions, behind everything of their lanes: each state a stretch of tint behind the marks with a
 * strip below them (paused hatched, in amber, and said where there is room), the end a tick with
 * its state; parked work a dashed curve below the marks to the record that unparked it.
 */
function drawSessions(
  ctx: CanvasRenderingContext2D,
  p: TimelinePack,
  s: DrawState,
  c: Palette,
  at: {
    firstLane: number;
    lastLane: number;
    minX: number;
    maxX: number;
    clampX: (x: number) => number;
    place: (words: string, x: number, y: number) => boolean;
  },
): void {
  const { view, layout: l } = s;
  const { clampX } = at;
  for (let i = 0, n = rows(p.stretches, STRETCH.STRIDE); i < n; i++) {
    const o = i * STRETCH.STRIDE;
    const lane = p.stretches[o + STRETCH.LANE];
    if (lane < at.firstLane || lane > at.lastLane) continue;
    const x1 = xOf(view, p.stretches[o + STRETCH.START]);
    const x2 = xOf(view, p.stretches[o + STRETCH.END]);
    if (x2 < at.minX || x1 > at.maxX) continue;
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
      if (at.place(said, x1 + 4, top + MARK_ROW - 3)) text(ctx, said, x1 + 4, top + MARK_ROW - 3, bad ? c.missed : c.muted);
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
    if (said.length * CHAR + 8 < w && at.place(said, a + 4, top + 6)) text(ctx, said, a + 4, top + 6, c.text);
  }

  for (let i = 0, n = rows(p.parkings, PARKING.STRIDE); i < n; i++) {
    const o = i * PARKING.STRIDE;
    const la = p.parkings[o + PARKING.FROM_LANE];
    const lb = p.parkings[o + PARKING.TO_LANE];
    if ((la < at.firstLane && lb < at.firstLane) || (la > at.lastLane && lb > at.lastLane)) continue;
    const x1 = xOf(view, p.parkings[o + PARKING.FROM_T]);
    const x2 = xOf(view, p.parkings[o + PARKING.TO_T]);
    if (Math.max(x1, x2) < at.minX || Math.min(x1, x2) > at.maxX) continue;
    const y1 = markY(l, la);
    const y2 = markY(l, lb);
    const drop = Math.max(y1, y2) + MARK_ROW;
    ctx.strokeStyle = c.paused.strip;
    ctx.lineWidth = 1.5;
    ctx.setLineDash([4, 3]);
    ctx.beginPath();
    ctx.moveTo(x1, y1 + R + 1);
    ctx.bezierCurveTo(x1, drop, x2, drop, x2, y2 + R + 2);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.lineWidth = 1;
    // The arrowhead at the record that unparked it.
    ctx.fillStyle = c.paused.strip;
    ctx.beginPath();
    ctx.moveTo(x2, y2 + R + 1);
    ctx.lineTo(x2 - 4, y2 + R + 8);
    ctx.lineTo(x2 + 4, y2 + R + 8);
    ctx.fill();
    const said = `parked ${formatDuration(Math.round(p.parkings[o + PARKING.TO_T] - p.parkings[o + PARKING.FROM_T]))}`;
    const x = (x1 + x2) / 2 - (said.length * CHAR) / 2;
    if (at.place(said, x, drop - 4)) text(ctx, said, x, drop - 4, c.paused.strip);
  }
}

export function drawTimeline(ctx: CanvasRenderingContext2D, p: TimelinePack, s: DrawState, c: Palette): void {
  const { view, layout: l } = s;
  const W = l.width;
  const H = l.height;
  ctx.clearRect(0, 0, W, H);
  ctx.font = fontOf(ctx.canvas);
  ctx.textBaseline = 'middle';
  const firstLane = Math.max(0, laneAt(l, l.axis));
  const lastLane = Math.min(p.lanes.length - 1, laneAt(l, H));
  const fits = (words: string, room: number) => words.length * CHAR + 12 < room;
  const visibleLane = (lane: number) => lane >= firstLane && lane <= lastLane;
  const minX = -20;
  const maxX = W + 20;
  // Lines and bars end just outside the canvas: zoomed in, a minute-long line would be millions of
  // pixels (and its dashes millions of strokes) for the few hundred that show.
  const clampX = (x: number) => Math.min(maxX, Math.max(minX, x));
  // The words of streams, deadlines and skews take their place first come, first served: one that
  // would cover another is left out (the tooltip, the list above and the list view still say it).
  const placed: number[] = [];
  const place = (words: string, x: number, y: number) => {
    const right = x + words.length * CHAR;
    for (let k = 0; k < placed.length; k += 4) if (x < placed[k + 2] && placed[k] < right && y - 7 < placed[k + 3] && placed[k + 1] < y + 7) return false;
    if (placed.length >= 4 * 400) return false;
    placed.push(x, y - 7, right, y + 7);
    return true;
  };

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

  drawSessions(ctx, p, s, c, { firstLane, lastLane, minX, maxX, clampX, place });

  // Causal links (a toggle): child to parent, one path.
  if (s.links && p.links.length > 0) {
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

  // Chunk streams: a bar below the marks from the opening to the terminal, with how it ended.
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

  // Command → answer spans on their command's track, labelled with the latency (where it fits: before
  // a deadline flag on it, and after the previous label on the track). Batched into one path per
  // colour, and a span whose ends fall on the same pixels as the previous one on its track is skipped.
  const slots = p.lanes.length * MAX_TRACKS;
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
  const { slotA, slotB, labelEnd, dashA, dashB, dashY } = scratch;
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
      const k = slot * 2;
      const lo = clampX(x1);
      const hi = clampX(x2);
      if (Number.isNaN(dashA[k]) || lo > dashB[k] + 1 || hi < dashA[k] - 1) {
        if (!Number.isNaN(dashA[k])) plain.push(dashA[k], dashB[k], dashY[k]);
        dashA[k] = lo;
        dashB[k] = hi;
        dashY[k] = y;
      } else {
        dashA[k] = Math.min(dashA[k], lo);
        dashB[k] = Math.max(dashB[k], hi);
      }
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

  // Deadlines on the command's lane: a flag at the deadline in its state's colour; a miss a solid
  // red bar to the late answer, with the words; unanswered and pending a dashed line from the
  // command. Batched by state; a flag on the same pixel of its track as the previous one is skipped.
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
      const k = slot * 2 + (state === STATE.unanswered ? 1 : 0);
      if (Number.isNaN(dashA[k]) || a > dashB[k] + 1 || b < dashA[k] - 1) {
        if (!Number.isNaN(dashA[k])) into.dashes.push(dashA[k], dashB[k], dashY[k]);
        dashA[k] = a;
        dashB[k] = b;
        dashY[k] = y;
      } else {
        dashA[k] = Math.min(dashA[k], a);
        dashB[k] = Math.max(dashB[k], b);
      }
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

  // Clock skew: from what a record names (later) back to the record (earlier), with the difference.
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
    ctx.bezierCurveTo(x1, Math.min(y1, y2) - lift, x2, Math.min(y1, y2) - lift, x2, y2 - R - 2);
    ctx.stroke();
    ctx.lineWidth = 1;
    // The arrowhead at the earlier record.
    ctx.fillStyle = c.skew;
    ctx.beginPath();
    ctx.moveTo(x2, y2 - R - 1);
    ctx.lineTo(x2 - 4, y2 - R - 8);
    ctx.lineTo(x2 + 4, y2 - R - 8);
    ctx.fill();
    const said = `⟲ skew −${formatDuration(Math.round(p.skews[o + SKEW.BY]))}`;
    if (place(said, Math.max(x1, x2) + 8, Math.min(y1, y2) - lift + 4)) text(ctx, said, Math.max(x1, x2) + 8, Math.min(y1, y2) - lift + 4, c.skew);
  }

  // Marks, by verdict (the worst last, on top), merged per pixel of each lane.
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
      ctx.moveTo(rings[k] + R + 3, rings[k + 1]);
      ctx.arc(rings[k], rings[k + 1], R + 3, 0, 2 * Math.PI);
    }
    ctx.stroke();
    ctx.setLineDash([]);
  }
  if (skewRings.length > 0) {
    ctx.strokeStyle = c.skew;
    ctx.beginPath();
    for (let k = 0; k < skewRings.length; k += 2) {
      ctx.moveTo(skewRings[k] + R + 2, skewRings[k + 1]);
      ctx.arc(skewRings[k], skewRings[k + 1], R + 2, 0, 2 * Math.PI);
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
    ctx.arc(x, y, R + (dash ? 8 : 5), 0, 2 * Math.PI);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.lineWidth = 1;
  }

  ctx.restore();
  // The axis labels, over everything.
  ctx.textBaseline = 'middle';
  for (const t of axisTicks) if (t.x > -40 && t.x < W + 40) text(ctx, t.label, t.x + 4, l.axis / 2, c.muted);
}
