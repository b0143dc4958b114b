import { useQuery } from '@tanstack/react-query';
import { useCallback, useDeferredValue, useMemo, useState } from 'react';
import type { Span } from '../../core/model';
import type { RecordDetail } from '../../wire/protocol';
import { isoFromMicros } from '../../core/time';
import { shortId } from '../../core/short-id';
import { displayLines, displayText } from '../format';
import { inspectorClient } from '../worker-client';
import { queryKeys } from '../query-keys';
import { useCompareApi } from '../compare-context';
import { TrustSampleKey, useSampleKey } from '../sample-key';
import { Badges, Headline } from './Badges';
import { FieldTree, nodeAtOffset, nodeByPath } from './FieldTree';
import { Findings } from './Findings';
import { BytesView } from './BytesView';
import { CopyButton } from './CopyButton';
import { NamedText } from './Identity';
import { ReadableBodyView } from './ReadableBody';
import { RecordLinks } from './RecordLinks';
import { RuleRef } from './RuleRef';
import { Section } from './Section';
import { SignaturePanel } from './SignaturePanel';
import { WorkflowPanel } from './WorkflowPanel';

/** `onSelect` selects another record (a cause, a command the record names). */
export function DetailPanel({ recordKey, onSelect }: { recordKey: number; onSelect: (key: number) => void }) {
  const query = useQuery({ queryKey: queryKeys.detail(recordKey), queryFn: () => inspectorClient().call('detail', { key: recordKey }) });
  // A detail is hundreds of elements (tree, hex, findings). react-query's store updates render
  // synchronously; deferring the value renders the detail as a transition, in slices that yield,
  // so it never becomes one long task (it was 60 ms while a large file streamed in).
  const detail = useDeferredValue(query.data);
  if (query.isError) return <p className="p-4 text-sm text-red-600">Could not load the record: {query.error.message}</p>;
  if (query.data === null) return <p className="p-4 text-sm text-slate-600 dark:text-slate-400">This record is no longer loaded.</p>;
  if (!detail || detail.summary.key !== recordKey) return <p className="p-4 text-sm text-slate-600 dark:text-slate-400">Loading record…</p>;
  return <RecordDetailView key={recordKey} detail={detail} onSelect={onSelect} />;
}

/** What the reference calls the record, and which AGDX dialect its fields show (and by what). */
function DialectLine({ displayType, dialect, evidence }: { displayType: string | null; dialect: string | null; evidence: readonly string[] }) {
  return (
    <p className="mt-0.5 text-xs text-slate-600 dark:text-slate-300" data-testid="detail-dialect">
      {displayType && (
        <>
          display type <span className="font-mono text-teal-800 dark:text-teal-300">{displayType}</span>
        </>
      )}
      {displayType && dialect && ' · '}
      {dialect && (
        <>
          AGDX dialect <span className="font-mono">{dialect}</span>
          {evidence.length > 0 ? ` (shown by ${evidence.join(', ')})` : ' (nothing newer present)'}
        </>
      )}
    </p>
  );
}

/** Opens the picker of a record to compare this one with (src/ui/compare). */
function CompareWith({ recordKey }: { recordKey: number }) {
  const { compareWith } = useCompareApi();
  return (
    <button
      type="button"
      onClick={() => compareWith(recordKey)}
      className="rounded border border-slate-300 px-2 py-0.5 text-xs font-medium hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-teal-600 dark:border-slate-600 dark:hover:bg-slate-800"
    >
      Compare with…
    </button>
  );
}

function RecordDetailView({ detail, onSelect }: { detail: RecordDetail; onSelect: (key: number) => void }) {
  // A decode error that names the bytes it is about (a missing field: the map's head) shows them at first.
  const [selection, setSelection] = useState<{ path: string | null; span: Span | null; finding: number | null }>(() => ({
    path: null,
    span: detail.error?.span ?? null,
    finding: null,
  }));
  const selectField = useCallback((path: string, span: Span | null) => setSelection({ path, span, finding: null }), []);
  const selectFinding = useCallback(
    (i: number) => {
      const f = detail.findings[i];
      const node = f.path ? nodeByPath(detail.tree, f.path) : null;
      setSelection({ path: node?.path ?? f.path, span: f.span ?? node?.span ?? null, finding: i });
    },
    [detail],
  );
  const selectByte = useCallback(
    (offset: number) => {
      const node = nodeAtOffset(detail.tree, offset);
      setSelection(node ? { path: node.path, span: node.span, finding: null } : { path: null, span: [offset, offset + 1], finding: null });
    },
    [detail],
  );
  const notCovered = useMemo(() => new Set(detail.signature.not_covered), [detail]);
  const links = useMemo(() => new Map(detail.links.map((l) => [l.field as string, l])), [detail]);
  const s = detail.summary;
  const headerLine = useMemo(() => displayText([s.format, s.kind].filter(Boolean).join(' · ')), [s]);
  // Nothing recognised it (a PNG, an empty file, text of no known shape): one message and its bytes,
  // not empty findings, signature and field panels beside it.
  const unreadable = s.format === 'unknown' && !s.decoded;
  const sampleKey = useSampleKey();
  const showFields = !(unreadable && detail.tree.length === 0);

  return (
    <article aria-label="Record detail" className="flex flex-col gap-3 p-3">
      <header>
        <h2 className="text-base font-semibold [overflow-wrap:anywhere]">
          <bdi>{unreadable ? 'Not a record' : headerLine}</bdi>
          {s.id && (
            <>
              {' · '}
              <span className="font-mono" title={displayText(s.id)} data-testid="detail-id">
                {displayText(shortId(s.id))}
              </span>{' '}
              <CopyButton label="Copy id" title={`The whole id: ${displayText(s.id)}`} text={() => s.id ?? ''} />
            </>
          )}
        </h2>
        <p className="text-xs text-slate-600 dark:text-slate-300">
          <bdi data-testid="detail-input">{displayText(detail.inputName)}</bdi> · record #{s.index}
          {detail.parent !== null && ' · found inside the dead letter before it'}
          {detail.logPosition && ` · ${detail.logPosition}`}
          {detail.logTimeMicros && ` · logged ${isoFromMicros(detail.logTimeMicros) ?? `${detail.logTimeMicros} µs`}`}
        </p>
        {!unreadable && (
          <>
            <p className="mt-1 text-sm">
              <bdi>
                <NamedText text={s.summary} />
              </bdi>
            </p>
            {(s.displayType || s.dialect) && <DialectLine displayType={s.displayType} dialect={s.dialect} evidence={detail.dialectEvidence} />}
            <div className="mt-1 flex flex-wrap items-center gap-2">
              <Headline record={s} />
              <Badges record={s} />
              <CompareWith recordKey={s.key} />
            </div>
            {sampleKey.keyId !== null && detail.signature.key_id === sampleKey.keyId && <TrustSampleKey className="mt-1" />}
            <RecordLinks links={detail.links} onSelect={onSelect} />
          </>
        )}
      </header>
      {detail.error && (
        <div role="alert" className="rounded border border-red-300 bg-red-50 p-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
          {unreadable ? (
            <>
              <p className="font-medium">{displayText(detail.error.message)}</p>
              <p className="mt-0.5 text-xs">
                <RuleRef id={detail.error.code} />: nothing in this input could be read as an AGDX or AgentDNA record, so it has no findings, signature or
                fields. Its bytes are below.
              </p>
            </>
          ) : (
            <>
              <RuleRef id={detail.error.code} />: {displayText(detail.error.message)}
              {detail.error.offset !== null && (
                <>
                  {' at '}
                  <ErrorBytes error={detail.error} onShow={(span) => setSelection({ path: null, span, finding: null })} />
                </>
              )}
            </>
          )}
        </div>
      )}
      {!(unreadable && detail.findings.length === 0) && (
        <Section title={`Findings (${detail.findings.length})`}>
          <Findings findings={detail.findings} selected={selection.finding} onSelect={selectFinding} />
        </Section>
      )}
      {detail.workflow && (
        <Section title="AgentDNA workflow">
          <WorkflowPanel workflow={detail.workflow} />
        </Section>
      )}
      {!unreadable && (
        <Section title="Signature">
          <SignaturePanel detail={detail} />
        </Section>
      )}
      {/* The bytes get the width of 16 bytes a row with their ASCII column (33rem), the fields the rest. */}
      <div className={`grid grid-cols-1 gap-3 ${showFields ? 'xl:grid-cols-[minmax(0,1fr)_minmax(0,33rem)]' : ''}`}>
        {showFields && (
          <Section title="Fields">
            <FieldTree nodes={detail.tree} selectedPath={selection.path} onSelect={selectField} notCovered={notCovered} links={links} onLink={onSelect} />
          </Section>
        )}
        <BytesView detail={detail} highlight={selection.span} onByte={selectByte} />
      </div>
      {detail.body && (
        <Section title={`Body · ${detail.body.rendering}`}>
          <p className="mb-1 flex flex-wrap items-baseline gap-2 text-[11px] text-slate-500 dark:text-slate-400">
            <span>{displayText(detail.body.reason)}</span>
            <CopyButton label="Copy body" title="The body as shown below" text={() => detail.body?.text ?? ''} />
          </p>
          {detail.readableBody && <ReadableBodyView body={detail.readableBody} recordKey={detail.key} onSelect={onSelect} />}
          <section aria-label="Body">
            <pre className="max-h-80 overflow-auto rounded bg-slate-50 p-2 text-xs whitespace-pre-wrap break-all dark:bg-slate-900">
              {displayLines(detail.body.text)}
            </pre>
          </section>
        </Section>
      )}
      {detail.headers && (
        <Section title="Iggy headers">
          <table className="w-full text-xs" aria-label="Headers">
            <thead className="text-left text-slate-500 dark:text-slate-400">
              <tr>
                <th className="font-medium">Name</th>
                <th className="font-medium">Kind</th>
                <th className="font-medium">Value</th>
              </tr>
            </thead>
            <tbody>
              {detail.headers.map((h) => (
                <tr key={h.name} title={`hex ${h.hex}`}>
                  <td className="py-0.5 font-mono">
                    {displayText(h.name)}
                    {notCovered.has(`headers.${h.name}`) && (
                      <span className="ml-1 rounded border border-amber-500 px-1 font-sans text-[10px] text-amber-800 dark:text-amber-300">not signed</span>
                    )}
                  </td>
                  <td className="py-0.5">{displayText(h.kind)}</td>
                  <td className="py-0.5 font-mono break-all">{displayText(h.display)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Section>
      )}
    </article>
  );
}

/** Where a decode error is, as a button that shows those bytes in the hex view (a map's head for a missing field). */
function ErrorBytes({ error, onShow }: { error: NonNullable<RecordDetail['error']>; onShow: (span: Span) => void }) {
  const at = error.offset!;
  const span: Span = error.span ?? [at, at + 1];
  const words = span[1] - span[0] > 1 ? `bytes ${span[0]}–${span[1] - 1}` : `byte ${at}`;
  return (
    <button
      type="button"
      onClick={() => onShow(span)}
      className="underline underline-offset-2"
      data-testid="error-bytes"
      title="Show these bytes in the hex view"
    >
      {words}
      {error.code === 'agdx/missing-field' ? " (the map's head)" : ''}
    </button>
  );
}
