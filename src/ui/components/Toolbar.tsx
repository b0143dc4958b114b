import { useRef } from 'react';
import { useStrip } from '../hooks/use-strip';
import type { Intake } from '../hooks/use-intake';
import type { Sample } from '../sources';
import { FileChooser } from './FileChooser';

interface Props {
  intake: Intake;
  keyCount: number;
  /** Anything loaded (Share and Clear need something). */
  loaded: boolean;
  status: string;
  onPaste: () => void;
  onKeys: () => void;
  onShare: () => void;
  /** Saves the report (report@1 JSON), its Markdown summary, or a bundle of the view. */
  onExport: (what: 'json' | 'markdown' | 'bundle') => void;
  onClear: () => void;
}

const EXPORTS = [
  { what: 'json', label: 'Report (JSON)', title: "report@1, the command line's document (envelope-inspector inspect --json)" },
  { what: 'markdown', label: 'Summary (Markdown)', title: 'The report as a Markdown summary, for a ticket or a pull request' },
  { what: 'bundle', label: 'Bundle (.eibundle)', title: 'Everything loaded and this view, in a file that reopens it when dropped' },
] as const;

/** The page's header: the ways in (files, paste, samples), keys, share, export, clear, and the status line. */
export function Toolbar({ intake, keyCount, loaded, status, onPaste, onKeys, onShare, onExport, onClear }: Props) {
  const fileInput = useRef<HTMLInputElement>(null);
  // The samples and the exports close on Esc (focus back on their button) and on a click anywhere else.
  const samples = useStrip<HTMLUListElement>();
  const exports = useStrip<HTMLUListElement>();
  const { open: samplesOpen, setOpen: setSamplesOpen, button: samplesButton, strip: samplesMenu } = samples;
  const choose = (chosen: Sample[]) => {
    setSamplesOpen(false);
    samplesButton.current?.focus();
    intake.sampleSet(chosen);
  };
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
      <FileChooser ref={fileInput} label="Choose record files" onFiles={intake.files} />
      <button
        type="button"
        onClick={onPaste}
        className="rounded border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
      >
        Paste
      </button>
      <button
        ref={samplesButton}
        type="button"
        aria-expanded={samplesOpen}
        aria-controls="samples-menu"
        onClick={() => setSamplesOpen((open) => !open)}
        className="rounded border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
      >
        Samples {samplesOpen ? '▴' : '▾'}
      </button>
      {samplesOpen && (
        // Right after its button for the keyboard (Tab goes from the button into the samples), but drawn
        // as a strip of its own below the buttons (order-last): not a pop-over, it pushes the page down
        // and covers nothing, the tabs least of all.
        <ul
          ref={samplesMenu}
          id="samples-menu"
          aria-label="Samples"
          className="order-last flex basis-full flex-wrap gap-1 border-t border-slate-200 pt-2 text-sm dark:border-slate-800"
        >
          <li>
            <button
              type="button"
              className="rounded border border-slate-300 px-2 py-1 font-medium hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
              onClick={() => choose(intake.samples)}
            >
              All samples
            </button>
          </li>
          {intake.samples.map((s) => (
            <li key={s.file}>
              <button
                type="button"
                className="rounded border border-slate-300 px-2 py-1 hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
                onClick={() => choose([s])}
              >
                {s.title}
              </button>
            </li>
          ))}
        </ul>
      )}
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
        ref={exports.button}
        type="button"
        aria-expanded={exports.open}
        aria-controls="exports-menu"
        disabled={!loaded}
        onClick={() => exports.setOpen((open) => !open)}
        className="rounded border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100 disabled:opacity-40 dark:border-slate-700 dark:hover:bg-slate-800"
      >
        Export {exports.open ? '▴' : '▾'}
      </button>
      {exports.open && (
        // A strip of its own below the buttons, as the samples are.
        <ul
          ref={exports.strip}
          id="exports-menu"
          aria-label="Export"
          className="order-last flex basis-full flex-wrap gap-1 border-t border-slate-200 pt-2 text-sm dark:border-slate-800"
        >
          {EXPORTS.map((x) => (
            <li key={x.what}>
              <button
                type="button"
                title={x.title}
                className="rounded border border-slate-300 px-2 py-1 hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
                onClick={() => {
                  exports.setOpen(false);
                  exports.button.current?.focus();
                  onExport(x.what);
                }}
              >
                {x.label}
              </button>
            </li>
          ))}
        </ul>
      )}
      <button
        type="button"
        onClick={() => {
          setSamplesOpen(false);
          exports.setOpen(false);
          onClear();
        }}
        disabled={!loaded}
        className="rounded px-3 py-1.5 text-sm hover:bg-slate-100 disabled:opacity-40 dark:hover:bg-slate-800"
      >
        Clear
      </button>
      <p role="status" className="ml-auto text-xs text-slate-600 dark:text-slate-400">
        {status}
      </p>
    </header>
  );
}
