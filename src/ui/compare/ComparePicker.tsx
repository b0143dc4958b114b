// "Compare with…": picks record B for record A, from any input. A search box over the records (the
// worker searches: summaries, ids, kinds, sources, input names, #index), its results a listbox the
// arrow keys move in and Enter picks (the combobox pattern); or "Pick in the list instead", which
// closes this and makes the record list's next choice B.
import { useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, useDeferredValue, useEffect, useState } from 'react';
import { shortId } from '../../core/short-id';
import { Dialog } from '../components/Dialog';
import { displayText, groupDigits } from '../format';
import { queryKeys } from '../query-keys';
import { inspectorClient } from '../worker-client';
import { useCompareApi } from '../compare-context';
import { recordWords } from './compare-view';
import { BUTTON } from './parts';

/** Results listed at once. */
const LIMIT = 50;

export function ComparePicker({ anchor, version, onClose }: { anchor: number; version: number; onClose: () => void }) {
  const api = useCompareApi();
  const [text, setText] = useState('');
  const query = useDeferredValue(text);
  const found = useQuery({
    queryKey: queryKeys.compareCandidates(version, query, anchor),
    queryFn: () => inspectorClient().call('compareCandidates', { text: query, near: anchor, limit: LIMIT }),
    placeholderData: (previous) => previous,
  });
  const keys = found.data?.keys ?? [];
  const [active, setActive] = useState(0);
  // A new search starts at its first result.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the results change
  useEffect(() => setActive(0), [found.data]);
  const pick = (key: number) => api.show({ a: anchor, b: key, scope: 'records' });
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const move = { ArrowDown: active + 1, ArrowUp: active - 1, PageDown: active + 10, PageUp: active - 10 }[e.key];
    if (move !== undefined && keys.length) {
      e.preventDefault();
      const next = Math.max(0, Math.min(keys.length - 1, move));
      setActive(next);
      document.getElementById(`compare-candidate-${keys[next]}`)?.scrollIntoView({ block: 'nearest' });
    } else if (e.key === 'Enter' && keys[active] !== undefined) {
      e.preventDefault();
      pick(keys[active]);
    }
  };
  const a = api.summaries.get(anchor);
  const total = found.data?.total ?? 0;
  return (
    <Dialog id="compare-picker-title" title="Compare with…" onClose={onClose}>
      <p className="text-sm">
        Record A: <bdi>{recordWords(anchor, api.summaries, api.inputs)}</bdi>
        {a && (
          <>
            {' '}
            · <bdi>{displayText(a.summary)}</bdi>
          </>
        )}
      </p>
      <label htmlFor="compare-search" className="mt-3 block text-xs font-medium">
        Find record B (any input: text of its summary, id, kind, source or input name; #4 for record 4)
      </label>
      <input
        id="compare-search"
        type="search"
        role="combobox"
        aria-expanded={keys.length > 0}
        aria-controls="compare-candidates"
        aria-autocomplete="list"
        aria-activedescendant={keys[active] !== undefined ? `compare-candidate-${keys[active]}` : undefined}
        autoComplete="off"
        data-autofocus
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        className="mt-1 w-full rounded border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-600 dark:bg-slate-950"
      />
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-300" aria-live="polite" data-testid="candidate-count">
        {found.data
          ? `${groupDigits(total)} record${total === 1 ? '' : 's'} match${total === 1 ? 'es' : ''}${total > keys.length ? ` (the first ${keys.length} shown)` : ''}${text.trim() === '' ? `, ${a?.kind ?? a?.format ?? 'its'} kind first` : ''}. Arrow keys move, Enter picks.`
          : 'Searching…'}
      </p>
      <div
        id="compare-candidates"
        role="listbox"
        aria-label="Records to compare with"
        className="mt-1 max-h-72 overflow-auto rounded border border-slate-200 dark:border-slate-700"
      >
        {keys.map((k, i) => {
          const s = api.summaries.get(k);
          return (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox's input takes the keys (arrow keys, Enter), as the pattern has it
            <div
              key={k}
              id={`compare-candidate-${k}`}
              role="option"
              tabIndex={-1}
              aria-selected={i === active}
              onClick={() => pick(k)}
              onMouseMove={() => setActive(i)}
              className={`cursor-pointer border-b border-slate-100 px-2 py-1 text-xs last:border-b-0 dark:border-slate-800 ${i === active ? 'bg-teal-50 outline-2 -outline-offset-2 outline-teal-600 dark:bg-teal-950' : ''}`}
            >
              <span className="font-medium">
                <bdi>{recordWords(k, api.summaries, api.inputs)}</bdi>
              </span>
              {s && (
                <>
                  {' · '}
                  {displayText([s.format, s.kind].filter(Boolean).join(' · '))}
                  {s.id && <span className="font-mono"> · {displayText(shortId(s.id))}</span>}
                  <span className="block truncate text-slate-600 dark:text-slate-300">
                    <bdi>{displayText(s.summary)}</bdi>
                  </span>
                </>
              )}
            </div>
          );
        })}
      </div>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <button type="button" className={BUTTON} onClick={() => api.pickInList(anchor)}>
          Pick in the list instead
        </button>
        <span className="text-xs text-slate-600 dark:text-slate-300">Closes this; the next record you choose in the list is B.</span>
      </div>
    </Dialog>
  );
}

/** While B is picked in the list: what is going on, and a way out (Esc too). */
export function PickBanner({ anchor, onCancel }: { anchor: number; onCancel: () => void }) {
  const api = useCompareApi();
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key === 'Escape') onCancel();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onCancel]);
  return (
    <div
      role="status"
      className="flex flex-wrap items-center gap-2 border-b border-teal-300 bg-teal-50 px-4 py-2 text-sm text-teal-950 dark:border-teal-800 dark:bg-teal-950 dark:text-teal-100"
    >
      <span>
        Pick record B to compare with <bdi>{recordWords(anchor, api.summaries, api.inputs)}</bdi>: choose it in the record list (click it, or Enter on its row).
        Esc cancels.
      </span>
      <button type="button" className={BUTTON} onClick={onCancel}>
        Cancel picking
      </button>
    </div>
  );
}
