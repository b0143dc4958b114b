import { displayText } from '../format';
import type { StoppedInput } from '../worker-client';

/** Inputs the worker crashed or hung on: each with Retry (read it again) and Dismiss. */
export function StoppedInputs({
  stopped,
  onRetry,
  onDismiss,
}: {
  stopped: StoppedInput[];
  onRetry: (s: StoppedInput) => void;
  onDismiss: (s: StoppedInput) => void;
}) {
  if (stopped.length === 0) return null;
  return (
    <ul
      aria-label="Inputs not read"
      className="border-b border-red-300 bg-red-50 px-4 py-1 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
    >
      {stopped.map((s, i) => (
        <li key={i} className="flex flex-wrap items-center gap-2 py-1">
          <span>
            <strong className="font-medium">
              <bdi>{displayText(s.input.name)}</bdi>
            </strong>{' '}
            was not read: {s.reason}. It is not read again by itself, in case it does the same.
          </span>
          <button
            type="button"
            aria-label={`Retry ${displayText(s.input.name)}`}
            onClick={() => onRetry(s)}
            className="rounded border border-red-400 px-2 py-0.5 text-xs font-medium hover:bg-red-100 dark:border-red-700 dark:hover:bg-red-900"
          >
            Retry
          </button>
          <button
            type="button"
            aria-label={`Dismiss ${displayText(s.input.name)}`}
            onClick={() => onDismiss(s)}
            className="rounded px-2 py-0.5 text-xs hover:bg-red-100 dark:hover:bg-red-900"
          >
            Dismiss
          </button>
        </li>
      ))}
    </ul>
  );
}
