import type { ReactNode } from 'react';

/** A titled part of a pane (a record's detail, a comparison); named by its heading when it has an `id`. */
export function Section({ id, title, children }: { id?: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded border border-slate-200 p-3 dark:border-slate-700">
      <h3 id={id} className="mb-2 text-xs font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-300">
        {title}
      </h3>
      {children}
    </section>
  );
}
