// Two records compared, as the Comparison region shows them: their verdicts side by side, what the
// difference means for signatures, the field diff (every change marked by a sign and a word, not
// by colour alone), the byte diff of their canonical encodings as compact hex with the differing
// bytes marked, and two AgentDNA workflows envelope by envelope. Strings from records are text.
import { type CSSProperties, useState } from 'react';
import type { ByteDiff, ChangeStatus, EnvelopePair, EnvelopeSide, FieldRow, RecordComparison, VerdictSide, WorkflowDiff } from '../../core/compare/model';
import { envelopeWords, signatureWords } from '../../core/verdict';
import { RuleRef } from '../components/RuleRef';
import { displayText, groupDigits, hex2 } from '../format';
import { alignedColumns, byteHunks, type ByteColumn, bytesWords, columnWords, type Hunk, shownRows } from './compare-view';
import { Section } from '../components/Section';
import { CardLabel, CARD_ROW, CARD_TABLE, STATUS_STYLE, StatusMark, WithCode } from './parts';

export function RecordDiffView({ c }: { c: RecordComparison }) {
  return (
    <div className="flex flex-col gap-3">
      <div className="grid grid-cols-1 gap-3 xl:grid-cols-2">
        <VerdictsSection c={c} />
        <Section id="compare-signatures" title="What it means for signatures">
          <p data-testid="signature-meaning" className="font-semibold">
            {c.signature.headline}
          </p>
          {c.signature.details.length > 0 && (
            <ul className="mt-1 list-disc space-y-0.5 pl-5 text-xs [overflow-wrap:anywhere]">
              {c.signature.details.map((d) => (
                <li key={d}>
                  <bdi>
                    <WithCode text={displayText(d)} />
                  </bdi>
                </li>
              ))}
            </ul>
          )}
          {c.signature.segments && (
            <p className="mt-1 text-xs text-slate-600 dark:text-slate-300">
              Signing input, segment by segment: domain {c.signature.segments.domain ? 'same' : 'differs'} · signed context{' '}
              {c.signature.segments.context ? 'same' : 'differs'} · canonical envelope without its signature{' '}
              {c.signature.segments.envelope ? 'same' : 'differs'}.
            </p>
          )}
        </Section>
      </div>
      {/* Two workflows: envelope by envelope first, what changed deep in the chains after. */}
      {c.workflow && <WorkflowSection w={c.workflow} />}
      <FieldsSection c={c} />
      {c.bytes && <BytesSection d={c.bytes} />}
    </div>
  );
}

const yesNo = (v: boolean) => (v ? 'yes' : 'no');
const signature = (v: VerdictSide) => signatureWords({ status: v.signature, trusted: v.trusted }).words;

function VerdictsSection({ c }: { c: RecordComparison }) {
  const { a, b } = c.verdicts;
  const rows: [string, string, string][] = [
    ['Decoded', yesNo(a.decoded), yesNo(b.decoded)],
    ['Valid', yesNo(a.valid), yesNo(b.valid)],
    ['Signature', signature(a), signature(b)],
    ['Errors', String(a.errors), String(b.errors)],
    ['Warnings', String(a.warnings), String(b.warnings)],
  ];
  return (
    <Section id="compare-verdicts" title="Verdicts side by side">
      <table aria-label="Verdicts side by side" className="w-full text-xs">
        <thead className="text-left text-slate-600 dark:text-slate-300">
          <tr>
            <th scope="col" className="py-0.5 font-medium">
              Verdict
            </th>
            <th scope="col" className="py-0.5 font-medium">
              A
            </th>
            <th scope="col" className="py-0.5 font-medium">
              B
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([what, x, y]) => (
            <tr key={what} data-differs={x !== y || undefined} className={x !== y ? STATUS_STYLE.changed : ''}>
              <th scope="row" className="py-0.5 pr-2 text-left font-normal">
                {what}
                {x !== y && <span className="ml-1 font-mono">(differs)</span>}
              </th>
              <td className="py-0.5 pr-2">{x}</td>
              <td className="py-0.5">{y}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {(c.verdicts.onlyA.length > 0 || c.verdicts.onlyB.length > 0) && (
        <ul className="mt-1 space-y-0.5 text-xs">
          {(
            [
              ['A', c.verdicts.onlyA],
              ['B', c.verdicts.onlyB],
            ] as const
          ).map(
            ([side, rules]) =>
              rules.length > 0 && (
                <li key={side}>
                  Found on {side} only:{' '}
                  {rules.map((r, i) => (
                    <span key={r}>
                      {i > 0 && ', '}
                      <RuleRef id={r} />
                    </span>
                  ))}
                </li>
              ),
          )}
        </ul>
      )}
    </Section>
  );
}

function FieldsSection({ c }: { c: RecordComparison }) {
  const [showSame, setShowSame] = useState(false);
  const f = c.fields;
  const rows = shownRows(f.rows, showSame);
  const total = f.counts.added + f.counts.removed + f.counts.changed;
  const body = f.body;
  return (
    <Section id="compare-fields" title="Fields">
      <p className="text-xs" data-testid="field-counts">
        {total === 0 ? 'No field differs.' : `${f.counts.added} added, ${f.counts.removed} removed, ${f.counts.changed} changed.`}
        {body && (
          <>
            {' '}
            Bodies compared{' '}
            {body.compared === 'json'
              ? 'as JSON, member by member'
              : body.compared === 'cbor'
                ? 'as CBOR, member by member'
                : body.compared === 'text'
                  ? 'as text'
                  : 'as bytes'}
            {body.compared === 'bytes' && (body.a !== 'bytes' || body.b !== 'bytes') ? ` (A reads as ${body.a ?? 'no body'}, B as ${body.b ?? 'no body'})` : ''}
            .
          </>
        )}
      </p>
      <label className="mt-1 flex items-center gap-2 text-xs">
        <input type="checkbox" checked={showSame} onChange={(e) => setShowSame(e.target.checked)} /> Show unchanged fields
      </label>
      {rows.length > 0 && (
        // A table where its box is wide enough; narrower (a phone), each row a card of the same cells, as the Findings do.
        <div className="mt-2 @container">
          <table aria-label="Field differences" className={`${CARD_TABLE.table} @2xl:table-fixed`}>
            <colgroup>
              <col className="w-24" />
              <col className="w-[28%]" />
              <col />
              <col />
            </colgroup>
            <thead className={CARD_TABLE.head}>
              <tr>
                <th scope="col" className="py-0.5 font-medium">
                  Change
                </th>
                <th scope="col" className="py-0.5 font-medium">
                  Field
                </th>
                <th scope="col" className="py-0.5 font-medium">
                  A
                </th>
                <th scope="col" className="py-0.5 font-medium">
                  B
                </th>
              </tr>
            </thead>
            <tbody className={CARD_TABLE.body}>
              {rows.map((r) => (
                <FieldDiffRow key={`${r.path}|${r.status}|${r.a ?? ''}|${r.b ?? ''}`} r={r} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {f.omitted > 0 && <p className="mt-1 text-xs">{groupDigits(f.omitted)} more rows are not shown (their changes are counted above).</p>}
    </Section>
  );
}

function FieldDiffRow({ r }: { r: FieldRow }) {
  const value = (v: string | null) => (v === null ? <span className="text-slate-600 dark:text-slate-400">(absent)</span> : <bdi>{displayText(v)}</bdi>);
  return (
    <tr data-path={displayText(r.path)} data-status={r.status} className={`${CARD_ROW} ${STATUS_STYLE[r.status]}`}>
      <td className="py-0.5 pr-1">
        <StatusMark status={r.status} />
      </td>
      <td
        className="min-w-0 py-0.5 pr-2 pl-[calc(var(--depth)*0.25rem)] font-mono [overflow-wrap:anywhere] @2xl:pl-[calc(var(--depth)*0.75rem)]"
        // Nested members indented by depth: a little on a card, more in the table.
        style={{ '--depth': r.depth } as CSSProperties}
      >
        <bdi>{displayText(r.path)}</bdi>
      </td>
      <td className="col-span-2 min-w-0 py-0.5 pr-2 font-mono [overflow-wrap:anywhere]">
        <CardLabel>A</CardLabel>
        {value(r.a)}
      </td>
      <td className="col-span-2 min-w-0 py-0.5 font-mono [overflow-wrap:anywhere]">
        <CardLabel>B</CardLabel>
        {value(r.b)}
      </td>
    </tr>
  );
}

const BYTES_TITLE: Record<ByteDiff['what'], string> = {
  'agdx-canonical': 'Canonical encodings (byte diff)',
  'agentdna-content': "Hashed content of the tips (byte diff of AgentDNA's json.dumps)",
  received: 'Bytes as received (no canonical encoding for these records)',
};

/** Columns shown per hunk; a longer stretch says how many more. */
const HUNK_BYTES = 256;

function BytesSection({ d }: { d: ByteDiff }) {
  const { hunks, more } = byteHunks(d);
  const changed = d.ranges.filter((r) => r.op === 'changed');
  const fields = [...new Set(changed.flatMap((r) => r.fields))];
  return (
    <Section id="compare-bytes" title={BYTES_TITLE[d.what]}>
      <p className="text-xs" data-testid="byte-summary">
        {d.identical
          ? `Identical: ${groupDigits(d.a.length)} bytes each.`
          : `${groupDigits(d.differing.a)} of A's ${groupDigits(d.a.length)} bytes and ${groupDigits(d.differing.b)} of B's ${groupDigits(d.b.length)} differ, in ${changed.length} stretch${changed.length === 1 ? '' : 'es'}${fields.length ? ` (fields ${fields.join(', ')})` : ''}.`}
        {!d.exact && ' Too different to align byte by byte: the differing middle is shown as one stretch.'}
        {d.truncated && ' Only the first MiB of each is shown.'}
      </p>
      {hunks.length > 0 && (
        <>
          <p className="mt-1 text-[11px] text-slate-600 dark:text-slate-400" data-testid="byte-legend">
            A above B, aligned (a shortest edit, Myers&apos;): <span className={TONE.changed}>~ changed</span> ·{' '}
            <span className={TONE.inserted}>+ only in B (inserted)</span> · <span className={TONE.deleted}>− only in A (deleted)</span>; ·· where one side has
            no byte.
          </p>
          <ol aria-label="Differing stretches" className="mt-2 flex flex-col gap-2">
            {hunks.map((h) => (
              <li key={`${h.a.start}-${h.b.start}`} className="rounded border border-slate-200 p-2 dark:border-slate-700">
                <p className="mb-1 text-xs">
                  A {bytesWords([h.a.marks[0][0], h.a.marks[h.a.marks.length - 1][1]])} ↔ B {bytesWords([h.b.marks[0][0], h.b.marks[h.b.marks.length - 1][1]])}
                  {h.fields.length > 0 && <> · {h.fields.join(', ')}</>}
                </p>
                <AlignedHunk d={d} hunk={h} />
              </li>
            ))}
          </ol>
        </>
      )}
      {more > 0 && <p className="mt-1 text-xs">{more} more differing stretches are not shown.</p>}
    </Section>
  );
}

const TONE = {
  equal: '',
  changed: 'rounded-sm bg-amber-200 text-slate-950 dark:bg-amber-700 dark:text-white',
  inserted: 'rounded-sm bg-emerald-200 text-emerald-950 dark:bg-emerald-800 dark:text-white',
  deleted: 'rounded-sm bg-red-200 text-red-950 dark:bg-red-800 dark:text-white',
};

/**
 * A hunk as columns, A's byte above B's (alignedColumns): the columns wrap together, so A and B
 * stay aligned on every line; a byte only one side has leaves the other blank (··). The words of
 * what differs are there for a screen reader (the columns are hidden from it).
 */
function AlignedHunk({ d, hunk }: { d: ByteDiff; hunk: Hunk }) {
  const { columns, more } = alignedColumns(d, hunk, HUNK_BYTES);
  const cell = (bytes: Uint8Array, i: number | null, op: ByteColumn['op']) =>
    op === 'equal' ? (
      <span className="px-[0.2ch]">{i === null ? '··' : hex2(bytes[i])}</span>
    ) : (
      <mark className={`px-[0.2ch] ${TONE[op]}`}>{i === null ? '··' : hex2(bytes[i])}</mark>
    );
  return (
    <div className="font-mono text-xs" data-testid="aligned-hunk">
      <p className="sr-only">{columnWords(columns, d.a, d.b)}</p>
      <div aria-hidden="true" className="flex flex-wrap gap-x-[0.3ch] gap-y-1">
        <span className="mr-1 inline-flex flex-col font-sans font-semibold">
          <span>A</span>
          <span>B</span>
        </span>
        <span className="mr-2 inline-flex flex-col text-slate-600 dark:text-slate-400">
          <span>0x{hunk.a.start.toString(16).padStart(4, '0')}</span>
          <span>0x{hunk.b.start.toString(16).padStart(4, '0')}</span>
        </span>
        {columns.map((c) => (
          <span key={`${c.a}:${c.b}`} className="inline-flex flex-col" data-op={c.op}>
            <span data-side="A">{cell(d.a, c.a, c.op)}</span>
            <span data-side="B">{cell(d.b, c.b, c.op)}</span>
          </span>
        ))}
        {more > 0 && <span className="ml-1 self-center font-sans text-slate-600 dark:text-slate-400">… {groupDigits(more)} more bytes</span>}
      </div>
    </div>
  );
}

/** An envelope's verdicts on one line, in the words of the workflow panel (core/verdict.ts envelopeWords). */
const envelopeVerdict = (e: EnvelopeSide) => {
  const w = envelopeWords(e);
  return [w.hash, w.signature, w.binding, w.trust]
    .filter((t) => t !== null)
    .map((t) => t.label.toLowerCase())
    .join(' · ');
};

/** A compared field of an envelope, on one line (cut at 80 characters). */
function fieldText(e: EnvelopeSide, f: EnvelopePair['differs'][number]): string {
  const v = f === 'parents' ? (e.parents.length ? e.parents.map((h) => `${h.slice(0, 12)}…`).join(', ') : '(none)') : f === 'status' ? e.status : e[f];
  const s = v ?? '(absent)';
  return s.length > 80 ? `${s.slice(0, 80)}…` : s;
}

function pairWords(p: EnvelopePair): { status: ChangeStatus; words: string } {
  if (!p.a) return { status: 'added', words: 'only in B' };
  if (!p.b) return { status: 'removed', words: 'only in A' };
  if (!p.differs.length && !p.verdictsDiffer) return { status: 'same', words: 'same' };
  return {
    status: 'changed',
    words: [p.differs.length ? `differs: ${p.differs.join(', ')}` : '', p.verdictsDiffer ? 'verdicts differ' : ''].filter(Boolean).join('; '),
  };
}

function WorkflowSection({ w }: { w: WorkflowDiff }) {
  const modes = (['light', 'heavy', 'boundary'] as const)
    .map((m) => `${m} ${w.modes.a[m]}${w.modes.a[m] !== w.modes.b[m] ? ` → ${w.modes.b[m]}` : ''}`)
    .join(' · ');
  return (
    <Section id="compare-envelopes" title="Envelopes (AgentDNA workflows)">
      <p className="text-xs" data-testid="workflow-counts">
        {w.counts.same} the same, {w.counts.differing} differing, {w.counts.onlyA} only in A, {w.counts.onlyB} only in B. Modes (A → B): {modes}.
      </p>
      <div className="mt-2 @container">
        <table aria-label="Envelopes side by side" className={CARD_TABLE.table}>
          <thead className={CARD_TABLE.head}>
            <tr>
              <th scope="col" className="py-0.5 font-medium">
                Envelope
              </th>
              <th scope="col" className="py-0.5 font-medium whitespace-nowrap">
                Matched by
              </th>
              <th scope="col" className="py-0.5 font-medium">
                What differs
              </th>
              <th scope="col" className="py-0.5 font-medium">
                A: hash and signature
              </th>
              <th scope="col" className="py-0.5 font-medium">
                B: hash and signature
              </th>
            </tr>
          </thead>
          <tbody className={CARD_TABLE.body}>
            {w.pairs.map((p) => {
              const { status, words } = pairWords(p);
              const e = (p.a ?? p.b)!;
              return (
                <tr key={`${p.a?.index ?? '-'}:${p.b?.index ?? '-'}`} data-status={status} className={`${CARD_ROW} ${STATUS_STYLE[status]}`}>
                  <td className="col-span-2 min-w-0 py-0.5 pr-2 font-mono [overflow-wrap:anywhere]">
                    {e.path}
                    {p.a && p.b && p.a.path !== p.b.path && <> / {p.b.path}</>}
                    <span className="block text-slate-600 dark:text-slate-400" title={e.hash}>
                      {e.hash.slice(0, 12)}…
                    </span>
                  </td>
                  <td className="col-span-2 py-0.5 pr-2">
                    <CardLabel>Matched by</CardLabel>
                    {p.matchedBy ?? '—'}
                  </td>
                  <td className="col-span-2 min-w-0 py-0.5 pr-2">
                    <StatusMark status={status} />
                    {status !== 'same' && <span className="block">{words}</span>}
                    {p.a && p.b && p.differs.length > 0 && (
                      <ul className="mt-0.5 space-y-0.5">
                        {p.differs.map((f) => (
                          <li key={f} className="[overflow-wrap:anywhere]">
                            <span className="font-medium">{f}</span>: <bdi>{displayText(fieldText(p.a!, f))}</bdi> →{' '}
                            <bdi>{displayText(fieldText(p.b!, f))}</bdi>
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                  <td className="col-span-2 py-0.5 pr-2">
                    <CardLabel>A</CardLabel>
                    {p.a ? envelopeVerdict(p.a) : '—'}
                  </td>
                  <td className="col-span-2 py-0.5">
                    <CardLabel>B</CardLabel>
                    {p.b ? envelopeVerdict(p.b) : '—'}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </Section>
  );
}
