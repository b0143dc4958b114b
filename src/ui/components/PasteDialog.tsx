import { useState } from 'react';
import { Dialog } from './Dialog';

/** Paste hex, base64 or JSON text; it goes through the same load path as a dropped file. What was typed stays until it is inspected. */
export function PasteDialog({ open, onClose, onSubmit }: { open: boolean; onClose: () => void; onSubmit: (text: string) => void }) {
  const [text, setText] = useState('');
  if (!open) return null;
  return (
    <Dialog id="paste-title" title="Paste a record" onClose={onClose}>
      <label htmlFor="paste-text" className="text-xs text-slate-600 dark:text-slate-300">
        Hex, base64 or JSON (an envelope's JSON view or an Iggy export)
      </label>
      <textarea
        id="paste-text"
        data-autofocus
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
    </Dialog>
  );
}
