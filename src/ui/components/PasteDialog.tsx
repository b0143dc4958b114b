import { useEffect, useRef, useState } from 'react';

/** Paste hex, base64 or JSON text; it goes through the same load path as a dropped file. */
export function PasteDialog({ open, onClose, onSubmit }: { open: boolean; onClose: () => void; onSubmit: (text: string) => void }) {
  const [text, setText] = useState('');
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (open) ref.current?.focus();
  }, [open]);
  if (!open) return null;
  return (
    <div className="fixed inset-0 z-40 flex items-center justify-center bg-black/40 p-4" onKeyDown={(e) => e.key === 'Escape' && onClose()}>
      <div role="dialog" aria-modal="true" aria-labelledby="paste-title" className="w-full max-w-2xl rounded-lg bg-white p-4 shadow-xl dark:bg-slate-900">
        <h2 id="paste-title" className="mb-2 text-sm font-semibold">
          Paste a record
        </h2>
        <label htmlFor="paste-text" className="text-xs text-slate-600 dark:text-slate-300">
          Hex, base64 or JSON (an envelope's JSON view or an Iggy export)
        </label>
        <textarea
          id="paste-text"
          ref={ref}
          value={text}
          onChange={(e) => setText(e.target.value)}
          rows={10}
          spellCheck={false}
          className="mt-1 w-full rounded border border-slate-300 bg-slate-50 p-2 font-mono text-xs dark:border-slate-700 dark:bg-slate-950"
        />
        <div className="mt-3 flex justify-end gap-2">
          <button type="button" onClick={onClose} className="rounded px-3 py-1.5 text-sm hover:bg-slate-100 dark:hover:bg-slate-800">
            Cancel
          </button>
          <button
            type="button"
            disabled={!text.trim()}
            onClick={() => {
              onSubmit(text);
              setText('');
            }}
            className="rounded bg-teal-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-teal-800 disabled:opacity-50"
          >
            Inspect
          </button>
        </div>
      </div>
    </div>
  );
}
