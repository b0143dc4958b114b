import { useRef } from 'react';
import { groupDigits } from '../format';
import { TrustSampleKey } from '../sample-key';
import { FileChooser } from './FileChooser';

interface Props {
  records: number;
  onFiles: (files: FileList) => void;
  onClear: () => void;
  onDismiss: () => void;
}

/** Focus after the note goes: the page's first control (Open files), not the top of the document. */
function focusToolbar() {
  requestAnimationFrame(() => document.querySelector<HTMLElement>('header button')?.focus());
}

/**
 * On a first visit the samples load by themselves: this says they are samples, with the ways to
 * replace them at hand. Shown once (later visits load nothing by themselves); gone when dismissed,
 * cleared, or when anything else is loaded.
 */
export function SamplesNote({ records, onFiles, onClear, onDismiss }: Props) {
  const picker = useRef<HTMLInputElement>(null);
  const button = 'rounded border border-sky-400 bg-white px-2 py-0.5 font-medium hover:bg-sky-100 dark:border-sky-700 dark:bg-slate-950 dark:hover:bg-sky-900';
  return (
    <section
      aria-label="About these records"
      className="flex flex-wrap items-center gap-x-3 gap-y-1.5 border-b border-sky-300 bg-sky-50 px-4 py-2 text-sm text-sky-950 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-100"
    >
      <p className="w-full sm:w-auto sm:min-w-0 sm:flex-1">
        <span className="font-semibold">{records === 1 ? 'This record is a sample' : `These ${groupDigits(records)} records are samples`}</span>, loaded on your
        first visit: open your own files, or drop them anywhere on the page.
      </p>
      <span className="flex flex-wrap items-center gap-2">
        {/* One sample is signed by a public test key: trusting it shows a record become trusted. */}
        <TrustSampleKey short />
        <button type="button" className={button} onClick={() => picker.current?.click()}>
          Open files…
        </button>
        <FileChooser ref={picker} label="Choose record files instead of the samples" onFiles={onFiles} />
        <button
          type="button"
          className={button}
          onClick={() => {
            onClear();
            focusToolbar();
          }}
        >
          Clear samples
        </button>
        <button
          type="button"
          aria-label="Dismiss this note"
          title="Dismiss this note"
          className="rounded px-2 py-0.5 hover:bg-sky-100 dark:hover:bg-sky-900"
          onClick={() => {
            onDismiss();
            focusToolbar();
          }}
        >
          ✕
        </button>
      </span>
    </section>
  );
}
