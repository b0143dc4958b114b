import { type KeyboardEvent, memo } from 'react';
import { listboxTarget } from '../listbox';
import { displayText, formatSpan } from '../format';
import { withKeys } from '../list-keys';
import { RuleRef } from './RuleRef';
import type { Finding } from '../../core/verdict';

const SEVERITY = {
  error: { icon: '●', cls: 'text-red-700 dark:text-red-400' },
  warning: { icon: '▲', cls: 'text-amber-700 dark:text-amber-400' },
  info: { icon: 'ℹ', cls: 'text-sky-700 dark:text-sky-400' },
};

/** Findings PageUp and PageDown move by. */
const FINDINGS_PAGE = 5;

/** Set before a value in the stacked layout only (the table's header says it in the wide one); not read out: the header is. */
function CardLabel({ children }: { children: string }) {
  return (
    <span aria-hidden="true" className="mr-1 text-slate-600 @3xl:hidden dark:text-slate-400">
      {children}
    </span>
  );
}

/**
 * Findings in the style of Wireshark's expert info: severity, rule, message, field, bytes. A table
 * where its box is wide enough (a container query, not the window: the detail pane's width is what
 * counts); narrower, each finding is a card of the same cells, stacked. Long hashes and paths break
 * anywhere instead of running into the next column. The message is the row's button (the whole row
 * is its target): it shows the finding's field and bytes. The rule id opens its explanation.
 * Keyboard: the findings are one Tab stop, the selected one's row (else the first), as a listbox is:
 * Up and Down, PageUp and PageDown, Home and End move to a finding and select it; in that row, Tab
 * reaches its rule id too.
 */
export const Findings = memo(function Findings({
  findings,
  selected,
  onSelect,
}: {
  findings: Finding[];
  selected: number | null;
  onSelect: (index: number) => void;
}) {
  if (findings.length === 0) return <p className="text-xs text-slate-600 dark:text-slate-400">No findings.</p>;
  const current = selected !== null && selected < findings.length ? selected : 0;
  const onKeyDown = (e: KeyboardEvent<HTMLTableSectionElement>) => {
    const to = listboxTarget(e.key, current, findings.length, FINDINGS_PAGE);
    if (to === null || !(e.target instanceof HTMLElement) || !e.target.closest('[data-finding]')) return;
    e.preventDefault();
    onSelect(to);
    e.currentTarget.querySelector<HTMLElement>(`[data-finding="${to}"]`)?.focus();
  };
  return (
    <div className="@container">
      <table className="block w-full text-xs @3xl:table @3xl:table-fixed" aria-label="Findings">
        <thead className="sr-only text-left text-slate-600 @3xl:not-sr-only @3xl:table-header-group dark:text-slate-400">
          <tr>
            <th className="w-[5.5rem] pb-1 font-medium">Severity</th>
            <th className="w-[15rem] pb-1 font-medium">Rule</th>
            <th className="pb-1 font-medium">Message</th>
            <th className="w-[9rem] pb-1 font-medium">Field</th>
            <th className="w-[6.5rem] pb-1 font-medium">Bytes</th>
          </tr>
        </thead>
        <tbody className="block @3xl:table-row-group" onKeyDown={onKeyDown}>
          {withKeys(findings, (f) => `${f.rule} ${f.path} ${f.span}`).map(({ key, item: f }, i) => (
            <tr
              key={key}
              aria-current={selected === i ? 'true' : undefined}
              data-rule={f.rule}
              className={`relative grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5 border-t px-1.5 @3xl:px-0 border-slate-100 py-1.5 align-top first:border-t-0 @3xl:table-row dark:border-slate-800 ${
                selected === i ? 'bg-amber-100 dark:bg-amber-900/50' : 'hover:bg-slate-100 dark:hover:bg-slate-800'
              }`}
            >
              <td className={`whitespace-nowrap @3xl:py-1 @3xl:pr-2 ${SEVERITY[f.severity].cls}`}>
                {SEVERITY[f.severity].icon} {f.severity}
              </td>
              <td className="min-w-0 @3xl:py-1 @3xl:pr-2">
                {/* Above the row's button (which covers the row), so it takes its own clicks. */}
                <RuleRef id={f.rule} className="relative z-10" tabIndex={i === current ? 0 : -1} />
              </td>
              <td className="col-span-2 min-w-0 @3xl:py-1 @3xl:pr-2">
                <button
                  type="button"
                  data-finding={i}
                  tabIndex={i === current ? 0 : -1}
                  onClick={() => onSelect(i)}
                  className="text-left [overflow-wrap:anywhere] outline-none after:absolute after:inset-0 after:content-[''] focus-visible:after:ring-2 focus-visible:after:ring-teal-600 focus-visible:after:ring-inset"
                >
                  {displayText(f.message)}
                </button>
              </td>
              <td className="col-span-2 min-w-0 font-mono [overflow-wrap:anywhere] @3xl:py-1 @3xl:pr-2">
                <CardLabel>field</CardLabel>
                {f.path !== null ? displayText(f.path) : '—'}
              </td>
              <td className="col-span-2 min-w-0 font-mono [overflow-wrap:anywhere] @3xl:py-1">
                <CardLabel>bytes</CardLabel>
                {f.span ? formatSpan(f.span) : '—'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
});
