import { useEffect, useRef, useState } from 'react';
import type { TextReading } from '../../core/read-text';
import { displayText, groupDigits } from '../format';
import { inspectorClient } from '../worker-client';
import { Dialog } from './Dialog';
import { RuleRef } from './RuleRef';

/** How long typing must pause before the worker is asked what the text reads as. */
const SETTLE_MS = 250;

/** What the text reads as, in a line: "hex of a CBOR sequence: 7 records (command, chunk × 3, …)". */
function readingWords(r: TextReading): string {
  return `${r.format}: ${groupDigits(r.records)} record${r.records === 1 ? '' : 's'}${r.kinds ? ` (${r.kinds})` : ''}${r.decoded < r.records ? `, ${groupDigits(r.records - r.decoded)} not decoded` : ''}`;
}

/** Where the text fails: the line it is on, the failing character marked, with its line, column and byte. */
function FailurePlace({ at }: { at: NonNullable<NonNullable<TextReading['problem']>['at']> }) {
  const chars = Array.from(at.text);
  const i = at.column - 1;
  // The line as text, around the place (a long line is cut), the character there marked.
  const from = Math.max(0, i - 40);
  const to = Math.min(chars.length, i + 40);
  return (
    <>
      <p className="mt-1 font-medium" data-testid="paste-place">
        Line {at.line}, column {at.column} (byte {groupDigits(at.offset)}):
      </p>
      <pre className="mt-0.5 overflow-x-auto rounded bg-white p-1 font-mono text-[11px] dark:bg-slate-950">
        {from > 0 && '…'}
        {displayText(chars.slice(from, i).join(''))}
        <mark className="bg-red-300 text-black dark:bg-red-700 dark:text-white">{i < chars.length ? displayText(chars[i]) : '⟨end⟩'}</mark>
        {displayText(chars.slice(i + 1, to).join(''))}
        {to < chars.length && '…'}
      </pre>
    </>
  );
}

/**
 * Paste hex, base64, JSON or CBOR diagnostic notation; it goes through the same load path as a
 * dropped file. As it is typed, the dialog says what it reads as (the worker asks the importers).
 * Text nothing can be read from is not loaded: the dialog stays, with why and where it fails (its
 * line, column and byte, the line shown), and "Load it anyway" for a look at its bytes.
 * What was typed stays until it is inspected.
 */
export function PasteDialog({ open, onClose, onSubmit }: { open: boolean; onClose: () => void; onSubmit: (text: string) => void }) {
  const [text, setText] = useState('');
  const [reading, setReading] = useState<{ text: string; result: TextReading } | null>(null);
  /** Inspect was asked for and the text cannot be read: the reason stays until the text changes. */
  const [refused, setRefused] = useState<string | null>(null);
  const latest = useRef(text);
  latest.current = text;

  const check = (t: string): Promise<TextReading> =>
    inspectorClient()
      .call('readText', { text: t })
      .then((result) => {
        if (latest.current === t) setReading({ text: t, result });
        return result;
      });

  // biome-ignore lint/correctness/useExhaustiveDependencies: asked again when the text changes (check reads only it)
  useEffect(() => {
    if (!open || !text.trim()) return;
    const timer = setTimeout(() => void check(text).catch(() => {}), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [open, text]);

  if (!open) return null;
  const current = reading?.text === text ? reading.result : null;
  const submit = (t: string) => {
    onSubmit(t);
    setText('');
    setReading(null);
    setRefused(null);
  };
  const inspect = async () => {
    const r = current ?? (await check(text).catch(() => null));
    if (r?.problem) setRefused(text);
    else submit(text);
  };
  const problem = refused === text ? current?.problem : null;

  return (
    <Dialog id="paste-title" title="Paste a record" onClose={onClose}>
      <label htmlFor="paste-text" className="text-xs text-slate-600 dark:text-slate-300">
        Hex, base64 or JSON (an envelope's JSON view or an Iggy export), or CBOR diagnostic notation
      </label>
      <textarea
        id="paste-text"
        data-autofocus
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setRefused(null);
        }}
        rows={10}
        spellCheck={false}
        aria-describedby="paste-reading"
        className="mt-1 w-full rounded border border-slate-300 bg-slate-50 p-2 font-mono text-xs dark:border-slate-700 dark:bg-slate-950"
      />
      {/* What the text reads as, said as it changes (politely); a refusal is an alert below. */}
      <p id="paste-reading" aria-live="polite" data-testid="paste-reading" className="mt-1 min-h-4 text-xs text-slate-600 dark:text-slate-300">
        {!text.trim()
          ? ''
          : !current
            ? 'Reading…'
            : current.problem
              ? 'Nothing in this text reads as a record.'
              : `Reads as ${displayText(readingWords(current))}.`}
      </p>
      {problem && (
        <div
          role="alert"
          data-testid="paste-problem"
          className="mt-2 rounded border border-red-300 bg-red-50 p-2 text-xs text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
        >
          <p>
            This text cannot be read, so it was not loaded: {displayText(problem.message)} (<RuleRef id={problem.code} />)
          </p>
          {problem.at && <FailurePlace at={problem.at} />}
          <p className="mt-1">Fix the text above and inspect it again, or load it anyway to see its bytes as an unreadable input.</p>
        </div>
      )}
      <div className="mt-3 flex justify-end gap-2">
        <button type="button" onClick={onClose} className="rounded px-3 py-1.5 text-sm hover:bg-slate-100 dark:hover:bg-slate-800">
          Cancel
        </button>
        {problem && (
          <button
            type="button"
            onClick={() => submit(text)}
            className="rounded border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
          >
            Load it anyway
          </button>
        )}
        <button
          type="button"
          disabled={!text.trim()}
          onClick={() => void inspect()}
          className="rounded bg-teal-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-teal-800 disabled:opacity-50"
        >
          Inspect
        </button>
      </div>
    </Dialog>
  );
}
