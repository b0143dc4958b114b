import type { InputSummary, RecordFilter } from '../../wire/protocol';
import type { SummaryStore } from '../summary-store';
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
  selected: number | null;
  onSelect: (key: number) => void;
}

/** The left-hand pane: what to drop before anything is loaded; then the filter and the record list. */
export function RecordsPane({ inputs, summaries, version, filter, onFilter, visible, selected, onSelect }: Props) {
  return (
    <div className="min-h-0 overflow-hidden border-r border-slate-200 dark:border-slate-800">
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
          <FilterBar filter={filter} onChange={onFilter} shown={visible ? visible.length : summaries.length} total={summaries.length} />
          <div className="min-h-0 flex-1">
            <RecordList inputs={inputs} store={summaries} version={version} visible={visible} selected={selected} onSelect={onSelect} />
          </div>
        </div>
      )}
    </div>
  );
}
