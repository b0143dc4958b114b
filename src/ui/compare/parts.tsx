// Small pieces the Comparison region's views share: a button's look, a section, and how a change
// is marked (a sign and a word, and a tint that is never the only sign).
import type { ReactNode } from 'react';
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

export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded border border-slate-200 p-3 dark:border-slate-700">
      <h3 id={id} className="mb-2 text-xs font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-300">
        {title}
      </h3>
      {children}
    </section>
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
