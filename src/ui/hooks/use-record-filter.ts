// The list's filter and sort run in the worker, over every record loaded; the list shows the keys
// it returns, in the order it returns them. Asked a moment after the filter or the order last
// changed, and again whenever the records change.
import { useEffect } from 'react';
import type { ListOrder, RecordFilter } from '../../wire/protocol';
import { listQueryActive } from '../store/page';
import { inspectorClient } from '../worker-client';
import type { PageDispatch } from './use-page-store';

/** How long the filter must stay still before the worker is asked (typing in a field). */
const SETTLE_MS = 120;

export function useRecordFilter(filter: RecordFilter, order: ListOrder, versions: { load: number; records: number }, dispatch: PageDispatch): void {
  const active = listQueryActive(filter, order);
  const { load: loadVersion, records: recordsVersion } = versions;
  // biome-ignore lint/correctness/useExhaustiveDependencies: asked again when the records change (the versions), not only the filter
  useEffect(() => {
    if (!active) return;
    let stale = false;
    const t = setTimeout(() => {
      inspectorClient()
        .call('filter', { filter, order })
        .then(({ keys, rules }) => {
          if (!stale) dispatch({ type: 'visible', keys, filter, order, rules });
        });
    }, SETTLE_MS);
    return () => {
      stale = true;
      clearTimeout(t);
    };
  }, [filter, order, active, loadVersion, recordsVersion, dispatch]);
}
