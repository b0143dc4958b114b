// Copies text to the clipboard (an id, a stretch of hex, a body): says it did, or, where the browser
// refuses, says so. The text is read when the button is pressed (a large body is not copied ahead).
import { useEffect, useState } from 'react';

export function CopyButton({ text, label, title }: { text: () => string; label: string; title: string }) {
  const [done, setDone] = useState<'copied' | 'refused' | null>(null);
  useEffect(() => {
    if (!done) return;
    const t = setTimeout(() => setDone(null), 2000);
    return () => clearTimeout(t);
  }, [done]);
  return (
    <button
      type="button"
      title={title}
      data-testid="copy"
      onClick={() => {
        const clip = navigator.clipboard;
        if (!clip) return setDone('refused');
        clip.writeText(text()).then(
          () => setDone('copied'),
          () => setDone('refused'),
        );
      }}
      className="rounded border border-slate-300 px-1.5 py-0 text-[11px] font-normal normal-case tracking-normal text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-teal-600 dark:border-slate-600 dark:text-slate-300 dark:hover:bg-slate-800"
    >
      {label}
      {/* Said once, politely, where the button is. */}
      <span aria-live="polite" className={done ? 'ml-1' : 'sr-only'}>
        {done === 'copied' ? '✓ copied' : done === 'refused' ? '(the browser refused: select and copy by hand)' : ''}
      </span>
    </button>
  );
}
