import { useQuery } from '@tanstack/react-query';
import { memo, type ReactNode } from 'react';
import { displayText, groupDigits } from '../format';
import { useStrip } from '../hooks/use-strip';
import { queryKeys } from '../query-keys';
import { inspectorClient } from '../worker-client';
import { RuleRef, useExplain } from './RuleRef';
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
      <button
        type="button"
        onClick={onCancel}
        className="rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
      >
        Cancel
      </button>
    </div>
  );
}

const KINDS = ['command', 'response', 'event', 'chunk', 'status', 'error', 'agdx.capsule', 'agdx.control', 'agdx.dead_letter', 'unknown'];

const SEVERITY_TONES = {
  error: 'text-red-800 dark:text-red-300',
  warning: 'text-amber-800 dark:text-amber-300',
  info: 'text-slate-600 dark:text-slate-400',
};
/** Rule ids named in the line under the bar; the rest are counted. */
const MATCHES_NAMED = 4;
const records = (n: number) => `${groupDigits(n)} record${n === 1 ? '' : 's'}`;

interface FilterBarProps {
  filter: RecordFilter;
  onChange: (f: RecordFilter) => void;
  shown: number;
  total: number;
  /** The load the rule ids present are counted for. */
  version: number;
  /** The rule ids the worker found `filter.rule` to mean (null: no rule; undefined: not answered yet). */
  matched: string[] | null | undefined;
  /** The list's own controls, before the count (its density). */
  controls?: ReactNode;
}

const FIELD = 'rounded border border-slate-300 bg-white px-1.5 py-0.5 dark:border-slate-700 dark:bg-slate-950';

/**
 * The filter's fields, drawn again only when the filter changes. React writes a text field's
 * attributes anew each time it is drawn (its name and type, cleared and set back), and the bar is
 * drawn for every batch of a load to update its count: 750 such writes in a load's first 3 s.
 */
const FilterFields = memo(function FilterFields({ filter, onChange }: Pick<FilterBarProps, 'filter' | 'onChange'>) {
  const set = (patch: Partial<RecordFilter>) => onChange({ ...filter, ...patch });
  const rule = filter.rule?.trim() ?? '';
  return (
    <>
      <select aria-label="Kind" value={filter.kind ?? ''} onChange={(e) => set({ kind: e.target.value || undefined })} className={FIELD}>
        <option value="">any kind</option>
        {KINDS.map((k) => (
          <option key={k} value={k}>
            {k}
          </option>
        ))}
      </select>
      <select aria-label="Validity" value={filter.validity ?? ''} onChange={(e) => set({ validity: e.target.value || undefined })} className={FIELD}>
        <option value="">any validity</option>
        <option value="valid">valid</option>
        <option value="invalid">invalid</option>
        <option value="undecoded">not decoded</option>
        <option value="problem">any problem</option>
      </select>
      <input
        aria-label="Source"
        placeholder="source"
        value={filter.source ?? ''}
        onChange={(e) => set({ source: e.target.value || undefined })}
        className={`${FIELD} w-24`}
      />
      <input
        aria-label="Conversation"
        placeholder="conversation"
        value={filter.conversation ?? ''}
        onChange={(e) => set({ conversation: e.target.value || undefined })}
        className={`${FIELD} w-28`}
      />
      <input
        aria-label="Rule id"
        aria-describedby={rule ? 'rule-match' : undefined}
        placeholder="rule id or word"
        value={filter.rule ?? ''}
        onChange={(e) => set({ rule: e.target.value || undefined })}
        className={`${FIELD} w-32`}
      />
    </>
  );
});

/**
 * Filters by kind, validity (any problem among them), source, conversation and rule; the worker does
 * the filtering. The rule is an id, any start of ids, or a word (src/core/rule-filter.ts); "Rules"
 * lists the ids the records carry, with counts, and the line under the bar says which ids the words matched.
 */
export function FilterBar({ filter, onChange, shown, total, version, matched, controls }: FilterBarProps) {
  const set = (patch: Partial<RecordFilter>) => onChange({ ...filter, ...patch });
  const explain = useExplain();
  const { open: rulesOpen, setOpen: setRulesOpen, button: rulesButton, strip: rulesStrip } = useStrip<HTMLDivElement>();
  // Counted in the worker once per load (and key change), asked for when the list first opens.
  const present = useQuery({ queryKey: queryKeys.rules(version), queryFn: () => inspectorClient().call('rules', {}), enabled: rulesOpen });
  const choose = (patch: Partial<RecordFilter>) => {
    set(patch);
    setRulesOpen(false);
    rulesButton.current?.focus();
  };
  const rule = filter.rule?.trim() ?? '';
  // One id matched: the explanation is that rule's; otherwise the words' (the panel suggests ids).
  const toExplain = matched?.length === 1 ? matched[0] : (filter.rule ?? '');
  return (
    <search aria-label="Filter records" className="flex flex-wrap items-center gap-1.5 border-b border-slate-200 px-2 py-1.5 text-xs dark:border-slate-800">
      <FilterFields filter={filter} onChange={onChange} />
      {filter.rule && (
        <button
          type="button"
          aria-haspopup="dialog"
          aria-label={`Explain ${toExplain}`}
          title="What this rule means"
          onClick={() => explain(toExplain)}
          className="rounded border border-slate-300 px-1.5 py-0.5 hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
        >
          ?
        </button>
      )}
      <button
        ref={rulesButton}
        type="button"
        aria-expanded={rulesOpen}
        aria-controls="rule-choices"
        onClick={() => setRulesOpen((open) => !open)}
        className="rounded border border-slate-300 px-1.5 py-0.5 hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
      >
        Rules {rulesOpen ? '▴' : '▾'}
      </button>
      <span className="ml-auto" />
      {controls}
      <span data-testid="shown" className="text-slate-600 dark:text-slate-400">
        {shown === total ? records(total) : `${groupDigits(shown)} of ${groupDigits(total)}`}
      </span>
      {rule && matched !== undefined && (
        <p id="rule-match" data-testid="rule-match" className="basis-full text-[11px] text-slate-600 dark:text-slate-300">
          {matched === null || matched.length === 0 ? (
            <>
              No rule id in what is loaded matches “<bdi>{displayText(rule)}</bdi>” (an id, the start of ids, or a word in them or in a rule&apos;s title).
            </>
          ) : (
            <>
              Matches {matched.length === 1 ? 'rule' : `${matched.length} rule ids:`}{' '}
              {matched.slice(0, MATCHES_NAMED).map((id, i) => (
                <span key={id}>
                  {i > 0 && ', '}
                  <RuleRef id={id} />
                </span>
              ))}
              {matched.length > MATCHES_NAMED && ` and ${matched.length - MATCHES_NAMED} more`}
            </>
          )}
        </p>
      )}
      {rulesOpen && (
        // After its button for the keyboard; a strip of its own under the bar (it covers nothing).
        <div ref={rulesStrip} id="rule-choices" className="order-last basis-full border-t border-slate-200 pt-1.5 dark:border-slate-800">
          {present.isError ? (
            <p className="text-red-700 dark:text-red-300">The rule ids could not be counted: {present.error.message}</p>
          ) : !present.data ? (
            <p className="text-slate-600 dark:text-slate-400">Counting the rule ids…</p>
          ) : (
            <>
              <p className="mb-1 text-[11px] text-slate-600 dark:text-slate-300">Choose one, or type an id, its start (agdx/matrix) or a word (must).</p>
              <ul aria-label="Rule ids in what is loaded" className="grid max-h-48 grid-cols-[minmax(0,1fr)] gap-0.5 overflow-auto">
                <li>
                  {/* Named by what it shows (a speech-input user says the words they see); the hidden punctuation keeps the parts apart when read. */}
                  <button
                    type="button"
                    onClick={() => choose({ validity: 'problem', rule: undefined })}
                    className="flex w-full items-baseline gap-2 rounded px-1 py-0.5 text-left hover:bg-slate-100 dark:hover:bg-slate-800"
                  >
                    <span className="font-medium">Any problem</span>
                    <span className="sr-only">: </span>
                    <span className="tabular-nums">{records(present.data.problems)}</span>
                    <span className="sr-only"> (</span>
                    <span className="truncate text-slate-600 dark:text-slate-400">not decoded, an error or a warning, or a bad signature</span>
                    <span className="sr-only">)</span>
                  </button>
                </li>
                {present.data.rules.map((r) => (
                  <li key={r.id}>
                    <button
                      type="button"
                      data-rule={r.id}
                      title={r.title ?? undefined}
                      onClick={() => choose({ rule: r.id })}
                      className="flex w-full items-baseline gap-2 rounded px-1 py-0.5 text-left hover:bg-slate-100 dark:hover:bg-slate-800"
                    >
                      <span className="shrink-0 font-mono">{r.id}</span>
                      <span className="sr-only">: </span>
                      <span className="shrink-0 tabular-nums">{records(r.records)}</span>
                      <span className="sr-only">, </span>
                      <span className={`shrink-0 ${SEVERITY_TONES[r.severity]}`}>{r.severity}</span>
                      {r.title && <span className="sr-only">. </span>}
                      <span className="min-w-0 truncate text-slate-600 dark:text-slate-400">{r.title}</span>
                    </button>
                  </li>
                ))}
              </ul>
              {present.data.rules.length === 0 && <p className="mt-1 text-slate-600 dark:text-slate-400">No record carries a finding or an error code.</p>}
            </>
          )}
        </div>
      )}
    </search>
  );
}
