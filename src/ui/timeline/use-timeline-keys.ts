// The keys of the timeline's canvas (a widget of its own while it has focus): + and − zoom about
// the middle, the arrows pan the time and scroll the lanes, Home fits it all, ] and [ step from
// mark to mark (each brought into view), Enter and Space select the keyboard's mark.
import type { KeyboardEvent } from 'react';
import { MARK, type TimelinePack } from '../../wire/timeline-pack';
import type { Viewport, ViewportMoves } from './use-timeline-viewport';
import { panBy, zoomAt } from './view';

/** Arrow keys scroll the lanes by this much. */
const LANE_STEP = 60;
const KEY_ZOOM = 1.5;

export function useTimelineKeys({
  pack,
  count,
  viewport,
  moves,
  schedule,
  focused,
  setFocused,
  onSelect,
}: {
  pack: TimelinePack;
  /** The marks drawn. */
  count: number;
  viewport: Viewport;
  moves: Pick<ViewportMoves, 'setScroll' | 'fit' | 'reveal'>;
  schedule: () => void;
  /** The keyboard's mark (-1: none yet). */
  focused: number;
  setFocused: (mark: number) => void;
  onSelect: (record: number) => void;
}) {
  const { view, size, scroll } = viewport;
  const { setScroll, fit, reveal } = moves;
  return (e: KeyboardEvent<HTMLDivElement>) => {
    const v = view.current;
    if (!v) return;
    const w = size.current.width;
    const move = (i: number) => {
      const next = Math.max(0, Math.min(count - 1, i));
      if (count === 0) return;
      setFocused(next);
      reveal(next);
    };
    switch (e.key) {
      case '+':
      case '=':
        view.current = zoomAt(v, KEY_ZOOM, w / 2);
        break;
      case '-':
      case '_':
        view.current = zoomAt(v, 1 / KEY_ZOOM, w / 2);
        break;
      case 'ArrowLeft':
        view.current = panBy(v, -w / 8);
        break;
      case 'ArrowRight':
        view.current = panBy(v, w / 8);
        break;
      case 'ArrowUp':
        setScroll(scroll.current - LANE_STEP);
        break;
      case 'ArrowDown':
        setScroll(scroll.current + LANE_STEP);
        break;
      case 'Home':
        fit();
        setScroll(0);
        break;
      case ']':
        move(focused < 0 ? 0 : focused + 1);
        break;
      case '[':
        move(focused < 0 ? 0 : focused - 1);
        break;
      case 'Enter':
      case ' ':
        if (focused < 0) return;
        onSelect(pack.marks[focused * MARK.STRIDE + MARK.RECORD]);
        break;
      default:
        return;
    }
    e.preventDefault();
    schedule();
  };
}
