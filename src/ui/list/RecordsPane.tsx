import { useMemo } from 'react';
import type { InputSummary, ListOrder, RecordFilter } from '../../wire/protocol';
import { useDensity } from './density';
import { DensityToggle, ListHeader } from './ListHeader';
import { describeFilter } from '../shared-view';
import { firstKeyOf, type SummaryStore } from '../summary-store';
import { FilterBar } from '../components/LoadControls';
import { RecordList } from './RecordList';

interface Props {
  inputs: InputSummary[];
  summaries: SummaryStore;
  /** Moves whenever `summaries` changes. */
  version: number;
  filter: RecordFilter;
  onFilter: (filter: RecordFilter) => void;
  order: ListOrder;
  onOrder: (order: ListOrder) => void;
  /** The keys the filter and the order show, in order (null: every record, in log order). */
  visible: Int32Array | null;
  /** `visible` is in another order than the log's (the inputs mix). */
  sorted: boolean;
  /** What the list says after a filter hid the selection (the first record it kept was selected). */
  notice: string | null;
  /** The load whose rule ids the filter offers. */
  loadVersion: number;
  /** The rule ids the filter's rule matched (null: no rule; undefined: not answered for this filter yet). */
  ruleMatch: string[] | null | undefined;
  selected: number | null;
  onSelect: (key: number) => void;
  /** A load is running: its list's frame is drawn before its first records come (below). */
  loading: boolean;
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

/** The left-hand pane: what to drop before anything is loaded; then the filter, the sort and the record list. */
export function RecordsPane({
  inputs,
  summaries,
  version,
  filter,
  onFilter,
  order,
  onOrder,
  visible,
  sorted,
  notice,
  loadVersion,
  ruleMatch,
  selected,
  onSelect,
  loading,
}: Props) {
  const [density, setDensity] = useDensity();
  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` stands for the store's contents
  const notRecords = useMemo(() => unreadableKeys(inputs, summaries), [inputs, summaries, version]);
  const total = summaries.length - notRecords.length;
  // The unreadable inputs' rows among those shown (the keys may be sorted: a look at each, once per answer).
  const shown = useMemo(() => {
    if (!visible) return total;
    const not = new Set(notRecords);
    let n = visible.length;
    if (not.size) for (let i = 0; i < visible.length; i++) if (not.has(visible[i])) n--;
    return n;
  }, [visible, notRecords, total]);
  return (
    <div className="h-[45dvh] min-h-0 overflow-hidden border-b border-slate-200 md:h-auto md:border-r md:border-b-0 dark:border-slate-800">
      {/* The frame (filter, header, empty list) is drawn as a load starts, not with its first records:
          laid out with the first rows, the two made that frame the million-record load's longest
          (56–72 ms); laid out apart, the frame takes 4 ms. */}
      {inputs.length === 0 && !loading ? (
        <div className="p-6 text-sm text-slate-600 dark:text-slate-300">
          <p className="font-medium">Drop AGDX records anywhere on this page.</p>
          <p className="mt-2">
            Envelopes (CBOR), CBOR sequences, laser records, Iggy exports (JSON, or a header block with its payload), dead letters, or hex, base64, CBOR
            diagnostic notation and JSON text through Paste. Nothing leaves your browser.
          </p>
        </div>
      ) : (
        <div className="flex h-full flex-col">
          <FilterBar
            filter={filter}
            onChange={onFilter}
            shown={shown}
            total={total}
            version={loadVersion}
            matched={ruleMatch}
            controls={<DensityToggle density={density} onDensity={setDensity} />}
          />
          {/* Polite: said once when a filter hid the selection, not again as the list scrolls. */}
          <p
            aria-live="polite"
            data-testid="list-notice"
            className={
              notice ? 'border-b border-sky-300 bg-sky-50 px-3 py-1 text-xs text-sky-950 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-100' : 'sr-only'
            }
          >
            {notice}
          </p>
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
            <>
              <ListHeader order={order} onOrder={onOrder} density={density} />
              <div className="min-h-0 flex-1">
                <RecordList
                  inputs={inputs}
                  store={summaries}
                  version={version}
                  visible={visible}
                  sorted={visible !== null && sorted}
                  selected={selected}
                  onSelect={onSelect}
                  density={density}
                  busy={loading && summaries.length === 0}
                />
              </div>
            </>
          )}
        </div>
      )}
    </div>
  );
}
