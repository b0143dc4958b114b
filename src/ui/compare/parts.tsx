// Small pieces the Comparison region's views share: a button's look, a section, and how a change
// is marked (a sign and a word, and a tint that is never the only sign).
import type { ChangeStatus } from '../../core/compare/model';
import { STATUS_WORDS } from './compare-view';

export const BUTTON =
  'rounded border border-slate-300 px-2 py-1 text-xs font-medium hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-teal-600 disabled:opacity-60 dark:border-slate-600 dark:hover:bg-slate-800';

export const STATUS_STYLE: Record<ChangeStatus, string> = {
  added: 'bg-emerald-50 dark:bg-emerald-950/60',
  removed: 'bg-red-50 dark:bg-red-950/60',
  changed: 'bg-amber-50 dark:bg-amber-950/60',
  same: '',
};

/**
 * A table where its box is wide enough (a container query: the pane's width counts, not the
 * window's); narrower, each row a card of the same cells, stacked, as the Findings do. The header
 * is then read out only (CardLabel puts its words before a value), and cells span the card's width
 * unless they say otherwise. The table's wrapper carries `@container`.
 */
export const CARD_TABLE = {
  table: 'block w-full text-xs @2xl:table',
  head: 'sr-only text-left text-slate-600 @2xl:not-sr-only @2xl:table-header-group dark:text-slate-300',
  body: 'block @2xl:table-row-group',
};
export const CARD_ROW =
  'grid grid-cols-[auto_minmax(0,1fr)] gap-x-2 border-t border-slate-100 px-1 py-1 align-top @2xl:table-row @2xl:px-0 dark:border-slate-800';

/** Set before a value in the stacked layout only (the table's header says it in the wide one); not read out: the header is. */
export function CardLabel({ children }: { children: string }) {
  return (
    <span aria-hidden="true" className="mr-1 font-sans font-semibold text-slate-600 @2xl:hidden dark:text-slate-300">
      {children}
    </span>
  );
}

/** A change's sign and word: `+ added`, `− removed`, `~ changed`, `= same`. */
export function StatusMark({ status }: { status: ChangeStatus }) {
  const w = STATUS_WORDS[status];
  return (
    <span className="font-mono whitespace-nowrap" data-status={status}>
      <span aria-hidden="true">{w.sign} </span>
      {w.word}
    </span>
  );
}

/** Words with `code` in backticks (field names in the signature's sentences): the code set as code, all of it text. */
export function WithCode({ text }: { text: string }) {
  const parts = text.split('`');
  // An odd part count: the backticks pair up; else show the text as it is.
  if (parts.length % 2 === 0) return <>{text}</>;
  return (
    <>
      {parts.map((p, i) =>
        i % 2 ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed sentence
          <code key={i} className="rounded bg-slate-100 px-0.5 font-mono text-[0.95em] dark:bg-slate-800">
            {p}
          </code>
        ) : (
          p
        ),
      )}
    </>
  );
}
