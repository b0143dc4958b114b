// Above the record list: a button per column that sorts by it (again: the other way; a third time:
// back to log order), one Tab stop whose arrow keys move between the buttons (a toolbar), and the
// rows' density. The worker sorts (src/worker/list-order.ts); the list shows what it returns.
import { type KeyboardEvent, useRef } from 'react';
import { type ListColumn, LOG_ORDER, type ListOrder } from '../../wire/protocol';
import type { Density } from './density';
import { COLUMNS, WIDE_ONLY } from './rows';

const SORTABLE: { by: Exclude<ListColumn, 'log'>; label: string; words: [string, string]; wide?: boolean }[] = [
  { by: 'kind', label: 'Kind', words: ['A to Z', 'Z to A'] },
  { by: 'id', label: 'Id', words: ['A to Z', 'Z to A'] },
  { by: 'route', label: 'Source → target', words: ['by source, A to Z', 'by source, Z to A'] },
  { by: 'time', label: 'Time', words: ['oldest first', 'newest first'] },
  { by: 'type', label: 'Type', words: ['A to Z', 'Z to A'], wide: true },
  { by: 'verdict', label: 'Verdict', words: ['worst first', 'best first'] },
];

/** The order after activating column `by`'s button: ascending, then descending, then log order. */
export function nextOrder(current: ListOrder, by: Exclude<ListColumn, 'log'>): ListOrder {
  if (current.by !== by) return { by, descending: false };
  return current.descending ? LOG_ORDER : { by, descending: true };
}

/** The order in words: "time, newest first". */
export function orderWords(order: ListOrder): string {
  const col = SORTABLE.find((c) => c.by === order.by);
  return col ? `${col.label.toLowerCase()}, ${col.words[order.descending ? 1 : 0]}` : order.descending ? 'log order, last first' : 'log order';
}

/** Taller rows with the badges in words, or one line a record (beside the filter's count). */
export function DensityToggle({ density, onDensity }: { density: Density; onDensity: (d: Density) => void }) {
  return (
    <button
      type="button"
      aria-pressed={density === 'comfortable'}
      title={density === 'compact' ? 'Taller rows, with the badges in words' : 'One line a record, in columns'}
      onClick={() => onDensity(density === 'compact' ? 'comfortable' : 'compact')}
      className="rounded border border-slate-300 px-1.5 py-0.5 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-teal-600 dark:border-slate-700 dark:hover:bg-slate-800"
    >
      Comfortable rows
    </button>
  );
}

export function ListHeader({ order, onOrder, density }: { order: ListOrder; onOrder: (o: ListOrder) => void; density: Density }) {
  const bar = useRef<HTMLDivElement>(null);
  // The buttons are one Tab stop (the sorted column's, else the first); Left and Right move between them.
  const current = Math.max(
    0,
    SORTABLE.findIndex((c) => c.by === order.by),
  );
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const buttons = [...(bar.current?.querySelectorAll<HTMLButtonElement>('button[data-sort]') ?? [])].filter((b) => b.getClientRects().length > 0);
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: buttons.length - 1 }[e.key];
    if (to === undefined || at < 0) return;
    e.preventDefault();
    buttons[(to + buttons.length) % buttons.length].focus();
  };
  const sorted = order.by !== 'log';
  return (
    <div className="@container border-b border-slate-200 text-[11px] text-slate-600 dark:border-slate-800 dark:text-slate-400">
      <div className="flex items-center overflow-hidden [scrollbar-gutter:stable]">
        <div
          ref={bar}
          role="toolbar"
          aria-label="Sort the records by"
          onKeyDown={onKeyDown}
          className={`min-w-0 flex-1 ${density === 'compact' ? COLUMNS : 'flex flex-wrap gap-x-2 px-3'} py-0.5`}
        >
          {SORTABLE.map((c, i) => {
            const on = order.by === c.by;
            return (
              <button
                key={c.by}
                type="button"
                data-sort={c.by}
                tabIndex={i === current ? 0 : -1}
                aria-pressed={on}
                title={on ? (order.descending ? 'Back to log order' : `Sort ${c.words[1]}`) : `Sort by ${c.label.toLowerCase()}, ${c.words[0]}`}
                onClick={() => onOrder(nextOrder(order, c.by))}
                className={`truncate rounded-sm text-left hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-teal-600 dark:hover:text-slate-100 ${c.wide ? WIDE_ONLY : ''} ${c.by === 'verdict' ? 'text-right' : ''} ${on ? 'font-semibold text-slate-900 dark:text-slate-100' : ''}`}
              >
                {c.label}
                {on && (
                  <>
                    <span aria-hidden="true">{order.descending ? ' ▼' : ' ▲'}</span>
                    <span className="sr-only"> (sorted {c.words[order.descending ? 1 : 0]})</span>
                  </>
                )}
              </button>
            );
          })}
        </div>
      </div>
      {sorted && (
        <p className="flex items-center gap-2 border-t border-slate-200 px-3 py-0.5 dark:border-slate-800" data-testid="sorted-by">
          <span className="min-w-0 truncate">Sorted by {orderWords(order)}: the inputs are mixed (each row&apos;s input is in its tooltip).</span>
          <button
            type="button"
            onClick={() => onOrder(LOG_ORDER)}
            className="ml-auto shrink-0 rounded border border-slate-300 px-1 hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
          >
            Log order
          </button>
        </p>
      )}
    </div>
  );
}
