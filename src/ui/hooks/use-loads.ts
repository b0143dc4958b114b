// Loading: the one load path every source ends in (drop, picker, paste, samples, Retry), a link's
// opening, Cancel and Clear, and what the watchdog's restarts bring. The worker does the decoding.
// What keeps the page responsive while a large file loads lives here too (docs/architecture.md, "What keeps the
// page responsive"): batches render as transitions, the worker hears once when a load's first
// records are drawn, and the first record's detail opens when the load ends, not in the middle of it.
import { useQueryClient } from '@tanstack/react-query';
import { startTransition, useCallback, useEffect, useMemo, useRef } from 'react';
import type { InputPayload, InputSummary, SharedView } from '../../wire/protocol';
import { queryKeys } from '../query-keys';
import { firstKey, viewFromLink } from '../store/page';
import { DEFAULT_TAB, tabSpec } from '../tabs';
import { inspectorClient } from '../worker-client';
import type { Keys } from './use-keys';
import type { PageDispatch } from './use-page-store';
import type { ViewHistory } from './use-view-history';

export interface Loads {
  /** Reads inputs (however they came) in the worker, showing records as they arrive. */
  load: (payloads: Promise<InputPayload[]> | InputPayload[]) => Promise<void>;
  /** Opens a permalink fragment in place of what is loaded. */
  openLink: (fragment: string) => Promise<void>;
  /** Stops the running load between two batches; what was read stays. */
  cancel: () => void;
  clear: () => Promise<void>;
}

export function useLoads(recordsVersion: number, dispatch: PageDispatch, view: ViewHistory, keys: Keys): Loads {
  const queryClient = useQueryClient();
  const { show, current } = view;
  /** The running load's request id, for Cancel. */
  const loadId = useRef<number | null>(null);
  /** Tells the worker a load's first records are drawn; called once they have been painted. */
  const drawnAck = useRef<(() => void) | null>(null);

  // After the commit that shows new records, and the frame that paints them: the worker waits for
  // this once per load before it reads on (see LoadHooks.shown). No layout read here: this runs as
  // records arrive.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after each commit of new records (recordsVersion), whatever the body reads
  useEffect(() => {
    const ack = drawnAck.current;
    if (!ack) return;
    drawnAck.current = null;
    requestAnimationFrame(() => setTimeout(ack, 0));
  }, [recordsVersion]);

  /** The view a link or bundle carried: selection and tab as a history entry, the rest into the state. */
  const applyView = useCallback(
    (shared: SharedView) => {
      show(viewFromLink(shared), 'replace');
      dispatch({ type: 'shared-view', view: shared });
    },
    [show, dispatch],
  );

  const load = useCallback(
    async (payloads: Promise<InputPayload[]> | InputPayload[]) => {
      dispatch({ type: 'load-asked' });
      try {
        const list = await payloads;
        if (list.length === 0) return;
        dispatch({ type: 'load-started', inputs: list.length, bytes: list.reduce((n, p) => n + p.data.size, 0) });
        await keys.sent.current;
        let loaded = 0;
        let firstLoaded: number | null = null;
        // The last summary of each input the load read (an unreadable one says so in its `error`).
        const inputsSeen = new Map<number, InputSummary>();
        const r = await inspectorClient().load(
          list,
          (batch) => {
            if (batch.type === 'verdicts') {
              // Records already listed whose verdicts the end of the load changed: rewritten in place.
              startTransition(() => dispatch({ type: 'verdicts', records: batch.records }));
              return;
            }
            // Records show as they are read; the list is windowed, so a batch costs little to draw.
            // A transition: React renders it in slices and yields, so no batch is one long task.
            loaded += batch.records.count;
            for (const i of batch.inputs) inputsSeen.set(i.input, i);
            // The first record's detail is shown when the load ends, not now: it is the largest render
            // of all, and while the workers are busy it was the page's longest task.
            if (firstLoaded === null && batch.records.count && loadId.current !== null) {
              const id = loadId.current;
              drawnAck.current = () => inspectorClient().shown(id);
            }
            firstLoaded ??= firstKey(batch.records);
            startTransition(() => dispatch({ type: 'load-batch', inputs: batch.inputs, records: batch.records, progress: batch.progress }));
          },
          (id) => (loadId.current = id),
        );
        loadId.current = null;
        for (const i of r.inputs) inputsSeen.set(i.input, i);
        const unreadable = [...inputsSeen.values()].filter((i) => i.error !== null);
        dispatch({ type: 'load-ended', result: r, records: loaded || r.records.count, inputs: inputsSeen.size, unreadable });
        // What was loaded is selected (the list scrolls to it) and its first record's detail opens:
        // the person looks at what they just gave, not at what was there before.
        const first = firstLoaded ?? firstKey(r.records);
        if (r.view) applyView(r.view);
        else if (first !== null) {
          const { selected, tab } = current.current;
          show({ selected: first, tab: tabSpec(tab).full ? DEFAULT_TAB : tab }, selected === null ? 'replace' : 'push');
        }
        void queryClient.invalidateQueries({ queryKey: queryKeys.details() });
      } catch (e) {
        dispatch({ type: 'load-failed', message: (e as Error).message });
      }
    },
    [dispatch, keys.sent, applyView, current, show, queryClient],
  );

  const openLink = useCallback(
    async (fragment: string) => {
      try {
        await keys.sent.current;
        dispatch({ type: 'link-opening' });
        const r = await inspectorClient().open(fragment);
        if (r.error) {
          dispatch({ type: 'load-failed', message: r.error });
          return;
        }
        dispatch({ type: 'link-opened', result: r });
        if (r.view) applyView(r.view);
      } catch (e) {
        dispatch({ type: 'load-failed', message: (e as Error).message });
      }
    },
    [dispatch, keys.sent, applyView],
  );

  const cancel = useCallback(() => {
    if (loadId.current !== null) void inspectorClient().call('cancel', { load: loadId.current });
  }, []);

  const clear = useCallback(async () => {
    await inspectorClient().clear();
    dispatch({ type: 'cleared' });
    show({ selected: null, tab: DEFAULT_TAB }, 'replace');
  }, [dispatch, show]);

  // The watchdog stopped a stuck or crashed worker and a new one read the other inputs again:
  // show what it has now, and say what happened.
  useEffect(
    () =>
      inspectorClient().onRestart(({ reason, stopped, replayed }) => {
        dispatch({ type: 'restarted', reason, stopped, replayed });
        show({ selected: firstKey(replayed.records) }, 'replace');
        void queryClient.invalidateQueries();
      }),
    [dispatch, show, queryClient],
  );

  return useMemo(() => ({ load, openLink, cancel, clear }), [load, openLink, cancel, clear]);
}
