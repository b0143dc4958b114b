import { memo, useCallback, type KeyboardEvent } from 'react';
import type { InputSummary, RecordSummary } from '../../worker/protocol';
import { Badges } from './Badges';

interface Props {
  inputs: InputSummary[];
  records: RecordSummary[];
  selected: number | null;
  onSelect: (key: number) => void;
}

const short = (id: string | null) => (id ? `${id.slice(0, 6)}…${id.slice(-4)}` : '—');

const RecordRow = memo(function RecordRow({ record, selected, focusable, onSelect }: { record: RecordSummary; selected: boolean; focusable: boolean; onSelect: (key: number) => void }) {
  return (
    <li
      role="option"
      aria-selected={selected}
      tabIndex={focusable ? 0 : -1}
      data-record-key={record.key}
      onClick={() => onSelect(record.key)}
      className={`cursor-pointer border-b border-slate-200 px-3 py-2 outline-none focus-visible:ring-2 focus-visible:ring-teal-500 dark:border-slate-800 ${
        selected ? 'bg-teal-50 dark:bg-teal-950/60' : 'hover:bg-slate-50 dark:hover:bg-slate-900'
      }`}
    >
      <div className="flex items-baseline gap-2 text-sm">
        <span className="font-semibold">{record.kind ?? record.format}</span>
        <span className="font-mono text-xs text-slate-500 dark:text-slate-400" title={record.id ? `record ${record.id}${record.idHex ? `\nhex ${record.idHex}` : ''}` : 'no record id'}>
          {short(record.id)}
        </span>
        <span className="ml-auto text-xs text-slate-500 dark:text-slate-400">#{record.index}</span>
      </div>
      <div className="mt-0.5 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-600 dark:text-slate-300">
        {record.source && (
          <span className="truncate">
            {record.source}
            {record.target ? ` → ${record.target}` : ''}
          </span>
        )}
        {record.conversation && (
          <span className="font-mono text-slate-500 dark:text-slate-400" title={`conversation ${record.conversation}`}>
            conv {short(record.conversation)}
          </span>
        )}
        {!record.source && <span className="truncate">{record.summary}</span>}
      </div>
      <div className="mt-1">
        <Badges record={record} />
      </div>
    </li>
  );
});

export function RecordList({ inputs, records, selected, onSelect }: Props) {
  const onKeyDown = useCallback(
    (e: KeyboardEvent<HTMLUListElement>) => {
      if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
      e.preventDefault();
      const pos = records.findIndex((r) => r.key === selected);
      const next = records[Math.max(0, Math.min(records.length - 1, pos + (e.key === 'ArrowDown' ? 1 : -1)))];
      if (next) {
        onSelect(next.key);
        (e.currentTarget.querySelector(`[data-record-key="${next.key}"]`) as HTMLElement | null)?.focus();
      }
    },
    [records, selected, onSelect],
  );
  const focusKey = selected ?? records[0]?.key ?? null;
  return (
    <nav aria-label="Records" className="flex min-h-0 flex-col">
      {inputs.map((input) => {
        const own = records.filter((r) => r.input === input.input);
        return (
          <section key={input.input} aria-label={`Input ${input.name}`} data-input-name={input.name} className="border-b border-slate-300 dark:border-slate-700">
            <header className="sticky top-0 z-10 bg-slate-100 px-3 py-1.5 text-xs dark:bg-slate-900">
              <div className="flex items-baseline gap-2">
                <span className="truncate font-semibold" title={input.name}>
                  {input.name}
                </span>
                <span className="ml-auto whitespace-nowrap text-slate-500 dark:text-slate-400">
                  {input.format} · {input.records} record{input.records === 1 ? '' : 's'} · {input.bytes} B
                </span>
              </div>
              {input.error && (
                <p role="alert" className="mt-1 text-red-700 dark:text-red-300">
                  <span className="font-mono">{input.error.code}</span>: {input.error.message}
                  {input.error.offset !== null ? ` (byte ${input.error.offset})` : ''}
                </p>
              )}
            </header>
            <ul role="listbox" aria-label={`Records of ${input.name}`} onKeyDown={onKeyDown}>
              {own.map((r) => (
                <RecordRow key={r.key} record={r} selected={r.key === selected} focusable={r.key === focusKey} onSelect={onSelect} />
              ))}
            </ul>
          </section>
        );
      })}
    </nav>
  );
}
