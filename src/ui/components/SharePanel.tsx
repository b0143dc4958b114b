import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { InputRedaction, ShareRecords, Unblankable, ViewToShare } from '../../wire/protocol';
import { exportBundle } from '../exports';
import { groupDigits } from '../format';
import { queryKeys } from '../query-keys';
import { Dialog } from './Dialog';
import { inspectorClient } from '../worker-client';

/** Past this many characters a link is awkward in chat and mail (docs/guide.md: "Sharing"). */
export const LINK_SOFT_LIMIT = 8_000;

/** What each part a link can carry holds, for its choice's words: null when there is no such part. */
export interface ShareParts {
  /** The selected record in words (and the one compared with it), or null with nothing selected. */
  selected: string | null;
  /** Records the list's filter keeps, or null without a filter. */
  filtered: number | null;
  all: number;
}

const records = (n: number) => `${groupDigits(n)} record${n === 1 ? '' : 's'}`;

/**
 * Share a part of what is loaded, or all of it, with the view: a permalink (records and view in the
 * fragment) or a bundle file. Each part's link size is shown before one is chosen.
 */
export function SharePanel({ view, version, parts, onClose }: { view: ViewToShare; version: number; parts: ShareParts; onClose: () => void }) {
  const [redact, setRedact] = useState(false);
  // What to do with inputs that have parts redaction cannot blank: asked before any link is made.
  const [unblankable, setUnblankable] = useState<Unblankable | undefined>(undefined);
  const [copied, setCopied] = useState(false);
  const offered: ShareRecords[] = [
    ...(parts.selected !== null ? (['selected'] as const) : []),
    ...(parts.filtered !== null ? (['filtered'] as const) : []),
    'all',
  ];
  const [chosen, setChosen] = useState<ShareRecords>('all');
  const part = offered.includes(chosen) ? chosen : 'all';

  // Each part's link, built in the worker (the sizes are shown beside the choices), again whenever
  // the load, the view or an option changes. The last link stays on screen while the next is built.
  const linkOf = (records: ShareRecords) => ({
    queryKey: queryKeys.share(version, view, redact, unblankable, records),
    queryFn: async () => {
      const r = await inspectorClient().call('share', { view, redact, bundle: false, unblankable, records });
      return { url: r.fragment ? `${location.origin}${location.pathname}#${r.fragment}` : '', problems: r.problems, redaction: r.redaction };
    },
    placeholderData: <T,>(previous: T) => previous,
  });
  const links = {
    selected: useQuery({ ...linkOf('selected'), enabled: offered.includes('selected') }),
    filtered: useQuery({ ...linkOf('filtered'), enabled: offered.includes('filtered') }),
    all: useQuery(linkOf('all')),
  };
  const link = links[part].data ?? null;
  const sizeOf = (records: ShareRecords) => {
    const d = links[records].data;
    return d ? (d.url ? `${groupDigits(d.url.length)} characters` : 'cannot be shared as a link') : 'measuring…';
  };

  const withLeftovers = link?.redaction?.filter((x) => x.unblankable.length) ?? [];
  // Waiting for the person's choice about parts redaction cannot blank (not for a view too large to share).
  const pending = withLeftovers.length > 0 && !unblankable;

  const length = link?.url.length ?? 0;
  const tooLong = length > LINK_SOFT_LIMIT;
  const choices: { records: ShareRecords; words: string }[] = [
    ...(parts.selected !== null ? [{ records: 'selected' as const, words: `The selected record: ${parts.selected}` }] : []),
    ...(parts.filtered !== null ? [{ records: 'filtered' as const, words: `The ${records(parts.filtered)} the filter keeps` }] : []),
    { records: 'all', words: `Everything loaded: ${records(parts.all)}` },
  ];
  return (
    <Dialog id="share-title" title="Share this view" onClose={onClose}>
      <p className="text-xs text-slate-600 dark:text-slate-300">
        The records and the view travel in the link's fragment (after #), which browsers never send to a server. Keys never travel: whoever opens it checks the
        signatures against their own registry. A part travels as the bytes of its records alone (cut out of their inputs where they can be).
      </p>
      <fieldset className="mt-3 flex flex-col gap-1 text-sm" data-testid="share-parts">
        <legend className="text-xs font-medium">What to share</legend>
        {choices.map((c) => (
          <label key={c.records} className="flex items-baseline gap-2">
            <input type="radio" name="share-records" checked={part === c.records} onChange={() => setChosen(c.records)} />
            <span className="min-w-0">
              <bdi>{c.words}</bdi>{' '}
              <span className="text-xs text-slate-600 dark:text-slate-400" data-testid={`share-size-${c.records}`}>
                ({sizeOf(c.records)})
              </span>
            </span>
          </label>
        ))}
      </fieldset>
      <fieldset className="mt-3 flex flex-col gap-1 text-sm">
        <legend className="text-xs font-medium">Bodies</legend>
        <label className="flex items-center gap-2">
          <input type="radio" name="redact" checked={!redact} onChange={() => setRedact(false)} /> Include the records in full
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" name="redact" checked={redact} onChange={() => setRedact(true)} /> Redact bodies (blanked; signatures over them can then not be
          re-checked)
        </label>
      </fieldset>
      {redact && link?.redaction && <RedactionSummary redaction={link.redaction} />}
      {withLeftovers.length > 0 && (
        <div
          role="alert"
          data-testid="unblankable"
          className="mt-2 rounded border border-red-300 p-2 text-xs text-red-800 dark:border-red-800 dark:text-red-200"
        >
          <p className="font-medium">Redaction cannot blank everything: these parts would travel as they are.</p>
          <ul className="mt-1 list-disc pl-5">
            {withLeftovers.map((x) => (
              <li key={x.input}>
                <span className="font-mono break-all">{x.name}</span>: {x.unblankable.join('; ')}
              </li>
            ))}
          </ul>
          <fieldset className="mt-2 flex flex-col gap-1">
            <legend className="sr-only">What to do with these inputs</legend>
            <label className="flex items-center gap-2">
              <input type="radio" name="unblankable" checked={unblankable === 'leave-out'} onChange={() => setUnblankable('leave-out')} /> Leave these inputs
              out of the link
            </label>
            <label className="flex items-center gap-2">
              <input type="radio" name="unblankable" checked={unblankable === 'include'} onChange={() => setUnblankable('include')} /> Share them with these
              parts as they are
            </label>
          </fieldset>
          {pending && <p className="mt-1">Choose one: no link is made until you do.</p>}
        </div>
      )}
      {link?.problems.length && withLeftovers.length === 0 ? (
        <p role="alert" className="mt-2 text-xs text-red-700 dark:text-red-300">
          Cannot share this view: {link.problems.join('; ')}
        </p>
      ) : null}
      <label htmlFor="permalink" className="mt-3 block text-xs font-medium">
        Permalink
      </label>
      <input
        id="permalink"
        readOnly
        value={link?.url ?? ''}
        className="mt-1 w-full rounded border border-slate-300 bg-slate-50 px-2 py-1 font-mono text-xs dark:border-slate-700 dark:bg-slate-950"
        onFocus={(e) => e.target.select()}
      />
      <p
        data-testid="link-size"
        className={`mt-1 text-xs ${tooLong ? 'text-red-700 dark:text-red-300' : length > 2000 ? 'text-amber-700 dark:text-amber-300' : 'text-slate-600 dark:text-slate-400'}`}
      >
        {link ? `${groupDigits(length)} characters` : 'Building the link…'}
        {tooLong &&
          ` — longer than ${groupDigits(LINK_SOFT_LIMIT)}, too long for most chat and mail: download a bundle file instead (it reopens this view when dropped).`}
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        <button
          type="button"
          disabled={!link?.url}
          onClick={async () => {
            await navigator.clipboard?.writeText(link!.url).catch(() => {});
            setCopied(true);
          }}
          className="rounded bg-teal-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-teal-800 disabled:opacity-50"
        >
          {copied ? 'Copied' : 'Copy link'}
        </button>
        <button
          type="button"
          disabled={!link?.url || pending}
          onClick={() => void exportBundle(view, { redact, unblankable, records: part })}
          className={`rounded px-3 py-1.5 text-sm ${tooLong ? 'bg-teal-700 font-medium text-white hover:bg-teal-800' : 'border border-slate-300 hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800'}`}
        >
          Download bundle
        </button>
      </div>
    </Dialog>
  );
}

/** What redaction blanks, input by input, shown before the link is copied. */
function RedactionSummary({ redaction }: { redaction: InputRedaction[] }) {
  return (
    <ul aria-label="What is blanked" data-testid="redaction" className="mt-2 list-disc pl-5 text-xs text-slate-600 dark:text-slate-300">
      {redaction.map((x) => (
        <li key={x.input}>
          <span className="font-mono break-all">{x.name}</span>: {x.blanked.length ? `blanked ${x.blanked.join(', ')}` : 'nothing to blank'}
        </li>
      ))}
    </ul>
  );
}
