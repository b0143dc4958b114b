// Two conversations or two inputs compared record by record: a table of matched pairs (by
// correlation, or by their order) with what changed in fields, verdicts and latency, and the rows
// only on one side. Each record opens its detail.
import { useMemo, useState } from 'react';
import type { LogComparison, LogPair, LogRecordSide } from '../../core/compare/model';
import { signatureWords } from '../../core/verdict';
import { displayText, groupDigits } from '../format';
import { latencyWords } from './compare-view';
import { BUTTON, CARD_ROW, CARD_TABLE, CardLabel, STATUS_STYLE, StatusMark } from './parts';

/** Rows drawn at first; more on request (a comparison lists up to 5,000). */
const FIRST_ROWS = 300;

function RecordCell({ r, side, onSelect }: { r: LogRecordSide | null; side: 'A' | 'B'; onSelect: (key: number) => void }) {
  if (!r) return <span className="text-slate-600 dark:text-slate-400">—</span>;
  // This table's own wording: "signature" only before a valid one ("valid · signature valid, trusted", "valid · unsigned").
  const words = signatureWords({ status: r.signature, trusted: r.trusted }).words;
  const verdict = `${r.valid ? 'valid' : 'invalid'} · ${r.signature === 'valid' ? `signature ${words}` : words}`;
  return (
    <span className="flex flex-col gap-0.5">
      <button
        type="button"
        className={`${BUTTON} self-start font-mono`}
        onClick={() => onSelect(r.key)}
        aria-label={`#${r.index} ${displayText(r.kind)}: show ${side}'s record #${r.index} of ${displayText(r.inputName)}`}
      >
        #{r.index} {displayText(r.kind)}
      </button>
      <span className="text-slate-600 dark:text-slate-300">{verdict}</span>
    </span>
  );
}

function ChangeCell({ p }: { p: LogPair }) {
  const { status } = p;
  const latency = p.latency && (p.latency.a !== null || p.latency.b !== null) ? `latency ${latencyWords(p.latency.a)} → ${latencyWords(p.latency.b)}` : null;
  return (
    <span className="flex flex-col gap-0.5">
      <StatusMark status={status} />
      {status === 'removed' && <span>only in A</span>}
      {status === 'added' && <span>only in B</span>}
      {p.fields.length > 0 && (
        <span className="break-all">
          fields: <bdi>{displayText(p.fields.join(', '))}</bdi>
        </span>
      )}
      {p.verdicts.map((v) => (
        <span key={v}>{v}</span>
      ))}
      {latency && <span data-testid="latency">{latency}</span>}
      {p.ids.length > 0 && (
        <span className="text-slate-600 dark:text-slate-400">
          ids and signature bytes differ: <bdi>{displayText(p.ids.join(', '))}</bdi>
        </span>
      )}
    </span>
  );
}

export function LogDiffView({ c, onSelect }: { c: LogComparison; onSelect: (key: number) => void }) {
  const [showSame, setShowSame] = useState(false);
  const [limit, setLimit] = useState(FIRST_ROWS);
  const rows = useMemo(() => (showSame ? c.pairs : c.pairs.filter((p) => p.status !== 'same')), [c.pairs, showSame]);
  const what = c.scope === 'inputs' ? 'input' : 'conversation';
  return (
    <section aria-labelledby="compare-log" className="rounded border border-slate-200 p-3 dark:border-slate-700">
      <h3 id="compare-log" className="mb-2 text-xs font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-300">
        Records of the two {what}s
      </h3>
      <p className="text-xs" data-testid="log-counts">
        A: <bdi>{displayText(c.a.label)}</bdi> ({groupDigits(c.a.records)} records); B: <bdi>{displayText(c.b.label)}</bdi> ({groupDigits(c.b.records)}{' '}
        records). {c.counts.same} matched and the same, {c.counts.changed} matched and changed, {c.counts.onlyA} only in A, {c.counts.onlyB} only in B. Records
        are matched by correlation and kind (and sequence in a stream), else by their order: the n-th exchange's records with the n-th's.
      </p>
      <label className="mt-1 flex items-center gap-2 text-xs">
        <input type="checkbox" checked={showSame} onChange={(e) => setShowSame(e.target.checked)} /> Show unchanged records
      </label>
      {rows.length === 0 && <p className="mt-2 text-xs">{c.pairs.length ? 'Every matched record is the same.' : 'Neither side has records.'}</p>}
      {rows.length > 0 && (
        <div className="mt-2 @container">
          <table aria-label="Records side by side" className={CARD_TABLE.table}>
            <thead className={CARD_TABLE.head}>
              <tr>
                <th scope="col" className="py-0.5 font-medium">
                  Role
                </th>
                <th scope="col" className="py-0.5 font-medium">
                  Matched by
                </th>
                <th scope="col" className="py-0.5 font-medium">
                  A
                </th>
                <th scope="col" className="py-0.5 font-medium">
                  B
                </th>
                <th scope="col" className="py-0.5 font-medium">
                  What changed
                </th>
              </tr>
            </thead>
            <tbody className={CARD_TABLE.body}>
              {rows.slice(0, limit).map((p) => {
                const { status } = p;
                return (
                  <tr key={`${p.a?.key ?? '-'}:${p.b?.key ?? '-'}`} data-status={status} className={`${CARD_ROW} ${STATUS_STYLE[status]}`}>
                    <td className="col-span-2 py-1 pr-2 font-medium @2xl:font-normal">
                      <bdi>{displayText(p.role)}</bdi>
                    </td>
                    <td className="col-span-2 py-1 pr-2">
                      <CardLabel>Matched by</CardLabel>
                      {p.matchedBy ?? '—'}
                    </td>
                    <td className="flex items-start gap-1 py-1 pr-2 @2xl:table-cell">
                      <CardLabel>A</CardLabel>
                      <RecordCell r={p.a} side="A" onSelect={onSelect} />
                    </td>
                    <td className="flex items-start gap-1 py-1 pr-2 @2xl:table-cell">
                      <CardLabel>B</CardLabel>
                      <RecordCell r={p.b} side="B" onSelect={onSelect} />
                    </td>
                    <td className="col-span-2 min-w-0 py-1">
                      <ChangeCell p={p} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {rows.length > limit && (
        <button type="button" className={`${BUTTON} mt-2`} onClick={() => setLimit((n) => n + FIRST_ROWS)}>
          Show {Math.min(FIRST_ROWS, rows.length - limit)} more rows
        </button>
      )}
      {c.omitted > 0 && <p className="mt-1 text-xs">{groupDigits(c.omitted)} more pairs are counted above but not listed.</p>}
    </section>
  );
}
