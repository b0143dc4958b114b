import { useQueryClient } from '@tanstack/react-query';
import { lazy, startTransition, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { RegistryEntry } from '../core/keys/keys';
import type { RegistryChange } from '../core/keys/registry';
import type { InputPayload, InputSummary, LoadProgress, RecordFilter, SharedView } from '../wire/protocol';
import { SLOT, type SummaryPack } from '../wire/summary-pack';
import { FilterBar, ProgressBar } from './components/LoadControls';
import { DetailPanel } from './components/DetailPanel';
import { FoldsPanel } from './components/FoldsPanel';
import { KeyRegistry } from './components/KeyRegistry';
import { PasteDialog } from './components/PasteDialog';
import { SharePanel } from './components/SharePanel';
import { loadStoredKeys, updateStoredKeys, watchStoredKeys } from './keys-store';
import { RecordList } from './components/RecordList';
import { SharedViewBanner } from './components/SharedViewBanner';
import { displayText } from './format';
import { filterFromLink, filterToLink, sameFilter } from './shared-view';
import { fromFiles, fromSamples, fromText, sampleList, type Sample } from './sources';
import { SummaryStore } from './summary-store';
import { inspectorClient, type StoppedInput } from './worker-client';

const VISITED_KEY = 'envelope-inspector.visited';

export type Tab = 'records' | 'graph' | 'agents' | 'runs';

/** The first record of a pack, if any: a load selects it when it ends, so the detail shows something. */
const firstKey = (pack: SummaryPack): number | null => (pack.count ? pack.cols[SLOT.KEY] : null);

/** New inputs are appended; inputs the worker re-judged are replaced. */
function mergeInputs(prev: InputSummary[], incoming: InputSummary[]): InputSummary[] {
  const next = prev.slice();
  for (const i of incoming) {
    const at = next.findIndex((x) => x.input === i.input);
    if (at >= 0) next[at] = i;
    else next.push(i);
  }
  return next;
}

const TAB_NAMES: Record<Tab, string> = { records: 'Record', graph: 'Graph', agents: 'Agents', runs: 'Runs' };
/** A tab a link names, if it is one of ours (a link may name anything). */
const tabOf = (name: string): Tab | null => (Object.hasOwn(TAB_NAMES, name) ? (name as Tab) : null);

// React Flow and the graph view load only when the graph tab opens (a small initial bundle).
const GraphView = lazy(() => import('./graph/GraphView'));

export function App() {
  const [inputs, setInputs] = useState<InputSummary[]>([]);
  // Every record's summary, packed (SummaryStore); `recordsVersion` tells React it changed. The store
  // is written only from worker messages, between renders: a sliced render that a batch interrupts
  // may show one frame of mixed rows, which the next render (the version moved) puts right.
  const [store] = useState(() => new SummaryStore());
  const [recordsVersion, setRecordsVersion] = useState(0);
  const applySummaries = useCallback(
    (pack: SummaryPack, replace = false) => {
      if (replace) store.clear();
      store.apply(pack);
      setRecordsVersion((v) => v + 1);
    },
    [store],
  );
  const [selected, setSelectedState] = useState<number | null>(null);
  const [tab, setTabState] = useState<Tab>('records');
  const [viewport, setViewport] = useState<SharedView['viewport']>(null);
  const [shareOpen, setShareOpen] = useState(false);
  /** The view the last opened link or bundle preset, and its filter (the banner says what it set). */
  const [shared, setShared] = useState<{ view: SharedView; filter: RecordFilter } | null>(null);
  const [loadVersion, setLoadVersion] = useState(0);
  const [progress, setProgress] = useState<LoadProgress | null>(null);
  const loadId = useRef<number | null>(null);
  /** Tells the worker a load's first records are drawn; called once they have been painted. */
  const drawnAck = useRef<(() => void) | null>(null);
  const [filter, setFilter] = useState<RecordFilter>({});
  const [visible, setVisible] = useState<Int32Array | null>(null);
  /** The filter `visible` answers (it arrives a moment after the filter changes). */
  const [visibleFor, setVisibleFor] = useState<RecordFilter | null>(null);

  // The filter runs in the worker, over every record loaded; the list shows the keys it returns.
  const filterActive = Object.values(filter).some((v) => v);
  useEffect(() => {
    if (!filterActive) {
      setVisible(null);
      return;
    }
    let stale = false;
    const t = setTimeout(() => {
      inspectorClient()
        .call('filter', { filter })
        .then(({ keys }) => {
          if (stale) return;
          setVisible(keys);
          setVisibleFor(filter);
        });
    }, 120);
    return () => {
      stale = true;
      clearTimeout(t);
    };
  }, [filter, filterActive, loadVersion, recordsVersion]);

  // After the commit that shows new records, and the frame that paints them: the worker waits for
  // this once per load before it reads on (see LoadHooks.shown).
  useEffect(() => {
    const ack = drawnAck.current;
    if (!ack) return;
    drawnAck.current = null;
    requestAnimationFrame(() => setTimeout(ack, 0));
  }, [recordsVersion]);

  // Each view (selection, tab) is a history entry, so back and forward move between views.
  const viewRef = useRef<{ selected: number | null; tab: Tab }>({ selected: null, tab: 'records' });
  const showView = useCallback((next: { selected?: number | null; tab?: Tab }, mode: 'push' | 'replace' | 'none') => {
    const cur = viewRef.current;
    const view = { selected: next.selected !== undefined ? next.selected : cur.selected, tab: next.tab ?? cur.tab };
    if (view.selected === cur.selected && view.tab === cur.tab && mode === 'push') return;
    viewRef.current = view;
    if (mode === 'push') history.pushState(view, '');
    else if (mode === 'replace') history.replaceState(view, '');
    setSelectedState(view.selected);
    setTabState(view.tab);
  }, []);
  const setSelected = useCallback((key: number | null) => showView({ selected: key }, 'push'), [showView]);
  const setTab = useCallback((t: Tab) => showView({ tab: t }, 'push'), [showView]);
  useEffect(() => {
    const onPop = (e: PopStateEvent) => {
      const st = e.state as { selected?: number | null; tab?: Tab } | null;
      showView({ selected: st?.selected ?? null, tab: st?.tab ?? 'records' }, 'none');
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [showView]);
  const [status, setStatus] = useState<string>('');
  const [problem, setProblem] = useState<string | null>(null);
  /** Inputs the worker crashed or hung on: not read again unless the person retries them. */
  const [stopped, setStopped] = useState<StoppedInput[]>([]);
  const [pasteOpen, setPasteOpen] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [samples, setSamples] = useState<Sample[]>([]);
  const fileInput = useRef<HTMLInputElement>(null);
  const [keys, setKeys] = useState<RegistryEntry[]>(loadStoredKeys);
  const [keysOpen, setKeysOpen] = useState(false);
  const [pendingKeyChanges, setPendingKeyChanges] = useState<RegistryChange[]>([]);
  // Every change is made to the registry as stored now, so a stale copy never overwrites another
  // tab's change; another tab's changes arrive here through the storage event.
  const keysRef = useRef(keys);
  useEffect(() => {
    keysRef.current = keys;
  }, [keys]);
  const changeKeys = useCallback((change: (current: RegistryEntry[]) => RegistryEntry[]) => setKeys(updateStoredKeys(change, keysRef.current)), []);
  useEffect(() => watchStoredKeys(setKeys), []);
  const queryClient = useQueryClient();

  // The registry goes to the worker before anything loads, and again on every change: every
  // record is re-verified there, and the page updates the verdicts that changed.
  const keysSent = useRef<Promise<unknown>>(Promise.resolve());
  useEffect(() => {
    keysSent.current = inspectorClient()
      .setKeys(keys)
      .then((changed) => {
        if (changed.count) applySummaries(changed);
        void queryClient.invalidateQueries({ queryKey: ['folds'] });
        void queryClient.invalidateQueries({ queryKey: ['graph'] });
        return queryClient.invalidateQueries({ queryKey: ['detail'] });
      });
  }, [keys, queryClient, applySummaries]);

  const applyView = useCallback((view: SharedView) => {
    showView({ selected: view.selectedKey, tab: tabOf(view.tab) ?? 'records' }, 'replace');
    setViewport(view.viewport);
    const linkFilter = filterFromLink(view.filters);
    setFilter(linkFilter);
    setShared({ view, filter: linkFilter });
  }, [showView]);

  /** The one load path: every source ends here, and the worker does the decoding. */
  const load = useCallback(async (payloads: Promise<InputPayload[]> | InputPayload[]) => {
    setProblem(null);
    try {
      const list = await payloads;
      if (list.length === 0) return;
      setStatus(`Reading ${list.length} input${list.length === 1 ? '' : 's'}…`);
      await keysSent.current;
      let loaded = 0;
      let firstLoaded: number | null = null;
      const inputsSeen = new Set<number>();
      setProgress({ records: 0, bytesDone: 0, bytesTotal: list.reduce((n, p) => n + p.data.size, 0) });
      const r = await inspectorClient().load(
        list,
        (batch) => {
          // Records show as they are read; the list is windowed, so a batch costs little to draw.
          // A transition: React renders it in slices and yields, so no batch is one long task.
          loaded += batch.records.count;
          for (const i of batch.inputs) inputsSeen.add(i.input);
          // The first record's detail is shown when the load ends, not now: it is the largest render
          // of all, and while the workers are busy it was the page's longest task.
          if (firstLoaded === null && batch.records.count && loadId.current !== null) {
            const id = loadId.current;
            drawnAck.current = () => inspectorClient().shown(id);
          }
          firstLoaded ??= firstKey(batch.records);
          startTransition(() => {
            setInputs((prev) => mergeInputs(prev, batch.inputs));
            if (batch.records.count) applySummaries(batch.records);
            setProgress(batch.progress);
          });
        },
        (id) => (loadId.current = id),
      );
      loadId.current = null;
      setProgress(null);
      for (const i of r.inputs) inputsSeen.add(i.input);
      setInputs((prev) => mergeInputs(prev, r.inputs));
      applySummaries(r.records);
      setLoadVersion((v) => v + 1);
      if (r.view) applyView(r.view);
      else if (viewRef.current.selected === null && (firstLoaded ?? firstKey(r.records)) !== null) showView({ selected: firstLoaded ?? firstKey(r.records) }, 'replace');
      if (r.problems.length) setProblem(displayText(r.problems.join('; ')));
      void queryClient.invalidateQueries({ queryKey: ['detail'] });
      const count = loaded || r.records.count;
      setStatus(`${r.cancelled ? 'Cancelled: kept' : 'Loaded'} ${count} record${count === 1 ? '' : 's'} from ${inputsSeen.size} input${inputsSeen.size === 1 ? '' : 's'}.`);
    } catch (e) {
      setProblem((e as Error).message);
      setStatus('');
      setProgress(null);
    }
  }, [queryClient, applySummaries, applyView, showView]);

  useEffect(() => {
    sampleList().then(setSamples, () => setSamples([]));
  }, []);

  // The watchdog stopped a stuck or crashed worker and a new one read the other inputs again:
  // show what it has now, and say what happened.
  useEffect(
    () =>
      inspectorClient().onRestart(({ reason, stopped: stoppedNow, replayed }) => {
        setStopped((prev) => [...prev, ...stoppedNow]);
        setInputs(replayed.inputs);
        applySummaries(replayed.records, true);
        setLoadVersion((v) => v + 1);
        setProgress(null);
        showView({ selected: firstKey(replayed.records), tab: viewRef.current.tab }, 'replace');
        void queryClient.invalidateQueries();
        setProblem(`${reason}: it was stopped and restarted. The other inputs were read again (${replayed.records.count} records); the app goes on.${stoppedNow.length ? ` ${stoppedNow.map((x) => displayText(x.input.name)).join(', ')} ${stoppedNow.length === 1 ? 'was' : 'were'} not read again (see Retry).` : ''}`);
        setStatus('');
      }),
    [queryClient, showView, applySummaries],
  );

  // A permalink opens its view (trust comes only from this browser's own registry); otherwise the bundled
  // samples load on the first visit, so a newcomer sees something at once.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (/^#v\d+\./.test(location.hash)) {
      (async () => {
        await keysSent.current;
        setStatus('Opening the shared view…');
        const r = await inspectorClient().open(location.hash);
        if (r.error) {
          setProblem(r.error);
          setStatus('');
          return;
        }
        setInputs(r.inputs);
        applySummaries(r.records, true);
        setLoadVersion((v) => v + 1);
        if (r.view) applyView(r.view);
        setStatus(`Opened a shared view: ${r.records.count} records from ${r.inputs.length} inputs. A link brings no keys: ${keysRef.current.length ? `signatures are trusted only as your registry (${keysRef.current.length} entries) backs them` : 'your registry is empty, so no signature is trusted'}.`);
      })().catch((e) => setProblem((e as Error).message));
      return;
    }
    const params = new URLSearchParams(location.search);
    if (params.get('samples') === 'none' || localStorage.getItem(VISITED_KEY)) return;
    localStorage.setItem(VISITED_KEY, '1');
    load(sampleList().then(fromSamples));
  }, [load, applyView, applySummaries]);

  // Drop anywhere on the page.
  useEffect(() => {
    let depth = 0;
    const hasFiles = (e: DragEvent) => !!e.dataTransfer && [...e.dataTransfer.types].includes('Files');
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth++;
      setDragging(true);
    };
    const leave = () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const over = (e: DragEvent) => {
      if (hasFiles(e)) e.preventDefault();
    };
    const drop = (e: DragEvent) => {
      e.preventDefault();
      depth = 0;
      setDragging(false);
      const files = e.dataTransfer?.files;
      if (files && files.length) load(fromFiles(files));
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragleave', leave);
    window.addEventListener('dragover', over);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('dragover', over);
      window.removeEventListener('drop', drop);
    };
  }, [load]);

  const clear = useCallback(async () => {
    await inspectorClient().clear();
    setInputs([]);
    setStopped([]);
    applySummaries({ count: 0, cols: new Int32Array(0), strings: [] }, true);
    showView({ selected: null, tab: 'records' }, 'replace');
    setShared(null);
    setStatus('Cleared.');
  }, [applySummaries, showView]);

  // One object per view, not per render: the share panel rebuilds the link (in the worker, over
  // every input) whenever this changes, and App renders on every batch and status line.
  // The record the link selected, by what it was in the link: its input's name and its index.
  const sharedKey = shared?.view.selectedKey ?? null;
  const sharedRecord = sharedKey !== null ? store.get(sharedKey) : undefined;
  const sharedSelection = sharedRecord ? { index: sharedRecord.index, inputName: inputs.find((i) => i.input === sharedRecord.input)?.name ?? '' } : null;

  const shareView = useMemo(() => ({ selectedKey: selected, tab, viewport, filters: filterToLink(filter) }), [selected, tab, viewport, filter]);

  return (
    <div className="flex h-full flex-col">
      <header className="flex flex-wrap items-center gap-2 border-b border-slate-200 px-4 py-2 dark:border-slate-800">
        <h1 className="mr-4 text-lg font-semibold tracking-tight">Envelope Inspector</h1>
        <button type="button" onClick={() => fileInput.current?.click()} className="rounded bg-teal-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-teal-800 focus-visible:ring-2 focus-visible:ring-teal-400">
          Open files
        </button>
        <input
          ref={fileInput}
          type="file"
          multiple
          aria-label="Choose record files"
          className="hidden"
          onChange={(e) => {
            if (e.target.files?.length) load(fromFiles(e.target.files));
            e.target.value = '';
          }}
        />
        <button type="button" onClick={() => setPasteOpen(true)} className="rounded border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800">
          Paste
        </button>
        <details className="relative">
          <summary className="cursor-pointer list-none rounded border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800">Samples ▾</summary>
          <ul className="absolute z-30 mt-1 w-72 rounded border border-slate-200 bg-white py-1 text-sm shadow-lg dark:border-slate-700 dark:bg-slate-900" aria-label="Samples">
            <li>
              <button type="button" className="w-full px-3 py-1 text-left font-medium hover:bg-slate-100 dark:hover:bg-slate-800" onClick={() => load(fromSamples(samples))}>
                All samples
              </button>
            </li>
            {samples.map((s) => (
              <li key={s.file}>
                <button type="button" className="w-full px-3 py-1 text-left hover:bg-slate-100 dark:hover:bg-slate-800" onClick={() => load(fromSamples([s]))}>
                  {s.title}
                </button>
              </li>
            ))}
          </ul>
        </details>
        <button type="button" onClick={() => setKeysOpen(true)} className="rounded border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800">
          Keys ({keys.length})
        </button>
        <button type="button" onClick={() => setShareOpen(true)} disabled={inputs.length === 0} className="rounded border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100 disabled:opacity-40 dark:border-slate-700 dark:hover:bg-slate-800">
          Share
        </button>
        <button type="button" onClick={clear} disabled={inputs.length === 0} className="rounded px-3 py-1.5 text-sm hover:bg-slate-100 disabled:opacity-40 dark:hover:bg-slate-800">
          Clear
        </button>
        <p role="status" className="ml-auto text-xs text-slate-500 dark:text-slate-400">
          {status}
        </p>
      </header>
      {shared && (
        <SharedViewBanner
          view={shared.view}
          linkFilter={shared.filter}
          filter={filter}
          shown={visible && visibleFor && sameFilter(visibleFor, shared.filter) ? visible.length : null}
          total={store.length}
          selected={sharedSelection}
          tab={{ name: TAB_NAMES[tabOf(shared.view.tab) ?? 'records'], asked: tabOf(shared.view.tab) ? null : shared.view.tab }}
          registryEntries={keys.length}
          onShowAll={() => setFilter({})}
        />
      )}
      {progress && <ProgressBar progress={progress} onCancel={() => loadId.current !== null && inspectorClient().call('cancel', { load: loadId.current })} />}
      {problem && (
        <p role="alert" className="border-b border-red-300 bg-red-50 px-4 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
          {problem}
        </p>
      )}
      {stopped.length > 0 && (
        <ul aria-label="Inputs not read" className="border-b border-red-300 bg-red-50 px-4 py-1 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
          {stopped.map((s, i) => (
            <li key={i} className="flex flex-wrap items-center gap-2 py-1">
              <span>
                <strong className="font-medium">
                  <bdi>{displayText(s.input.name)}</bdi>
                </strong>{' '}
                was not read: {s.reason}. It is not read again by itself, in case it does the same.
              </span>
              <button
                type="button"
                aria-label={`Retry ${displayText(s.input.name)}`}
                onClick={() => {
                  setStopped((prev) => prev.filter((x) => x !== s));
                  load([s.input]);
                }}
                className="rounded border border-red-400 px-2 py-0.5 text-xs font-medium hover:bg-red-100 dark:border-red-700 dark:hover:bg-red-900"
              >
                Retry
              </button>
              <button type="button" aria-label={`Dismiss ${displayText(s.input.name)}`} onClick={() => setStopped((prev) => prev.filter((x) => x !== s))} className="rounded px-2 py-0.5 text-xs hover:bg-red-100 dark:hover:bg-red-900">
                Dismiss
              </button>
            </li>
          ))}
        </ul>
      )}
      <main className="grid min-h-0 flex-1 grid-cols-1 md:grid-cols-[minmax(18rem,26rem)_1fr]">
        <div className="min-h-0 overflow-hidden border-r border-slate-200 dark:border-slate-800">
          {inputs.length === 0 ? (
            <div className="p-6 text-sm text-slate-600 dark:text-slate-300">
              <p className="font-medium">Drop AGDX records anywhere on this page.</p>
              <p className="mt-2">Envelopes (CBOR), CBOR sequences, laser records, Iggy exports (JSON, or a header block with its payload), dead letters, or hex, base64 and JSON text through Paste. Nothing leaves your browser.</p>
            </div>
          ) : (
            <div className="flex h-full flex-col">
              <FilterBar filter={filter} onChange={setFilter} shown={visible ? visible.length : store.length} total={store.length} />
              <div className="min-h-0 flex-1">
                <RecordList inputs={inputs} store={store} version={recordsVersion} visible={visible} selected={selected} onSelect={setSelected} />
              </div>
            </div>
          )}
        </div>
        <div className="flex min-h-0 flex-col">
          <div role="tablist" aria-label="View" className="flex gap-1 border-b border-slate-200 px-3 pt-2 dark:border-slate-800">
            {(['records', 'graph', 'agents', 'runs'] as const).map((t) => (
              <button
                key={t}
                type="button"
                role="tab"
                aria-selected={tab === t}
                onClick={() => setTab(t)}
                className={`rounded-t px-3 py-1.5 text-sm ${tab === t ? 'border border-b-0 border-slate-200 bg-white font-medium dark:border-slate-800 dark:bg-slate-950' : 'text-slate-500 hover:text-slate-900 dark:hover:text-slate-100'}`}
              >
                {TAB_NAMES[t]}
              </button>
            ))}
          </div>
          {tab === 'graph' && (
            <div role="tabpanel" aria-label="Graph" className="h-[58%] min-h-64 border-b border-slate-200 dark:border-slate-800">
              <Suspense fallback={<p className="p-4 text-sm text-slate-500">Loading the graph view…</p>}>
                <GraphView version={loadVersion} selected={selected} onSelect={setSelected} viewport={viewport} onViewport={setViewport} />
              </Suspense>
            </div>
          )}
          {(tab === 'agents' || tab === 'runs') && (
            <div role="tabpanel" aria-label={TAB_NAMES[tab]} className="h-[58%] min-h-64 border-b border-slate-200 dark:border-slate-800">
              <FoldsPanel mode={tab} version={loadVersion} selected={selected} onSelect={setSelected} />
            </div>
          )}
          <div className="min-h-0 flex-1 overflow-auto [contain:strict]">{selected !== null ? <DetailPanel recordKey={selected} /> : <p className="p-6 text-sm text-slate-500">Select a record to see its fields, bytes and findings.</p>}</div>
        </div>
      </main>
      <PasteDialog
        open={pasteOpen}
        onClose={() => setPasteOpen(false)}
        onSubmit={(text) => {
          setPasteOpen(false);
          load([fromText(text)]);
        }}
      />
      {shareOpen && <SharePanel view={shareView} version={loadVersion} onClose={() => setShareOpen(false)} />}
      {keysOpen && <KeyRegistry keys={keys} onChange={changeKeys} pending={pendingKeyChanges} onPending={setPendingKeyChanges} onClose={() => setKeysOpen(false)} />}
      {dragging && (
        <div className="pointer-events-none fixed inset-0 z-50 flex items-center justify-center bg-teal-700/20 text-lg font-semibold text-teal-900 ring-4 ring-inset ring-teal-600 dark:text-teal-100">
          Drop to inspect
        </div>
      )}
    </div>
  );
}
