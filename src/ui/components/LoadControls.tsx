import { groupDigits } from '../format';
import { useExplain } from './RuleRef';
import type { LoadProgress, RecordFilter } from '../../wire/protocol';

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

/** Records and bytes read of the total, with a way to stop (what was read stays). */
export function ProgressBar({ progress, onCancel }: { progress: LoadProgress; onCancel: () => void }) {
  const fraction = progress.bytesTotal ? progress.bytesDone / progress.bytesTotal : 0;
  return (
    <div role="status" aria-label="Loading" className="flex items-center gap-3 border-b border-slate-200 px-4 py-1.5 text-xs dark:border-slate-800">
      <progress aria-label="Bytes read" max={1} value={fraction} className="h-2 w-48" />
      <span data-testid="progress">
        {groupDigits(progress.records)} records · {mb(progress.bytesDone)} of {mb(progress.bytesTotal)}
      </span>
      <button type="button" onClick={onCancel} className="rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800">
        Cancel
      </button>
    </div>
  );
}

const KINDS = ['command', 'response', 'event', 'chunk', 'status', 'error', 'agdx.capsule', 'agdx.control', 'agdx.dead_letter', 'unknown'];

/** Filters by kind, source, conversation, validity and rule id; the worker does the filtering. */
export function FilterBar({ filter, onChange, shown, total }: { filter: RecordFilter; onChange: (f: RecordFilter) => void; shown: number; total: number }) {
  const set = (patch: Partial<RecordFilter>) => onChange({ ...filter, ...patch });
  const explain = useExplain();
  const input = 'rounded border border-slate-300 bg-white px-1.5 py-0.5 dark:border-slate-700 dark:bg-slate-950';
  return (
    <search aria-label="Filter records" className="flex flex-wrap items-center gap-1.5 border-b border-slate-200 px-2 py-1.5 text-xs dark:border-slate-800">
      <select aria-label="Kind" value={filter.kind ?? ''} onChange={(e) => set({ kind: e.target.value || undefined })} className={input}>
        <option value="">any kind</option>
        {KINDS.map((k) => (
          <option key={k} value={k}>
            {k}
          </option>
        ))}
      </select>
      <select aria-label="Validity" value={filter.validity ?? ''} onChange={(e) => set({ validity: e.target.value || undefined })} className={input}>
        <option value="">any validity</option>
        <option value="valid">valid</option>
        <option value="invalid">invalid</option>
        <option value="undecoded">not decoded</option>
      </select>
      <input aria-label="Source" placeholder="source" value={filter.source ?? ''} onChange={(e) => set({ source: e.target.value || undefined })} className={`${input} w-24`} />
      <input aria-label="Conversation" placeholder="conversation" value={filter.conversation ?? ''} onChange={(e) => set({ conversation: e.target.value || undefined })} className={`${input} w-28`} />
      <input aria-label="Rule id" placeholder="rule id" value={filter.rule ?? ''} onChange={(e) => set({ rule: e.target.value || undefined })} className={`${input} w-32`} />
      {filter.rule && (
        <button
          type="button"
          aria-haspopup="dialog"
          aria-label={`Explain ${filter.rule}`}
          title="What this rule means"
          onClick={() => explain(filter.rule ?? '')}
          className="rounded border border-slate-300 px-1.5 py-0.5 hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
        >
          ?
        </button>
      )}
      <span data-testid="shown" className="ml-auto text-slate-600 dark:text-slate-400">
        {shown === total ? `${groupDigits(total)} record${total === 1 ? '' : 's'}` : `${groupDigits(shown)} of ${groupDigits(total)}`}
      </span>
    </search>
  );
}
