// Where things are on the timeline's canvas, top to bottom: the axis, then the lanes (each its
// padding, its tracks of spans and deadlines, its marks, its stream bars), scrolled. Pure: no canvas,
// no DOM; the painters and the picking share it.
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
const TRACK = 16;
export const MARK_ROW = 22;
const STREAM_ROW = 12;

/** Each lane's top for lanes of these tracks, and the bottom of the last (length: lanes + 1). */
export function laneTops(tracks: readonly number[]): Float64Array {
  const tops = new Float64Array(tracks.length + 1);
  for (let i = 0; i < tracks.length; i++) tops[i + 1] = tops[i] + LANE_PAD + Math.max(1, tracks[i]) * TRACK + MARK_ROW + STREAM_ROW;
  return tops;
}

/** A lane's top on the canvas. */
export const laneTop = (l: TimelineLayout, lane: number) => l.axis + l.tops[lane] - l.scroll;
/** The y of a lane's marks. */
export const markY = (l: TimelineLayout, lane: number) => laneTop(l, lane) + LANE_PAD + Math.max(1, l.tracks[lane]) * TRACK + MARK_ROW / 2;
/** The y of a track's line (spans, deadlines) in a lane. */
export const trackY = (l: TimelineLayout, lane: number, track: number) => laneTop(l, lane) + LANE_PAD + track * TRACK + TRACK - 3;
/** The y of a lane's stream bars (their top). */
export const streamY = (l: TimelineLayout, lane: number) => markY(l, lane) + MARK_ROW / 2 + 1;

/** A mark's radius (px): the glyphs, their rings and the arrowheads that end at a mark. */
export const MARK_RADIUS = 4.5;

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
