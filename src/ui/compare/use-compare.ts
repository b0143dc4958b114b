// The page's comparison state in use: the pair in the page store (actions `compare` and
// `compare-picking`), the "Compare with…" picker that is open (for which record A), and the record
// list's choices while B is being picked in it.
import { useCallback, useMemo, useState } from 'react';
import type { PageDispatch } from '../hooks/use-page-store';
import type { ViewHistory } from '../hooks/use-view-history';
import type { PageState } from '../store/page';
import type { SummaryStore } from '../summary-store';
import type { CompareApi } from '../compare-context';

export interface Compare {
  api: CompareApi;
  /** Record A of the open picker, or null when it is closed. */
  pickerFor: number | null;
  closePicker: () => void;
  /** The list's choice: B while picking, else the selection. */
  onListSelect: (key: number) => void;
}

export function useCompare(state: PageState, dispatch: PageDispatch, view: ViewHistory, summaries: SummaryStore): Compare {
  const [pickerFor, setPickerFor] = useState<number | null>(null);
  const { compare: pair, comparePicking: picking, inputs, recordsVersion } = state;
  // The history's functions are stable; the object holding them is made anew each render.
  const { show: showView, select } = view;
  const show = useCallback<CompareApi['show']>(
    (p) => {
      setPickerFor(null);
      dispatch({ type: 'compare', compare: p });
      showView({ tab: 'compare' }, 'push');
    },
    [dispatch, showView],
  );
  const close = useCallback(() => dispatch({ type: 'compare', compare: null }), [dispatch]);
  const pickInList = useCallback(
    (a: number) => {
      setPickerFor(null);
      dispatch({ type: 'compare-picking', anchor: a });
    },
    [dispatch],
  );
  const cancelPicking = useCallback(() => dispatch({ type: 'compare-picking', anchor: null }), [dispatch]);
  const api = useMemo<CompareApi>(
    () => ({ pair, picking, summaries, inputs, recordsVersion, compareWith: setPickerFor, show, close, pickInList, cancelPicking }),
    [pair, picking, summaries, inputs, recordsVersion, show, close, pickInList, cancelPicking],
  );
  const onListSelect = useCallback(
    (key: number) => {
      if (picking === null) select(key);
      else if (key !== picking) show({ a: picking, b: key, scope: 'records' });
    },
    [picking, select, show],
  );
  return { api, pickerFor, closePicker: () => setPickerFor(null), onListSelect };
}
