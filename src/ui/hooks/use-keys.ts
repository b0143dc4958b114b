// The key registry: stored in this browser (keys-store.ts), kept in the page's state, sent to the
// worker before anything loads and again on every change. The worker re-verifies every record, and
// the page updates the verdicts that changed.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import type { RegistryEntry } from '../../core/keys/keys';
import { updateStoredKeys, watchStoredKeys } from '../keys-store';
import { queryKeys } from '../query-keys';
import { inspectorClient } from '../worker-client';
import type { PageDispatch } from './use-page-store';

export interface Keys {
  /** Changes the registry: `change` gets it as stored now (another tab may have changed it). */
  change: (change: (current: RegistryEntry[]) => RegistryEntry[]) => void;
  /** Settles when the worker has the registry as it is now: a load waits for it. */
  sent: { readonly current: Promise<unknown> };
}

export function useKeys(keys: RegistryEntry[], dispatch: PageDispatch): Keys {
  const queryClient = useQueryClient();
  // Every change is made to the registry as stored now, so a stale copy never overwrites another
  // tab's change; another tab's changes arrive here through the storage event.
  const latest = useRef(keys);
  useEffect(() => {
    latest.current = keys;
  }, [keys]);
  const change = useCallback(
    (fn: (current: RegistryEntry[]) => RegistryEntry[]) => dispatch({ type: 'keys', keys: updateStoredKeys(fn, latest.current) }),
    [dispatch],
  );
  useEffect(() => watchStoredKeys((stored) => dispatch({ type: 'keys', keys: stored })), [dispatch]);

  const sent = useRef<Promise<unknown>>(Promise.resolve());
  useEffect(() => {
    sent.current = inspectorClient()
      .setKeys(keys)
      .then((changed) => {
        if (changed.count) dispatch({ type: 'verdicts', records: changed });
        void queryClient.invalidateQueries({ queryKey: queryKeys.allFolds() });
        void queryClient.invalidateQueries({ queryKey: queryKeys.graphs() });
        void queryClient.invalidateQueries({ queryKey: queryKeys.timelines() });
        void queryClient.invalidateQueries({ queryKey: queryKeys.allRules() });
        void queryClient.invalidateQueries({ queryKey: queryKeys.comparisons() });
        return queryClient.invalidateQueries({ queryKey: queryKeys.details() });
      });
  }, [keys, queryClient, dispatch]);
  return { change, sent };
}
