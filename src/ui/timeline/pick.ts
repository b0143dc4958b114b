// What is under a point of the timeline's canvas: the mark a click picks, or the stream whose bar it
// hits. Pure: no canvas, no DOM.
import { rows, STREAM, type TimelinePack } from '../../wire/timeline-pack';
import { laneAt, streamY, type TimelineLayout } from './layout';
import { markNear, type TimeView, xOf } from './view';

/** How far a click may be from a mark and still pick it (px). */
const HIT = 8;

/** The mark at a point (within HIT pixels along its lane), or -1. */
export function markAt(p: TimelinePack, view: TimeView, l: TimelineLayout, x: number, y: number): number {
  const lane = laneAt(l, y);
  if (lane < 0 || lane >= p.lanes.length || y < l.axis) return -1;
  return markNear(p.marks, view, lane, x, HIT);
}

/** The record of the stream whose bar is at a point (its opening chunk), or -1. */
export function streamAt(p: TimelinePack, view: TimeView, l: TimelineLayout, x: number, y: number): number {
  for (let i = 0, n = rows(p.streams, STREAM.STRIDE); i < n; i++) {
    const o = i * STREAM.STRIDE;
    const by = streamY(l, p.streams[o + STREAM.LANE]);
    if (y < by - 3 || y > by + 8) continue;
    if (x >= xOf(view, p.streams[o + STREAM.START]) - 2 && x <= xOf(view, p.streams[o + STREAM.END]) + 2) return p.streams[o + STREAM.RECORD];
  }
  return -1;
}
