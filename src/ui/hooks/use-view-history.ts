// The view (selection and tab) as history entries: a new view pushes one, so back and forward move
// between views; a load or a link replaces the current one. The view it last showed is kept here too
// (`current`), for callbacks that run between renders.
import { useCallback, useEffect, useRef } from 'react';
import { nextView, viewFromHistory, type PageView } from '../store/page';
import { DEFAULT_TAB, type TabId } from '../tabs';
import type { PageDispatch } from './use-page-store';

/** push: a new history entry; replace: in place of the current one; none: history moved already (back, forward). */
export type HistoryMode = 'push' | 'replace' | 'none';

export interface ViewHistory {
  show: (change: Partial<PageView>, mode: HistoryMode) => void;
  select: (key: number | null) => void;
  setTab: (tab: TabId) => void;
  /** The view last shown. */
  current: { readonly current: PageView };
}

export function useViewHistory(dispatch: PageDispatch): ViewHistory {
  const current = useRef<PageView>({ selected: null, tab: DEFAULT_TAB });
  const show = useCallback(
    (change: Partial<PageView>, mode: HistoryMode) => {
      const view = nextView(current.current, change, mode);
      if (!view) return;
      current.current = view;
      if (mode === 'push') history.pushState(view, '');
      else if (mode === 'replace') history.replaceState(view, '');
      dispatch({ type: 'view', view });
    },
    [dispatch],
  );
  const select = useCallback((key: number | null) => show({ selected: key }, 'push'), [show]);
  const setTab = useCallback((tab: TabId) => show({ tab }, 'push'), [show]);
  useEffect(() => {
    const onPop = (e: PopStateEvent) => show(viewFromHistory(e.state), 'none');
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [show]);
  return { show, select, setTab, current };
}
