import { memo, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { InputSummary, RecordSummary } from '../../worker/protocol';
import { Badges } from './Badges';

interface Props {
  inputs: InputSummary[];
  records: RecordSummary[];
  /** The keys to show (a filter's result), or null for all. */
  visible: Int32Array | null;
  selected: number | null;
  onSelect: (key: number) => void;
}

const short = (id: string | null) => (id ? `${id.slice(0, 6)}…${id.slice(-4)}` : '—');
const HEADER_HEIGHT = 52;
const ROW_HEIGHT = 84;
const OVERSCAN = 6;

type Row = { kind: 'input'; input: InputSummary; top: number } | { kind: 'record'; record: RecordSummary; top: number };

const InputHeader = memo(function InputHeader({ input }: { input: InputSummary }) {
  return (
    <header role="group" aria-label={`Input ${input.name}`} data-input-name={input.name} className="h-full overflow-hidden border-b border-slate-300 bg-slate-100 px-3 py-1.5 text-xs dark:border-slate-700 dark:bg-slate-900">
      <div className="flex items-baseline gap-2">
        <span className="truncate font-semibold" title={input.name}>
          {input.name}
        </span>
        <span className="ml-auto whitespace-nowrap text-slate-500 dark:text-slate-400">
          {input.format} · {input.records} record{input.records === 1 ? '' : 's'} · {input.bytes} B
        </span>
      </div>
      {input.error && (
        <p role="alert" className="mt-0.5 truncate text-red-700 dark:text-red-300" title={input.error.message}>
          <span className="font-mono">{input.error.code}</span>: {input.error.message}
          {input.error.offset !== null ? ` (byte ${input.error.offset})` : ''}
        </p>
      )}
    </header>
  );
});

const RecordRow = memo(function RecordRow({ record, selected, focusable, onSelect, inputName }: { record: RecordSummary; selected: boolean; focusable: boolean; onSelect: (key: number) => void; inputName: string }) {
  return (
    <div
      role="option"
      aria-selected={selected}
      tabIndex={focusable ? 0 : -1}
      data-record-key={record.key}
      data-input={inputName}
      onClick={() => onSelect(record.key)}
      className={`h-full cursor-pointer overflow-hidden border-b border-slate-200 px-3 py-2 outline-none focus-visible:ring-2 focus-visible:ring-teal-500 dark:border-slate-800 ${
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
      <div className="mt-0.5 flex items-center gap-x-3 overflow-hidden text-xs whitespace-nowrap text-slate-600 dark:text-slate-300">
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
    </div>
  );
});

/** The record list, windowed: only the rows in view are rendered, so 100,000 records scroll freely. */
export function RecordList({ inputs, records, visible, selected, onSelect }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(800);

  const { rows, total, recordRows } = useMemo(() => {
    const byInput = new Map<number, RecordSummary[]>();
    const push = (r: RecordSummary | undefined) => {
      if (!r) return;
      const list = byInput.get(r.input);
      if (list) list.push(r);
      else byInput.set(r.input, [r]);
    };
    if (visible) for (const key of visible) push(records[key]);
    else for (const r of records) push(r);
    const out: Row[] = [];
    const recordRows: number[] = [];
    let top = 0;
    for (const input of inputs) {
      // Under a filter, an input with nothing to show is left out.
      if (visible && !byInput.has(input.input)) continue;
      out.push({ kind: 'input', input, top });
      top += HEADER_HEIGHT;
      for (const r of byInput.get(input.input) ?? []) {
        recordRows.push(out.length);
        out.push({ kind: 'record', record: r, top });
        top += ROW_HEIGHT;
      }
    }
    return { rows: out, total: top, recordRows };
  }, [inputs, records, visible]);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setHeight(el.clientHeight));
    ro.observe(el);
    setHeight(el.clientHeight);
    return () => ro.disconnect();
  }, []);

  // Rows are sorted by top: binary search for the first one in view.
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid].top + (rows[mid].kind === 'input' ? HEADER_HEIGHT : ROW_HEIGHT) < scrollTop) lo = mid + 1;
    else hi = mid;
  }
  const first = Math.max(0, lo - OVERSCAN);
  let last = first;
  while (last < rows.length && rows[last].top < scrollTop + height) last++;
  last = Math.min(rows.length, last + OVERSCAN);

  const focusKey = selected ?? (recordRows.length ? (rows[recordRows[0]] as { record: RecordSummary }).record.key : null);
  const inputNames = useMemo(() => new Map(inputs.map((i) => [i.input, i.name])), [inputs]);

  const scrollToKey = useCallback(
    (key: number) => {
      const row = rows.find((r) => r.kind === 'record' && r.record.key === key);
      const el = box.current;
      if (!row || !el) return;
      if (row.top < el.scrollTop) el.scrollTop = row.top;
      else if (row.top + ROW_HEIGHT > el.scrollTop + el.clientHeight) el.scrollTop = row.top + ROW_HEIGHT - el.clientHeight;
    },
    [rows],
  );
  useEffect(() => {
    if (selected !== null) scrollToKey(selected);
  }, [selected, scrollToKey]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    const pos = recordRows.findIndex((i) => (rows[i] as { record: RecordSummary }).record.key === selected);
    const next = recordRows[Math.max(0, Math.min(recordRows.length - 1, pos + (e.key === 'ArrowDown' ? 1 : -1)))];
    if (next === undefined) return;
    const key = (rows[next] as { record: RecordSummary }).record.key;
    onSelect(key);
    requestAnimationFrame(() => (box.current?.querySelector(`[data-record-key="${key}"]`) as HTMLElement | null)?.focus());
  };

  return (
    <div ref={box} role="listbox" aria-label="Records" onKeyDown={onKeyDown} onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)} className="relative h-full overflow-auto">
      <div style={{ height: total, position: 'relative' }}>
        {rows.slice(first, last).map((row) => (
          <div key={row.kind === 'input' ? `i${row.input.input}` : row.record.key} style={{ position: 'absolute', top: row.top, left: 0, right: 0, height: row.kind === 'input' ? HEADER_HEIGHT : ROW_HEIGHT }}>
            {row.kind === 'input' ? (
              <InputHeader input={row.input} />
            ) : (
              <RecordRow record={row.record} selected={row.record.key === selected} focusable={row.record.key === focusKey} onSelect={onSelect} inputName={inputNames.get(row.record.input) ?? ''} />
            )}
          </div>
        ))}
      </div>
    </div>
  );
}
