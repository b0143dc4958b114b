import { memo } from 'react';
import type { Finding } from '../../core/model';
import { formatSpan } from '../format';

const SEVERITY = {
  error: { icon: '●', cls: 'text-red-600 dark:text-red-400' },
  warning: { icon: '▲', cls: 'text-amber-600 dark:text-amber-400' },
  info: { icon: 'ℹ', cls: 'text-sky-600 dark:text-sky-400' },
};

/** Findings in the style of Wireshark's expert info: severity, rule, message, field, bytes. */
export const Findings = memo(function Findings({ findings, selected, onSelect }: { findings: Finding[]; selected: number | null; onSelect: (index: number) => void }) {
  if (findings.length === 0) return <p className="text-xs text-slate-500 dark:text-slate-400">No findings.</p>;
  return (
    <table className="w-full table-fixed text-xs" aria-label="Findings">
      <thead className="text-left text-slate-500 dark:text-slate-400">
        <tr>
          <th className="w-20 font-medium">Severity</th>
          <th className="w-56 font-medium">Rule</th>
          <th className="font-medium">Message</th>
          <th className="w-32 font-medium">Field</th>
          <th className="w-24 font-medium">Bytes</th>
        </tr>
      </thead>
      <tbody>
        {findings.map((f, i) => (
          <tr
            key={i}
            tabIndex={0}
            aria-selected={selected === i}
            data-rule={f.rule}
            onClick={() => onSelect(i)}
            onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && (e.preventDefault(), onSelect(i))}
            className={`cursor-pointer align-top outline-none focus-visible:ring-2 focus-visible:ring-teal-500 ${selected === i ? 'bg-amber-100 dark:bg-amber-900/50' : 'hover:bg-slate-100 dark:hover:bg-slate-800'}`}
          >
            <td className={`py-1 ${SEVERITY[f.severity].cls}`}>
              {SEVERITY[f.severity].icon} {f.severity}
            </td>
            <td className="py-1 font-mono break-all">{f.rule}</td>
            <td className="py-1 pr-2">{f.message}</td>
            <td className="py-1 font-mono break-all">{f.path ?? '—'}</td>
            <td className="py-1 font-mono">{f.span ? formatSpan(f.span) : '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
});
