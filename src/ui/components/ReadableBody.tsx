// A 0.7 shaped body as a person reads it (src/core/bodies/readable.ts, built in the worker): its
// labelled values, a StateDelta's operations and the state after it, a snapshot's document as a
// tree, a context event's fragments with their token counts. Every pointer into the log links to
// the record there (clicking selects it), or says the record is not in this load.
import { Fragment, useState } from 'react';
import type { BodyField, FragmentView, PointedRecord, ReadableBody, StateAfter } from '../../core/bodies/readable';
import type { FieldNode } from '../../core/model';
import { displayText } from '../format';
import { FieldTree } from './FieldTree';
import { RecordButton } from './RecordLinks';

type OnSelect = (key: number) => void;

/** A pointer's record as a link, or the words for one the load does not have. */
function Pointer({ points, onSelect }: { points: PointedRecord | null; onSelect: OnSelect }) {
  if (points === null)
    return (
      <span data-ghost className="rounded border border-dashed border-slate-400 px-1 text-slate-700 dark:text-slate-300">
        not in this load
      </span>
    );
  return (
    <>
      → <RecordButton record={{ key: points.record, label: points.label }} onSelect={onSelect} />
    </>
  );
}

function Fields({ fields, onSelect }: { fields: readonly BodyField[]; onSelect: OnSelect }) {
  if (fields.length === 0) return null;
  return (
    <dl aria-label="Body fields" className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-xs">
      {fields.map((f) => (
        <Fragment key={f.label}>
          <dt className="font-semibold text-slate-700 dark:text-slate-300">{f.label}</dt>
          <dd className="min-w-0 [overflow-wrap:anywhere]">
            <span className="font-mono">
              <bdi>{displayText(f.value)}</bdi>
            </span>
            {f.points !== undefined && (
              <span className="ml-1.5">
                <Pointer points={f.points} onSelect={onSelect} />
              </span>
            )}
          </dd>
        </Fragment>
      ))}
    </dl>
  );
}

/** A JSON document as the record's field tree shows fields, with a selection of its own. */
function StateTree({ nodes, label }: { nodes: FieldNode[]; label: string }) {
  const [selected, setSelected] = useState<string | null>(null);
  return (
    <div className="mt-1 max-h-80 overflow-auto rounded bg-slate-50 p-1 dark:bg-slate-900">
      <FieldTree nodes={nodes} label={label} selectedPath={selected} onSelect={(path) => setSelected(path)} openDepth={3} />
    </div>
  );
}

/** `self`: the delta's own record (the last step when the way reached it). */
function After({ after, self, onSelect }: { after: StateAfter; self: number; onSelect: OnSelect }) {
  if (after.status === 'no-snapshot')
    return (
      <p className="mt-2 text-xs text-slate-600 dark:text-slate-400" data-testid="state-after">
        No state to show after this delta: {displayText(after.reason)}.
      </p>
    );
  // The steps before the last: applied (the last is this delta, or the one that failed).
  const earlier = after.steps.slice(0, -1);
  const last = after.steps.at(-1)!.record;
  return (
    <div className="mt-2 text-xs" data-testid="state-after">
      <h4 className="font-semibold">State after this delta</h4>
      <p className="mt-0.5 text-slate-700 dark:text-slate-300">
        From the snapshot <RecordButton record={{ key: after.snapshot.record, label: after.snapshot.label }} onSelect={onSelect} />
        {earlier.length > 0 && (
          <>
            , then the {earlier.length === 1 ? 'delta' : `${earlier.length} deltas`}{' '}
            {earlier.map((s, i) => (
              <Fragment key={s.record.record}>
                {i > 0 && ', '}
                <RecordButton record={{ key: s.record.record, label: s.record.label }} onSelect={onSelect} />
              </Fragment>
            ))}
          </>
        )}
        {after.status === 'applied' ? ', then this one.' : '.'}
      </p>
      {after.status === 'failed' ? (
        <p
          className="mt-1 rounded border border-red-300 bg-red-50 p-2 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
          data-testid="state-failed"
        >
          Could not apply{' '}
          {last.record === self ? (
            'this delta'
          ) : (
            <>
              the delta <RecordButton record={{ key: last.record, label: last.label }} onSelect={onSelect} />
            </>
          )}
          : {displayText(after.reason)}
        </p>
      ) : (
        <>
          {after.note && <p className="mt-1 text-amber-800 dark:text-amber-300">Note: {displayText(after.note)}</p>}
          <StateTree nodes={after.document} label="State after this delta" />
        </>
      )}
    </div>
  );
}

function Fragments({ fragments, onSelect }: { fragments: readonly FragmentView[]; onSelect: OnSelect }) {
  return (
    <div className="mt-2 text-xs">
      <h4 className="font-semibold">{fragments.some((f) => f.kind === 'item') ? 'Items' : 'Fragments'}</h4>
      <ul aria-label="Fragments" className="mt-0.5 flex flex-col gap-1">
        {fragments.map((f, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: fragments have no id of their own, and their order is the body's
          <li key={i} className="[overflow-wrap:anywhere]">
            {/* What counts first (kind, tokens, the record), then where it is from in words. */}
            <span className="mr-1.5 rounded bg-slate-100 px-1 font-mono dark:bg-slate-800">{displayText(f.kind)}</span>
            {f.tokens !== null && (
              <span className="whitespace-nowrap font-semibold">
                {f.tokens} tokens · {f.bytes} bytes
              </span>
            )}
            {f.score !== undefined && <span className="whitespace-nowrap font-semibold">score {f.score}</span>}
            {f.points !== undefined && (
              <span className="ml-1.5">
                <Pointer points={f.points} onSelect={onSelect} />
              </span>
            )}
            <bdi className="block font-mono text-[11px] text-slate-600 dark:text-slate-400">{displayText(f.what)}</bdi>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The body of record `recordKey`; `onSelect` selects the record a pointer names. */
export function ReadableBodyView({ body, recordKey, onSelect }: { body: ReadableBody; recordKey: number; onSelect: OnSelect }) {
  return (
    <section aria-label={`Readable ${body.title}`} data-shape={body.shape} className="mb-2 flex flex-col gap-1">
      <p className="text-sm font-semibold">{displayText(body.title)}</p>
      <Fields fields={body.fields} onSelect={onSelect} />
      {body.operations && (
        <div className="mt-2 text-xs">
          <h4 className="font-semibold">Operations (RFC 6902)</h4>
          <ol aria-label="Patch operations" className="mt-0.5 flex list-decimal flex-col gap-0.5 pl-5">
            {body.operations.map((o, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a patch's operations are in the patch's order and may repeat
              <li key={i} className="font-mono [overflow-wrap:anywhere]">
                <span className="font-semibold text-teal-800 dark:text-teal-300">{displayText(o.op)}</span> <bdi>{displayText(o.path)}</bdi>
                {o.from !== undefined && (
                  <>
                    {' '}
                    <span className="font-sans text-slate-600 dark:text-slate-400">from</span> <bdi>{displayText(o.from)}</bdi>
                  </>
                )}
                {o.value !== undefined && (
                  <>
                    {' '}
                    <span className="font-sans text-slate-600 dark:text-slate-400">value</span> <bdi>{displayText(o.value)}</bdi>
                  </>
                )}
              </li>
            ))}
          </ol>
        </div>
      )}
      {body.after && <After after={body.after} self={recordKey} onSelect={onSelect} />}
      {body.document && (
        <div className="mt-2 text-xs">
          <h4 className="font-semibold">Document</h4>
          <StateTree nodes={body.document} label="Snapshot document" />
        </div>
      )}
      {body.fragments && <Fragments fragments={body.fragments} onSelect={onSelect} />}
    </section>
  );
}
