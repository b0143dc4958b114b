import type { ReactNode } from 'react';

/** A modal panel with its title and a Close button; Escape closes it. `side` docks it to the right. */
export function Dialog({ id, title, onClose, side = false, children }: { id: string; title: string; onClose: () => void; side?: boolean; children: ReactNode }) {
  return (
    <div className={`fixed inset-0 z-40 flex bg-black/30 ${side ? 'justify-end' : 'items-start justify-center p-4 pt-20'}`} onKeyDown={(e) => e.key === 'Escape' && onClose()}>
      <section
        role="dialog"
        aria-modal="true"
        aria-labelledby={id}
        className={side ? 'flex h-full w-full max-w-3xl flex-col gap-3 overflow-auto bg-white p-4 shadow-xl dark:bg-slate-900' : 'w-full max-w-2xl rounded-lg bg-white p-4 shadow-xl dark:bg-slate-900'}
      >
        <header className={`flex items-center ${side ? '' : 'mb-2'}`}>
          <h2 id={id} className="text-base font-semibold">
            {title}
          </h2>
          <button type="button" onClick={onClose} className="ml-auto rounded px-2 py-1 text-sm hover:bg-slate-100 dark:hover:bg-slate-800">
            Close
          </button>
        </header>
        {children}
      </section>
    </div>
  );
}
