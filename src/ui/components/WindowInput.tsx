// One bound of a key's window, typed as a UTC date and time (core/time.ts parseUtcMicros reads it),
// with the epoch microseconds it means shown under it: what a key file stores and a trust
// decision compares. Empty is unbounded.
import { useId, useState } from 'react';
import { parseUtcMicros, utcFromMicros } from '../../core/time';

/** What the field shows for a bound: its UTC date and time, or nothing for unbounded. */
export const windowText = (micros: bigint | null) => (micros === null ? '' : (utcFromMicros(micros) ?? micros.toString()));

/** The micros and their reading under the field, or the problem. */
export function windowNote(text: string): { micros: bigint | null; note: string; problem: boolean } {
  const r = parseUtcMicros(text);
  if ('problem' in r) return { micros: null, note: r.problem, problem: true };
  if (r.micros === null) return { micros: null, note: 'unbounded', problem: false };
  // Typed as a date: the micros it means; typed as micros: the date they mean.
  return { micros: r.micros, note: /^\s*\d+\s*$/.test(text) ? `${r.micros} µs = ${utcFromMicros(r.micros) ?? 'no date'}` : `= ${r.micros} µs`, problem: false };
}

interface Props {
  label: string;
  /** The field's accessible name, when the visible label is not enough ("Not before of key fe81…"). */
  ariaLabel?: string;
  /** The bound as stored (null: unbounded). */
  value: bigint | null;
  /** A bound read from the text: on every change (`live`) or when the field is left. */
  onValue: (micros: bigint | null, problem: boolean) => void;
  /** Report on every keystroke rather than on leaving the field. */
  live?: boolean;
  className?: string;
}

/** A labelled text field for one window bound, UTC. */
export function WindowInput({ label, ariaLabel, value, onValue, live = false, className = '' }: Props) {
  const id = useId();
  const [text, setText] = useState(() => windowText(value));
  const note = windowNote(text);
  return (
    <span className={`flex min-w-0 flex-col ${className}`}>
      <label htmlFor={id} className="text-[11px]">
        {label}
      </label>
      <input
        id={id}
        aria-label={ariaLabel}
        value={text}
        placeholder="unbounded (YYYY-MM-DD HH:MM:SS)"
        spellCheck={false}
        aria-invalid={note.problem || undefined}
        aria-describedby={`${id}-note`}
        onChange={(e) => {
          setText(e.target.value);
          if (live) {
            const n = windowNote(e.target.value);
            onValue(n.micros, n.problem);
          }
        }}
        onBlur={() => {
          if (!live && !note.problem) onValue(note.micros, false);
        }}
        className="w-full min-w-0 rounded border border-slate-300 bg-white px-1 py-0.5 font-mono text-[11px] aria-invalid:border-red-500 dark:border-slate-700 dark:bg-slate-950"
      />
      <span id={`${id}-note`} className={`text-[10px] ${note.problem ? 'text-red-700 dark:text-red-300' : 'text-slate-600 dark:text-slate-400'}`}>
        {note.note}
      </span>
    </span>
  );
}
