import { memo, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { crockfordToHex } from '../../core/bytes';
import { shortId } from '../../core/short-id';
import type { InputSummary } from '../../wire/protocol';
import type { RecordSummary } from '../../wire/summary-pack';
import type { SummarySource } from '../summary-store';
import { displayText, groupDigits, middleEllipsis } from '../format';
import { Badge, Badges } from './Badges';
import { Identity } from './Identity';
import { RuleRef } from './RuleRef';

interface Props {
  inputs: InputSummary[];
  store: SummarySource;
  /** Moves whenever records were added or replaced in the store. */
  version: number;
  /** The keys to show (a filter's result), or null for all. */
  visible: Int32Array | null;
  selected: number | null;
  onSelect: (key: number) => void;
}

const short = (id: string | null) => (id ? shortId(id) : '—');
/** An input's header: its name and what it is; an input nothing could be read from has a third line, its message. */
const HEADER_HEIGHT = 44;
const UNREADABLE_HEADER_HEIGHT = 60;
/** Room for the badges on two lines ("Signature valid, not trusted: <why>" may not fit beside the others). */
const ROW_HEIGHT = 100;
const OVERSCAN = 3;
/** Characters of an input's name shown (cut in the middle: names of one family differ at their end). */
const NAME_CHARS = 48;

const headerHeight = (input: InputSummary) => (input.error ? UNREADABLE_HEADER_HEIGHT : HEADER_HEIGHT);
const size = (bytes: number) =>
  bytes < 10_000
    ? `${groupDigits(bytes)} B`
    : bytes < 10_000_000
      ? `${groupDigits(Math.round(bytes / 1024))} KiB`
      : `${groupDigits(Math.round(bytes / 1048576))} MiB`;

type Row = { kind: 'input'; input: InputSummary; top: number; height: number } | { kind: 'record'; record: RecordSummary; top: number; unreadable: boolean };

const InputHeader = memo(function InputHeader({ input }: { input: InputSummary }) {
  // The name as it came may hold controls and bidi overrides: shown escaped and isolated.
  const name = displayText(input.name);
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of an input's facts, not form controls (no fieldset)
    <div
      role="group"
      aria-label={`Input ${name}`}
      data-input-name={input.name}
      data-unreadable={input.error ? true : undefined}
      className="h-full overflow-hidden border-b border-slate-300 bg-slate-100 px-3 py-1.5 text-xs dark:border-slate-700 dark:bg-slate-900"
    >
      <bdi className="block truncate font-semibold" title={name}>
        {middleEllipsis(name, NAME_CHARS)}
      </bdi>
      <p className="truncate text-slate-600 dark:text-slate-400">
        {/* An input nothing could be read from is not counted as a record: it is one unreadable input. */}
        {input.format} · {input.error ? 'unreadable' : `${groupDigits(input.records)} record${input.records === 1 ? '' : 's'}`} · {size(input.bytes)}
      </p>
      {input.error && (
        // The message first, cut short if it must; its code after it, never cut: it opens its explanation.
        // Not a live region: the list is windowed, and a header scrolled back into view would be announced
        // again; the load's status line says what was unreadable.
        <p
          data-testid="input-error"
          className="flex items-baseline gap-1 text-red-700 dark:text-red-300"
          title={`${input.error.code}: ${displayText(input.error.message)}`}
        >
          <span className="min-w-0 truncate">{displayText(input.error.message)}</span>
          <span className="shrink-0 font-mono text-[10px]">
            (<RuleRef id={input.error.code} />
            {input.error.offset !== null && input.error.offset > 0 ? `, byte ${input.error.offset}` : ''})
          </span>
        </p>
      )}
    </div>
  );
});

/** Enter and Space select the row that has focus (the arrow keys move the selection: the list's handler). */
function selectOnEnterOrSpace(e: KeyboardEvent<HTMLDivElement>, key: number, onSelect: (key: number) => void) {
  if (e.key !== 'Enter' && e.key !== ' ') return;
  e.preventDefault();
  onSelect(key);
}

interface RowProps {
  record: RecordSummary;
  selected: boolean;
  focusable: boolean;
  onSelect: (key: number) => void;
  inputName: string;
}

/** The row of an unreadable input's one record: not a record, a way to its bytes (the header above says why). */
const UnreadableRow = memo(function UnreadableRow({ record, selected, focusable, onSelect, inputName }: RowProps) {
  return (
    <div
      role="option"
      aria-selected={selected}
      tabIndex={focusable ? 0 : -1}
      data-record-key={record.key}
      data-input={inputName}
      data-index={record.index}
      data-unreadable
      onClick={() => onSelect(record.key)}
      onKeyDown={(e) => selectOnEnterOrSpace(e, record.key, onSelect)}
      className={`h-full cursor-pointer overflow-hidden border-b border-slate-200 px-3 py-1.5 text-xs text-slate-600 outline-none focus-visible:ring-2 focus-visible:ring-teal-500 dark:border-slate-800 dark:text-slate-300 ${
        selected ? 'bg-teal-50 dark:bg-teal-950/60' : 'hover:bg-slate-50 dark:hover:bg-slate-900'
      }`}
    >
      <p className="text-sm font-semibold text-slate-800 dark:text-slate-100">Not a record</p>
      <p className="mt-0.5">Nothing in this input could be read (see above). Select it to see its bytes.</p>
      <div className="mt-1">
        <Badge tone="bad" label="Not decoded" title={`Decoded: no (${record.errorCode})`} />
      </div>
    </div>
  );
});

const RecordRow = memo(function RecordRow({ record, selected, focusable, onSelect, inputName }: RowProps) {
  const dna = record.format.startsWith('agentdna.');
  return (
    <div
      role="option"
      aria-selected={selected}
      tabIndex={focusable ? 0 : -1}
      data-record-key={record.key}
      data-input={inputName}
      data-index={record.index}
      onClick={() => onSelect(record.key)}
      onKeyDown={(e) => selectOnEnterOrSpace(e, record.key, onSelect)}
      className={`h-full cursor-pointer overflow-hidden border-b border-slate-200 px-3 py-1.5 outline-none focus-visible:ring-2 focus-visible:ring-teal-500 dark:border-slate-800 ${
        selected ? 'bg-teal-50 dark:bg-teal-950/60' : 'hover:bg-slate-50 dark:hover:bg-slate-900'
      }`}
    >
      <div className="flex items-baseline gap-2 text-sm">
        <bdi className="font-semibold">{displayText(record.kind ?? record.format)}</bdi>
        {record.displayType && (
          <span
            className="min-w-0 truncate font-mono text-xs text-teal-800 dark:text-teal-300"
            data-testid="row-display-type"
            title={`display type ${record.displayType}${record.dialect ? ` (AGDX ${record.dialect})` : ''}`}
          >
            {record.displayType}
          </span>
        )}
        <span
          className="font-mono text-xs text-slate-500 dark:text-slate-400"
          data-testid="row-id"
          title={
            record.id
              ? `${dna ? 'tip envelope hash' : 'record'} ${displayText(record.id)}${crockfordToHex(record.id) ? `\nhex ${crockfordToHex(record.id)}` : ''}`
              : 'no record id'
          }
        >
          {record.id ? displayText(short(record.id)) : '—'}
        </span>
        <span className="ml-auto text-xs text-slate-500 dark:text-slate-400">#{record.index}</span>
      </div>
      <div className="mt-0.5 flex items-center gap-x-3 overflow-hidden text-xs whitespace-nowrap text-slate-600 dark:text-slate-300">
        {record.source && dna ? (
          // AgentDNA: DIDs (long, alike at the start) short, and the file: four tampered copies of one
          // workflow have the same tip hash and signers, and only the file tells their rows apart.
          <>
            <span className="shrink-0 font-mono" title={`from ${displayText(record.source)}${record.target ? `\nto ${displayText(record.target)}` : ''}`}>
              <Identity value={record.source} shorten={short} />
              {record.target && (
                <>
                  {' → '}
                  <Identity value={record.target} shorten={short} />
                </>
              )}
            </span>
            <bdi className="truncate text-slate-500 dark:text-slate-400" title={displayText(inputName)} data-testid="row-input">
              {middleEllipsis(displayText(inputName), NAME_CHARS)}
            </bdi>
          </>
        ) : record.source ? (
          <span className="truncate">
            <bdi>{displayText(record.source)}</bdi>
            {record.target && (
              <>
                {' → '}
                <bdi>{displayText(record.target)}</bdi>
              </>
            )}
          </span>
        ) : null}
        {record.conversation && (
          <span className="font-mono text-slate-500 dark:text-slate-400" title={`conversation ${displayText(record.conversation)}`}>
            conv {short(record.conversation)}
          </span>
        )}
        {!record.source && <bdi className="truncate">{displayText(record.summary)}</bdi>}
      </div>
      <div className="mt-1">
        <Badges record={record} />
      </div>
    </div>
  );
});

/** One input's stretch of the list: its header, then its records `from`..`to` of the source list. */
interface Segment {
  input: InputSummary;
  top: number;
  /** Its header's height. */
  head: number;
  from: number;
  to: number;
}

/** The record list, windowed: only the rows in view are rendered, so 100,000 records scroll freely. */
export function RecordList({ inputs, store, version, visible, selected, onSelect }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(800);

  // The source list is every record, or the filter's keys; either way each input's records form one
  // contiguous stretch of it (inputs load one after another), found by binary search: the layout
  // costs per input, not per record, so a batch of records arriving stays cheap.
  const count = visible ? visible.length : store.length;
  // `version` stands for the store's contents: a new one makes new callbacks, so rows re-read it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: version stands for the store's contents (see above)
  const recordAt = useCallback((i: number) => store.get(visible ? visible[i] : i), [store, visible, version]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: version stands for the store's contents (see above)
  const { segments, total } = useMemo(() => {
    const firstAtLeast = (input: number) => {
      let lo = 0;
      let hi = count;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (store.inputOf(visible ? visible[mid] : mid) < input) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    const out: Segment[] = [];
    let top = 0;
    for (const input of inputs) {
      const from = firstAtLeast(input.input);
      const to = firstAtLeast(input.input + 1);
      // Under a filter, an input with nothing to show is left out.
      if (visible && from === to) continue;
      const head = headerHeight(input);
      out.push({ input, top, head, from, to });
      top += head + (to - from) * ROW_HEIGHT;
    }
    return { segments: out, total: top };
    // `version` changes when records were added or replaced in place.
  }, [inputs, count, store, visible, version]);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    // The observer reports the first size too, after layout: reading clientHeight here would force
    // a synchronous layout of the whole page inside this task (64 ms when the first records arrive).
    const ro = new ResizeObserver((entries) => setHeight(entries[entries.length - 1].contentRect.height));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  // The rows in view (with some overscan), made only for those.
  const rows: Row[] = [];
  const lowest = scrollTop - OVERSCAN * ROW_HEIGHT;
  const highest = scrollTop + height + OVERSCAN * ROW_HEIGHT;
  for (const seg of segments) {
    const end = seg.top + seg.head + (seg.to - seg.from) * ROW_HEIGHT;
    if (end < lowest || seg.top > highest) continue;
    if (seg.top + seg.head >= lowest) rows.push({ kind: 'input', input: seg.input, top: seg.top, height: seg.head });
    const firstRow = Math.max(0, Math.floor((lowest - seg.top - seg.head) / ROW_HEIGHT));
    const lastRow = Math.min(seg.to - seg.from, Math.ceil((highest - seg.top - seg.head) / ROW_HEIGHT));
    for (let i = firstRow; i < lastRow; i++) {
      const record = recordAt(seg.from + i);
      if (record) rows.push({ kind: 'record', record, top: seg.top + seg.head + i * ROW_HEIGHT, unreadable: seg.input.error !== null });
    }
  }

  /** Position of a record key in the source list, and its row's top. */
  const locate = useCallback(
    (key: number): { index: number; top: number } | null => {
      let index = -1;
      if (!visible) index = key < store.length ? key : -1;
      else {
        let lo = 0;
        let hi = visible.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (visible[mid] < key) lo = mid + 1;
          else hi = mid;
        }
        index = visible[lo] === key ? lo : -1;
      }
      if (index < 0) return null;
      const seg = segments.find((s) => index >= s.from && index < s.to);
      return seg ? { index, top: seg.top + seg.head + (index - seg.from) * ROW_HEIGHT } : null;
    },
    [store, visible, segments],
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new selection scrolls, not the user's own scrolling (below)
  useEffect(() => {
    if (selected === null) return;
    const at = locate(selected);
    const el = box.current;
    if (!at || !el) return;
    // From the tracked scroll position and size, not el.scrollTop / clientHeight: reading those forces a layout.
    if (at.top < scrollTop) el.scrollTop = at.top;
    else if (at.top + ROW_HEIGHT > scrollTop + height) el.scrollTop = at.top + ROW_HEIGHT - height;
    // Only a new selection (or its row moving) scrolls; the user's own scrolling must not snap back.
  }, [selected, locate]);

  const focusKey = selected ?? (count ? (recordAt(0)?.key ?? null) : null);
  const inputNames = useMemo(() => new Map(inputs.map((i) => [i.input, i.name])), [inputs]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    const at = selected !== null ? locate(selected) : null;
    const index = Math.max(0, Math.min(count - 1, (at?.index ?? -1) + (e.key === 'ArrowDown' ? 1 : -1)));
    const next = recordAt(index);
    if (!next) return;
    onSelect(next.key);
    requestAnimationFrame(() => (box.current?.querySelector(`[data-record-key="${next.key}"]`) as HTMLElement | null)?.focus());
  };

  // The headers are beside the listbox, not in it: a listbox holds options only, and a header holds
  // a button (its error code opens its explanation). Both are placed in the one scrolled box.
  const place = (top: number, height: number) => ({ position: 'absolute', top, left: 0, right: 0, height }) as const;
  return (
    <div
      ref={box}
      data-testid="record-scroller"
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      className="relative h-full overflow-auto [contain:strict]"
    >
      {rows.map((row) =>
        row.kind === 'input' ? (
          <div key={`i${row.input.input}`} style={place(row.top, row.height)} className="z-10">
            <InputHeader input={row.input} />
          </div>
        ) : null,
      )}
      <div role="listbox" aria-label="Records" onKeyDown={onKeyDown} style={{ height: total, position: 'relative' }}>
        {rows.map((row) =>
          row.kind === 'record' ? (
            <div key={row.record.key} style={place(row.top, ROW_HEIGHT)}>
              {row.unreadable ? (
                <UnreadableRow
                  record={row.record}
                  selected={row.record.key === selected}
                  focusable={row.record.key === focusKey}
                  onSelect={onSelect}
                  inputName={inputNames.get(row.record.input) ?? ''}
                />
              ) : (
                <RecordRow
                  record={row.record}
                  selected={row.record.key === selected}
                  focusable={row.record.key === focusKey}
                  onSelect={onSelect}
                  inputName={inputNames.get(row.record.input) ?? ''}
                />
              )}
            </div>
          ) : null,
        )}
      </div>
    </div>
  );
}
