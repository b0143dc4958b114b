// The page's session state in React: the store's reducer (store/page.ts) over useReducer, and the
// summary store its packs go to. `dispatch` writes an action's pack once, then hands the action to
// React: called inside startTransition, the render it causes is a transition, as a batch's must be.
import { useCallback, useReducer, useState } from 'react';
import { loadStoredKeys } from '../keys-store';
import { applySummaries, initialPageState, reducePage, type PageAction, type PageState } from '../store/page';
import { SummaryStore } from '../summary-store';

export type PageDispatch = (action: PageAction) => void;

export interface PageStore {
  state: PageState;
  dispatch: PageDispatch;
  /** Every record's summary, packed. Written only from worker messages, between renders: a sliced
   *  render a batch interrupts may show one frame of mixed rows, which the next render (the version
   *  moved) puts right. */
  summaries: SummaryStore;
}

export function usePageStore(): PageStore {
  const [summaries] = useState(() => new SummaryStore());
  const [state, reactDispatch] = useReducer(reducePage, undefined, () => initialPageState(loadStoredKeys()));
  const dispatch = useCallback(
    (action: PageAction) => {
      applySummaries(summaries, action);
      reactDispatch(action);
    },
    [summaries],
  );
  return { state, dispatch, summaries };
}
