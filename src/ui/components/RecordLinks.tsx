// A record's cause, cause_at and correlation as links to the records they name, resolved in the
// worker over the record-level graph (src/core/graph/record-links.ts); a name no loaded record
// answers to says so, as the graph's ghost node does.
import { Fragment } from 'react';
import { shortId } from '../../core/short-id';
import type { LinkedRecord, RecordLinkView } from '../../wire/protocol';
import { displayText } from '../format';

const WHAT: Record<RecordLinkView['field'], string> = {
  cause: 'the causal parent, by record id',
  cause_at: 'the causal parent, by log position',
  correlation: 'the command it pairs with',
};

/** A button that selects the record it names (by its label): the detail's one look for a link to a record. */
export function RecordButton({ record, onSelect }: { record: LinkedRecord; onSelect: (key: number) => void }) {
  return (
    <button
      type="button"
      data-record-link={record.key}
      onClick={() => onSelect(record.key)}
      className="rounded-sm text-left text-teal-800 underline underline-offset-2 [overflow-wrap:anywhere] hover:decoration-2 focus-visible:outline-2 focus-visible:outline-teal-600 dark:text-teal-300"
    >
      <bdi>{displayText(record.label)}</bdi>
    </button>
  );
}

/** The reference as the record writes it: ids short (the whole one in the tooltip), a log position as it is. */
const refText = (l: RecordLinkView) => (l.field === 'cause_at' ? l.ref : shortId(l.ref));

export function RecordLinks({ links, onSelect }: { links: readonly RecordLinkView[]; onSelect: (key: number) => void }) {
  if (links.length === 0) return null;
  return (
    <dl aria-label="Related records" data-testid="record-links" className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-xs">
      {links.map((l) => (
        <Fragment key={l.field}>
          <dt className="font-mono font-semibold text-teal-800 dark:text-teal-300" title={WHAT[l.field]}>
            {l.field}
          </dt>
          <dd data-field={l.field} className="min-w-0">
            <span className="mr-1.5 font-mono text-slate-600 dark:text-slate-400" title={displayText(l.ref)}>
              {displayText(refText(l))}
            </span>
            {l.target ? (
              <>
                → <RecordButton record={l.target} onSelect={onSelect} />
              </>
            ) : l.answers.length > 0 ? (
              <>
                this command, answered by{' '}
                {l.answers.map((a, i) => (
                  <Fragment key={a.key}>
                    {i > 0 && ', '}
                    <RecordButton record={a} onSelect={onSelect} />
                  </Fragment>
                ))}
                {l.answerCount > l.answers.length && ` and ${l.answerCount - l.answers.length} more`}
              </>
            ) : (
              <span data-ghost className="rounded border border-dashed border-slate-400 px-1 text-slate-700 dark:text-slate-300">
                {l.field === 'correlation' ? 'no match loaded' : 'missing: not loaded'}
              </span>
            )}
            {l.note && <span className="block text-[11px] text-slate-600 dark:text-slate-400">{displayText(l.note)}</span>}
          </dd>
        </Fragment>
      ))}
    </dl>
  );
}
