// The selection stays on a record the list shows: when a filter's answer leaves the selected record
// out, the first record it keeps is selected instead (in place of the history entry: the person did
// not choose it), and the list says so. Without this, the detail went on showing the hidden record
// and no row of the list was a Tab stop.
import { useEffect } from 'react';
import { shortId } from '../../core/short-id';
import { displayText } from '../format';
import type { PageState } from '../store/page';
import { sameOrder } from '../store/page';
import { sameFilter } from '../shared-view';
import type { SummarySource } from '../summary-store';
import type { PageDispatch } from './use-page-store';
import type { ViewHistory } from './use-view-history';

/** A record in the words of the list's notice: `command 01J0Y1…0001 (conversation.cborseq #5)`. */
export function recordWords(key: number, store: SummarySource, inputName: (input: number) => string): string {
  const s = store.get(key);
  if (!s) return `record ${key}`;
  return `${displayText(s.kind ?? s.format)}${s.id ? ` ${displayText(shortId(s.id))}` : ''} (${displayText(inputName(s.input))} #${s.index})`;
}

export function useShownSelection(state: PageState, store: SummarySource, view: ViewHistory, dispatch: PageDispatch): void {
  const { visible, filter, order, inputs } = state;
  const selected = state.view.selected;
  // Decided when a filter's answer comes, not when the selection moves: a record the list hides may
  // still be selected elsewhere (a graph node, a link), and stays selected.
  // biome-ignore lint/correctness/useExhaustiveDependencies: decided when an answer comes, with the state as it is then
  useEffect(() => {
    if (!visible || visible.keys.length === 0 || selected === null) return;
    // Only an answer to the filter and order now in place: an older one may still hide what is shown.
    if (!sameFilter(visible.filter, filter) || !sameOrder(visible.order, order)) return;
    const keys = visible.keys;
    for (let i = 0; i < keys.length; i++) if (keys[i] === selected) return;
    const first = keys[0];
    const name = (input: number) => inputs.find((x) => x.input === input)?.name ?? '';
    view.show({ selected: first }, 'replace');
    dispatch({
      type: 'list-notice',
      notice: `The filter hides the record that was selected, ${recordWords(selected, store, name)}: the first record it keeps is selected instead, ${recordWords(first, store, name)}.`,
    });
  }, [visible]);
}
