import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { RegisteredKey } from '../core/keys/keys';
import type { InputPayload, InputSummary, RecordSummary } from '../worker/protocol';
import { DetailPanel } from './components/DetailPanel';
import { KeyRegistry } from './components/KeyRegistry';
import { PasteDialog } from './components/PasteDialog';
import { loadStoredKeys, storeKeys } from './keys-store';
import { RecordList } from './components/RecordList';
import { fromFiles, fromSamples, fromText, sampleList, type Sample } from './sources';
import { inspectorClient } from './worker-client';

const VISITED_KEY = 'envelope-inspector.visited';

export function App() {
  const [inputs, setInputs] = useState<InputSummary[]>([]);
  const [records, setRecords] = useState<RecordSummary[]>([]);
  const [selected, setSelected] = useState<number | null>(null);
  const [status, setStatus] = useState<string>('');
  const [problem, setProblem] = useState<string | null>(null);
  const [pasteOpen, setPasteOpen] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [samples, setSamples] = useState<Sample[]>([]);
  const fileInput = useRef<HTMLInputElement>(null);
  const [keys, setKeys] = useState<RegisteredKey[]>(loadStoredKeys);
  const [keysOpen, setKeysOpen] = useState(false);
  const queryClient = useQueryClient();

  // The registry goes to the worker before anything loads, and again on every change: every
  // record is re-verified there, and the page updates the verdicts that changed.
  const keysSent = useRef<Promise<unknown>>(Promise.resolve());
  useEffect(() => {
    storeKeys(keys);
    keysSent.current = inspectorClient()
      .setKeys(keys)
      .then((changed) => {
        if (changed.length) {
          const byKey = new Map(changed.map((c) => [c.key, c]));
          setRecords((prev) => prev.map((r) => byKey.get(r.key) ?? r));
        }
        return queryClient.invalidateQueries({ queryKey: ['detail'] });
      });
  }, [keys, queryClient]);

  /** The one load path: every source ends here, and the worker does the decoding. */
  const load = useCallback(async (payloads: Promise<InputPayload[]> | InputPayload[]) => {
    setProblem(null);
    try {
      const list = await payloads;
      if (list.length === 0) return;
      setStatus(`Reading ${list.length} input${list.length === 1 ? '' : 's'}…`);
      await keysSent.current;
      const r = await inspectorClient().load(list);
      setInputs((prev) => [...prev, ...r.inputs]);
      setRecords((prev) => [...prev, ...r.records]);
      setSelected((prev) => prev ?? r.records[0]?.key ?? null);
      setStatus(`Loaded ${r.records.length} record${r.records.length === 1 ? '' : 's'} from ${r.inputs.length} input${r.inputs.length === 1 ? '' : 's'}.`);
    } catch (e) {
      setProblem((e as Error).message);
      setStatus('');
    }
  }, []);

  useEffect(() => {
    sampleList().then(setSamples, () => setSamples([]));
  }, []);

  // The bundled samples load on the first visit, so a newcomer sees something at once.
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    if (params.get('samples') === 'none' || localStorage.getItem(VISITED_KEY)) return;
    localStorage.setItem(VISITED_KEY, '1');
    load(sampleList().then(fromSamples));
  }, [load]);

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
    setRecords([]);
    setSelected(null);
    setStatus('Cleared.');
  }, []);

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
        <button type="button" onClick={clear} disabled={inputs.length === 0} className="rounded px-3 py-1.5 text-sm hover:bg-slate-100 disabled:opacity-40 dark:hover:bg-slate-800">
          Clear
        </button>
        <p role="status" className="ml-auto text-xs text-slate-500 dark:text-slate-400">
          {status}
        </p>
      </header>
      {problem && (
        <p role="alert" className="border-b border-red-300 bg-red-50 px-4 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
          {problem}
        </p>
      )}
      <main className="grid min-h-0 flex-1 grid-cols-1 md:grid-cols-[minmax(18rem,26rem)_1fr]">
        <div className="min-h-0 overflow-auto border-r border-slate-200 dark:border-slate-800">
          {inputs.length === 0 ? (
            <div className="p-6 text-sm text-slate-600 dark:text-slate-300">
              <p className="font-medium">Drop AGDX records anywhere on this page.</p>
              <p className="mt-2">Envelopes (CBOR), CBOR sequences, laser records, Iggy exports (JSON, or a header block with its payload), dead letters, or hex, base64 and JSON text through Paste. Nothing leaves your browser.</p>
            </div>
          ) : (
            <RecordList inputs={inputs} records={records} selected={selected} onSelect={setSelected} />
          )}
        </div>
        <div className="min-h-0 overflow-auto">{selected !== null ? <DetailPanel recordKey={selected} /> : <p className="p-6 text-sm text-slate-500">Select a record to see its fields, bytes and findings.</p>}</div>
      </main>
      <PasteDialog
        open={pasteOpen}
        onClose={() => setPasteOpen(false)}
        onSubmit={(text) => {
          setPasteOpen(false);
          load([fromText(text)]);
        }}
      />
      {keysOpen && <KeyRegistry keys={keys} onChange={setKeys} onClose={() => setKeysOpen(false)} />}
      {dragging && (
        <div className="pointer-events-none fixed inset-0 z-50 flex items-center justify-center bg-teal-700/20 text-lg font-semibold text-teal-900 ring-4 ring-inset ring-teal-600 dark:text-teal-100">
          Drop to inspect
        </div>
      )}
    </div>
  );
}
