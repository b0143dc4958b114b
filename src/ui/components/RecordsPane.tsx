import { useMemo } from 'react';
import type { InputSummary, RecordFilter } from '../../wire/protocol';
import { describeFilter } from '../shared-view';
import { firstKeyOf, type SummaryStore } from '../summary-store';
import { FilterBar } from './LoadControls';
import { RecordList } from './RecordList';

interface Props {
  inputs: InputSummary[];
  summaries: SummaryStore;
  /** Moves whenever `summaries` changes. */
  version: number;
  filter: RecordFilter;
  onFilter: (filter: RecordFilter) => void;
  /** The keys the filter shows (null: every record). */
  visible: Int32Array | null;
  /** The load whose rule ids the filter offers. */
  loadVersion: number;
  /** The rule ids the filter's rule matched (null: no rule; undefined: not answered for this filter yet). */
  ruleMatch: string[] | null | undefined;
  selected: number | null;
  onSelect: (key: number) => void;
}

/**
 * The keys of the one record of each input nothing could be read from (a PNG, an empty file): they
 * are listed, under their input's message, but not counted as records.
 */
export function unreadableKeys(inputs: readonly InputSummary[], store: Pick<SummaryStore, 'length' | 'inputOf'>): number[] {
  const keys: number[] = [];
  for (const input of inputs) {
    if (!input.error) continue;
    const key = firstKeyOf(input.input, store);
    if (key !== null) keys.push(key);
  }
  return keys;
}

/** The left-hand pane: what to drop before anything is loaded; then the filter and the record list. */
export function RecordsPane({ inputs, summaries, version, filter, onFilter, visible, loadVersion, ruleMatch, selected, onSelect }: Props) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` stands for the store's contents
  const notRecords = useMemo(() => unreadableKeys(inputs, summaries), [inputs, summaries, version]);
  const total = summaries.length - notRecords.length;
  const shown = visible ? visible.length - notRecords.filter((k) => includes(visible, k)).length : total;
  return (
    <div className="h-[45dvh] min-h-0 overflow-hidden border-b border-slate-200 md:h-auto md:border-r md:border-b-0 dark:border-slate-800">
      {inputs.length === 0 ? (
        <div className="p-6 text-sm text-slate-600 dark:text-slate-300">
          <p className="font-medium">Drop AGDX records anywhere on this page.</p>
          <p className="mt-2">
            Envelopes (CBOR), CBOR sequences, laser records, Iggy exports (JSON, or a header block with its payload), dead letters, or hex, base64 and JSON text
            through Paste. Nothing leaves your browser.
          </p>
        </div>
      ) : (
        <div className="flex h-full flex-col">
          <FilterBar filter={filter} onChange={onFilter} shown={shown} total={total} version={loadVersion} matched={ruleMatch} />
          {visible && visible.length === 0 ? (
            // An empty list says why, and how to get the records back (the count alone read "0 of 28,000").
            <div role="status" data-testid="no-match" className="p-4 text-sm text-slate-700 dark:text-slate-300">
              <p>
                No record matches the filter: <bdi>{describeFilter(filter)}</bdi>.
                {filter.rule?.trim() && ruleMatch?.length === 0 && ' No rule id in what is loaded matches those words: see Rules for the ids present.'}
              </p>
              <button
                type="button"
                onClick={() => onFilter({})}
                className="mt-2 rounded border border-slate-300 px-2 py-1 text-xs hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
              >
                Clear the filter
              </button>
            </div>
          ) : (
            <div className="min-h-0 flex-1">
              <RecordList inputs={inputs} store={summaries} version={version} visible={visible} selected={selected} onSelect={onSelect} />
            </div>
          )}
        </div>
      )}
    </div>
  );
}

/** Whether sorted `keys` hold `key`. */
function includes(keys: Int32Array, key: number): boolean {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return keys[lo] === key;
}
