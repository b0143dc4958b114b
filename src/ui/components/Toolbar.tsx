import { useRef } from 'react';
import type { Intake } from '../hooks/use-intake';

interface Props {
  intake: Intake;
  keyCount: number;
  /** Anything loaded (Share and Clear need something). */
  loaded: boolean;
  status: string;
  onPaste: () => void;
  onKeys: () => void;
  onShare: () => void;
  onClear: () => void;
}

/** The page's header: the ways in (files, paste, samples), keys, share, clear, and the status line. */
export function Toolbar({ intake, keyCount, loaded, status, onPaste, onKeys, onShare, onClear }: Props) {
  const fileInput = useRef<HTMLInputElement>(null);
  return (
    <header className="flex flex-wrap items-center gap-2 border-b border-slate-200 px-4 py-2 dark:border-slate-800">
      <h1 className="mr-4 text-lg font-semibold tracking-tight">Envelope Inspector</h1>
      <button
        type="button"
        onClick={() => fileInput.current?.click()}
        className="rounded bg-teal-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-teal-800 focus-visible:ring-2 focus-visible:ring-teal-400"
      >
        Open files
      </button>
      <input
        ref={fileInput}
        type="file"
        multiple
        aria-label="Choose record files"
        className="hidden"
        onChange={(e) => {
          if (e.target.files?.length) intake.files(e.target.files);
          e.target.value = '';
        }}
      />
      <button
        type="button"
        onClick={onPaste}
        className="rounded border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
      >
        Paste
      </button>
      <details className="relative">
        <summary className="cursor-pointer list-none rounded border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800">
          Samples ▾
        </summary>
        <ul
          className="absolute z-30 mt-1 w-72 rounded border border-slate-200 bg-white py-1 text-sm shadow-lg dark:border-slate-700 dark:bg-slate-900"
          aria-label="Samples"
        >
          <li>
            <button
              type="button"
              className="w-full px-3 py-1 text-left font-medium hover:bg-slate-100 dark:hover:bg-slate-800"
              onClick={() => intake.sampleSet(intake.samples)}
            >
              All samples
            </button>
          </li>
          {intake.samples.map((s) => (
            <li key={s.file}>
              <button type="button" className="w-full px-3 py-1 text-left hover:bg-slate-100 dark:hover:bg-slate-800" onClick={() => intake.sampleSet([s])}>
                {s.title}
              </button>
            </li>
          ))}
        </ul>
      </details>
      <button
        type="button"
        onClick={onKeys}
        className="rounded border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
      >
        Keys ({keyCount})
      </button>
      <button
        type="button"
        onClick={onShare}
        disabled={!loaded}
        className="rounded border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100 disabled:opacity-40 dark:border-slate-700 dark:hover:bg-slate-800"
      >
        Share
      </button>
      <button
        type="button"
        onClick={onClear}
        disabled={!loaded}
        className="rounded px-3 py-1.5 text-sm hover:bg-slate-100 disabled:opacity-40 dark:hover:bg-slate-800"
      >
        Clear
      </button>
      <p role="status" className="ml-auto text-xs text-slate-500 dark:text-slate-400">
        {status}
      </p>
    </header>
  );
}
