// What one frame of the timeline draws, and what every painter of it shares: the lanes and the
// stretch of x in view, and where words may go. Pure: no canvas, no DOM.
import { laneAt, type TimelineLayout } from './layout';
import type { TimeView } from './view';

/** What a frame draws: the view and layout, the selected and the keyboard's marks, and whether links show. */
export interface DrawState {
  view: TimeView;
  layout: TimelineLayout;
  /** Mark indices (-1: none). */
  selected: number;
  focused: number;
  links: boolean;
}

/** A rough width of the font's characters, to decide whether a label fits (measureText per label is not cheap). */
export const CHAR = 6.2;

/** The lanes and x in view, and the words placed so far: made once a frame, handed to each painter. */
export interface PaintFrame {
  /** The lanes in view, first and last. */
  firstLane: number;
  lastLane: number;
  /** The x drawn, a little beyond the canvas's edges. */
  minX: number;
  maxX: number;
  clampX: (x: number) => number;
  visibleLane: (lane: number) => boolean;
  /** Whether words fit in a room so many pixels wide. */
  fits: (words: string, room: number) => boolean;
  /** Takes the place of words at (x, y); false where they would cover words placed before. */
  place: (words: string, x: number, y: number) => boolean;
}

/** The frame of a layout of so many lanes. */
export function frameOf(l: TimelineLayout, lanes: number): PaintFrame {
  const W = l.width;
  const H = l.height;
  const firstLane = Math.max(0, laneAt(l, l.axis));
  const lastLane = Math.min(lanes - 1, laneAt(l, H));
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
  return { firstLane, lastLane, minX, maxX, clampX, visibleLane, fits, place };
}
