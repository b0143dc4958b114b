// The record list: a listbox (the WAI-ARIA pattern, selection following focus), windowed so 100,000
// records scroll freely: only the rows in view are made (list/layout.ts places them). One Tab stop,
// the selected row, else the first shown: that row is always made, in view or not, so Tab always
// finds it. Up and Down, PageUp and PageDown, Home and End move and select (list/listbox.ts).
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { InputSummary } from '../../wire/protocol';
import type { Density } from './density';
import { layoutList, positions, rowsBetween, rowTop, type PlacedRow } from './layout';
import { listboxTarget } from '../listbox';
import { ComfortableRow, CompactRow, headerHeight, InputHeader, ROW_HEIGHT, UnreadableRow } from './rows';
import type { SummarySource } from '../summary-store';

interface Props {
  inputs: InputSummary[];
  store: SummarySource;
  /** Moves whenever records were added or replaced in the store. */
  version: number;
  /** The keys to show in order (a filter's or a sort's result), or null for all in log order. */
  visible: Int32Array | null;
  /** `visible` is not in log order: the inputs mix, no headers. */
  sorted: boolean;
  selected: number | null;
  onSelect: (key: number) => void;
  density: Density;
  /** Its records are on their way (a load has started and none has come): said to assistive technology. */
  busy: boolean;
}

const OVERSCAN = 3;

export function RecordList({ inputs, store, version, visible, sorted, selected, onSelect, density, busy }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(800);
  const rowHeight = ROW_HEIGHT[density];

  const count = visible ? visible.length : store.length;
  // `version` stands for the store's contents: a new one makes new callbacks, so rows re-read it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: version stands for the store's contents (see above)
  const keyAt = useCallback((i: number) => (visible ? visible[i] : i), [visible, version]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: version stands for the store's contents (see above)
  const layout = useMemo(
    () => layoutList(inputs, { count, keyAt, inputOf: (k) => store.inputOf(k) }, !sorted, rowHeight, headerHeight(density), visible !== null),
    [inputs, count, keyAt, store, sorted, rowHeight, density, visible, version],
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: version: the store may have grown
  const positionOf = useMemo(() => positions(visible, sorted, store.length), [visible, sorted, store, version]);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    // The observer reports the first size too, after layout: reading clientHeight here would force
    // a synchronous layout of the whole page inside this task (64 ms when the first records arrive).
    const ro = new ResizeObserver((entries) => setHeight(entries[entries.length - 1].contentRect.height));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  /** Position of a record key in the list, and its row's top. */
  const locate = useCallback(
    (key: number): { index: number; top: number } | null => {
      const index = positionOf(key);
      const top = index < 0 ? null : rowTop(layout, index);
      return top === null ? null : { index, top };
    },
    [positionOf, layout],
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new selection scrolls, not the user's own scrolling (below)
  useEffect(() => {
    if (selected === null) return;
    const at = locate(selected);
    const el = box.current;
    if (!at || !el) return;
    // From the tracked scroll position and size, not el.scrollTop / clientHeight: reading those forces a layout.
    if (at.top < scrollTop) el.scrollTop = at.top;
    else if (at.top + rowHeight > scrollTop + height) el.scrollTop = at.top + rowHeight - height;
    // Only a new selection (or its row moving) scrolls; the user's own scrolling must not snap back.
  }, [selected, locate]);

  // The one Tab stop: the selected record when the list shows it, else the first shown.
  const selectedAt = selected === null ? -1 : positionOf(selected);
  const focusKey = selectedAt >= 0 ? selected : count ? keyAt(0) : null;
  const focusAt = focusKey === null ? -1 : positionOf(focusKey);

  // The rows in view (with some overscan), and the Tab stop's row wherever it is.
  const placed: PlacedRow[] = rowsBetween(layout, scrollTop - OVERSCAN * rowHeight, scrollTop + height + OVERSCAN * rowHeight);
  if (focusAt >= 0 && !placed.some((r) => r.kind === 'record' && r.index === focusAt)) {
    const top = rowTop(layout, focusAt);
    const segment = layout.segments.find((s) => focusAt >= s.from && focusAt < s.to);
    if (top !== null && segment) placed.push({ kind: 'record', index: focusAt, top, segment });
  }

  // The row a key moved the selection to takes focus once it is drawn (it may be far off screen now).
  const focusNext = useRef<number | null>(null);
  useEffect(() => {
    const key = focusNext.current;
    if (key === null || key !== selected) return;
    const row = box.current?.querySelector<HTMLElement>(`[role="option"][data-record-key="${key}"]`);
    if (row) {
      focusNext.current = null;
      row.focus({ preventScroll: true });
    }
  });

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const page = Math.max(1, Math.floor(height / rowHeight) - 1);
    const to = listboxTarget(e.key, selectedAt, count, page);
    if (to === null) return;
    e.preventDefault();
    const key = keyAt(to);
    focusNext.current = key;
    if (key !== selected) onSelect(key);
  };

  const inputNames = useMemo(() => new Map(inputs.map((i) => [i.input, i.name])), [inputs]);
  const unreadable = useMemo(() => new Set(inputs.filter((i) => i.error).map((i) => i.input)), [inputs]);
  const Row = density === 'compact' ? CompactRow : ComfortableRow;

  // The headers are beside the listbox, not in it: a listbox holds options only, and a header holds
  // a button (its error code opens its explanation). Both are placed in the one scrolled box.
  const place = (top: number, h: number) => ({ position: 'absolute', top, left: 0, right: 0, height: h }) as const;
  return (
    <div
      ref={box}
      data-testid="record-scroller"
      data-density={density}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      className="@container relative h-full overflow-auto [scrollbar-gutter:stable] [contain:strict]"
    >
      {placed.map((row) =>
        row.kind === 'input' && row.segment.input ? (
          <div key={`i${row.segment.input.input}`} style={place(row.segment.top, row.segment.head)} className="z-10">
            <InputHeader input={row.segment.input} density={density} />
          </div>
        ) : null,
      )}
      <div role="listbox" aria-label="Records" aria-busy={busy || undefined} onKeyDown={onKeyDown} style={{ height: layout.total, position: 'relative' }}>
        {placed.map((row) => {
          if (row.kind !== 'record') return null;
          const record = store.get(keyAt(row.index));
          if (!record) return null;
          const props = {
            record,
            selected: record.key === selected,
            focusable: record.key === focusKey,
            onSelect,
            inputName: inputNames.get(record.input) ?? '',
            density,
          };
          return (
            <div key={record.key} style={place(row.top, rowHeight)}>
              {unreadable.has(record.input) ? <UnreadableRow {...props} /> : <Row {...props} />}
            </div>
          );
        })}
      </div>
    </div>
  );
}
