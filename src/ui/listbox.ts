// The keys of a single-select list (the WAI-ARIA listbox pattern, selection following focus), in
// one place for the record list, the field tree and the findings: Up and Down move one item,
// PageUp and PageDown a screenful, Home and End to the first and the last. Pure: no DOM.

/**
 * Where the selection goes from item `at` (−1: none yet) among `count` items, `page` of them on a
 * screen, for `key`; null for a key the pattern leaves alone, or an empty list.
 */
export function listboxTarget(key: string, at: number, count: number, page: number): number | null {
  if (!Number.isInteger(count) || count < 0 || !Number.isInteger(at)) throw new TypeError('listboxTarget: count and at must be integers');
  if (count === 0) return null;
  const step = Math.max(1, Math.floor(page));
  const from = Math.min(Math.max(at, -1), count - 1);
  let to: number;
  switch (key) {
    case 'ArrowDown':
      to = from + 1;
      break;
    case 'ArrowUp':
      to = from < 0 ? 0 : from - 1;
      break;
    case 'PageDown':
      to = from < 0 ? 0 : from + step;
      break;
    case 'PageUp':
      to = from < 0 ? 0 : from - step;
      break;
    case 'Home':
      to = 0;
      break;
    case 'End':
      to = count - 1;
      break;
    default:
      return null;
  }
  return Math.min(count - 1, Math.max(0, to));
}

/** Whether a key event is one the listbox pattern takes (then the page must not scroll by itself). */
export const isListboxKey = (key: string) =>
  key === 'ArrowDown' || key === 'ArrowUp' || key === 'PageDown' || key === 'PageUp' || key === 'Home' || key === 'End';
