import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import type { ReportAgent, ReportRun } from '../../core/folds';
import { isoFromMicros } from '../../core/time';
import { displayText } from '../format';
import { inspectorClient } from '../worker-client';
import { queryKeys } from '../query-keys';
import { RuleRef } from './RuleRef';

interface Props {
  mode: 'agents' | 'runs';
  version: number;
  selected: number | null;
  onSelect: (key: number) => void;
}

const when = (micros: string | null) => (micros ? (isoFromMicros(micros)?.replace('.000Z', 'Z') ?? `${micros} µs`) : '—');

/** Buttons for the records behind a row: the first few, and how many more. */
function RecordLinks({ records, onSelect, label }: { records: number[]; onSelect: (key: number) => void; label: string }) {
  const shown = records.slice(0, 6);
  return (
    <span className="inline-flex flex-wrap gap-1">
      {shown.map((r) => (
        <button
          key={r}
          type="button"
          aria-label={`${label}: record ${r}`}
          onClick={() => onSelect(r)}
          className="rounded border border-slate-300 px-1 font-mono text-[10px] hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
        >
          #{r}
        </button>
      ))}
      {records.length > shown.length && <span className="text-slate-600 dark:text-slate-400">+{records.length - shown.length}</span>}
    </span>
  );
}

function AgentsTable({ agents, onSelect }: { agents: ReportAgent[]; onSelect: (key: number) => void }) {
  return (
    <table className="w-full text-xs" aria-label="Agents">
      <thead className="text-left text-slate-500 dark:text-slate-400">
        <tr>
          <th className="font-medium">Agent</th>
          <th className="font-medium">Latest card</th>
          <th className="font-medium">Health / load</th>
          <th className="font-medium">Alive</th>
          <th className="font-medium">Quarantine</th>
          <th className="font-medium">Records</th>
          <th className="font-medium">Usage (in / out)</th>
        </tr>
      </thead>
      <tbody>
        {agents.map((a) => {
          const cap = a.card?.capabilities[0];
          return (
            <tr
              key={a.id}
              aria-label={`Agent ${displayText(a.id)}`}
              data-alive={String(a.alive)}
              data-quarantined={String(a.quarantined)}
              className="border-t border-slate-100 align-top dark:border-slate-800"
            >
              <td className="py-1 pr-2 font-mono">
                <bdi>{displayText(a.id)}</bdi>
              </td>
              <td
                className="py-1 pr-2"
                title={
                  a.card
                    ? a.card.capabilities
                        .map((c) =>
                          displayText(
                            `${c.skill_id}: in ${JSON.stringify(c.input)} out ${JSON.stringify(c.output)} cost ${c.cost_class ?? '—'} latency ${c.latency_class ?? '—'} max ${c.max_concurrency ?? '—'}`,
                          ),
                        )
                        .join('\n')
                    : ''
                }
              >
                {a.card
                  ? displayText(
                      `${a.card.name ?? '(unnamed)'} ${a.card.version ?? ''} · ${a.card.capabilities.length} skills${a.card.ttl_micros ? ` · ttl ${Number(a.card.ttl_micros) / 1e6} s` : ''}`,
                    )
                  : '—'}
              </td>
              <td className="py-1 pr-2">{cap ? `${displayText(cap.health_name ?? '—')} / ${cap.load !== null ? `${cap.load / 10}%` : '—'}` : '—'}</td>
              <td className="py-1 pr-2" title={displayText(a.alive_reason)}>
                {a.alive === null ? (
                  'unknown'
                ) : a.alive ? (
                  'alive'
                ) : (
                  <>
                    <span className="font-medium text-red-700 dark:text-red-300">dead</span>
                    <span className="block">
                      its records then: <RuleRef id="agdx/fold/dead" />
                    </span>
                  </>
                )}
              </td>
              <td className="py-1 pr-2" title={a.quarantine.map((q) => displayText(q.sentence)).join('\n')}>
                {a.quarantined ? <span className="font-medium text-red-700 dark:text-red-300">quarantined</span> : a.quarantine.length ? 'lifted' : '—'}
                {a.quarantine.length > 0 && (
                  <span className="block text-[10px] text-slate-600 dark:text-slate-400">{a.quarantine.map((q) => `${q.op} (${q.backing})`).join(', ')}</span>
                )}
                {a.quarantined && (
                  <span className="block">
                    its records then: <RuleRef id="agdx/fold/quarantined" />
                  </span>
                )}
              </td>
              <td className="py-1 pr-2">
                <RecordLinks records={a.as_source} onSelect={onSelect} label={`Records of ${displayText(a.id)}`} />
              </td>
              <td className="py-1 font-mono">
                {a.usage.input} / {a.usage.output}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function RunsTimeline({ runs, onSelect }: { runs: ReportRun[]; onSelect: (key: number) => void }) {
  if (runs.length === 0) return <p className="text-xs text-slate-600 dark:text-slate-400">No status records carry a run (metadata run).</p>;
  return (
    <ul aria-label="Runs" className="flex flex-col gap-2 text-xs">
      {runs.map((r) => (
        <li key={r.id} aria-label={`Run ${displayText(r.id)}`} className="rounded border border-slate-200 p-2 dark:border-slate-800">
          <p>
            <span className="font-semibold">
              <bdi>{displayText(r.id)}</bdi>
            </span>{' '}
            · {r.terminal ? `ended ${r.terminal}` : `now ${r.state ?? '—'}`} · {r.agents.map(displayText).join(', ')}
            {r.after_terminal > 0 && (
              <span className="ml-2 text-red-700 dark:text-red-300">
                {r.after_terminal} state(s) after the terminal one (<RuleRef id="agdx/fold/after-terminal" />)
              </span>
            )}
          </p>
          <ol className="mt-1 flex flex-wrap items-center gap-1" aria-label={`States of ${displayText(r.id)}`}>
            {r.history.map((h, i) => (
              <li key={h.record} className="inline-flex items-center gap-1">
                {i > 0 && (
                  <span aria-hidden="true" className="text-slate-600 dark:text-slate-400">
                    →
                  </span>
                )}
                <button
                  type="button"
                  onClick={() => onSelect(h.record)}
                  title={`${when(h.time)} from ${displayText(h.source)}`}
                  className={`rounded px-1.5 py-0.5 ${h.after_terminal ? 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200' : h.terminal ? 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200' : 'bg-slate-100 dark:bg-slate-800'}`}
                >
                  {h.state}
                  {h.final ? ' (final)' : ''}
                </button>
              </li>
            ))}
          </ol>
        </li>
      ))}
    </ul>
  );
}

/** Agents or runs as the log stood at a point of it: the slider folds up to that record. */
export function FoldsPanel({ mode, version, selected, onSelect }: Props) {
  const [asOf, setAsOf] = useState<number | null>(null);
  const deferred = useDeferredValue(asOf);
  const query = useQuery({
    queryKey: queryKeys.folds(version, deferred),
    queryFn: () => inspectorClient().call('folds', { asOf: deferred }),
    placeholderData: (prev) => prev,
  });
  const folds = query.data;
  if (query.isError) return <p className="p-4 text-sm text-red-600">{query.error.message}</p>;
  if (!folds) return <p className="p-4 text-sm text-slate-600 dark:text-slate-400">Folding the log…</p>;
  const max = Math.max(0, folds.positions - 1);
  const position = asOf ?? max;
  const atSelected = selected !== null ? folds.order.indexOf(selected) : -1;
  return (
    <div className="flex h-full flex-col gap-2 overflow-auto p-3">
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <label htmlFor="as-of" className="font-medium">
          As of
        </label>
        <input
          id="as-of"
          type="range"
          min={0}
          max={max}
          value={position}
          onChange={(e) => setAsOf(Number(e.target.value) >= max ? null : Number(e.target.value))}
          className="w-64"
          aria-valuetext={`record ${position + 1} of ${folds.positions}`}
        />
        <span data-testid="as-of">
          {asOf === null
            ? `the whole log (${folds.positions} records)`
            : `record ${position + 1} of ${folds.positions}${folds.asOf?.time ? `, ${when(folds.asOf.time)}` : ''}`}
        </span>
        <button
          type="button"
          disabled={atSelected < 0}
          onClick={() => setAsOf(atSelected)}
          className="rounded border border-slate-300 px-2 py-0.5 disabled:opacity-40 dark:border-slate-700"
        >
          As of the selected record
        </button>
        <button type="button" onClick={() => setAsOf(null)} className="rounded border border-slate-300 px-2 py-0.5 dark:border-slate-700">
          Whole log
        </button>
      </div>
      {mode === 'agents' ? <AgentsTable agents={folds.agents} onSelect={onSelect} /> : <RunsTimeline runs={folds.runs} onSelect={onSelect} />}
      <section aria-label="Conversations" className="text-xs">
        {/* The panel's own heading level: the page's title is the h1, the record detail below starts at h2. */}
        <h2 className="mt-2 font-semibold">Conversations</h2>
        {folds.conversations.map((c) => (
          <div key={c.id} className="mt-1 rounded border border-slate-200 p-2 dark:border-slate-800">
            <p className="font-mono">{displayText(c.id)}</p>
            <p>
              {c.records} records (
              {Object.entries(c.records_by_kind)
                .map(([k, n]) => `${n} ${displayText(k)}`)
                .join(', ')}
              ) · {c.agents.length} agents · {when(c.first_time)} to {when(c.last_time)} · tokens in {c.usage_total.input}, out {c.usage_total.output},
              reasoning {c.usage_total.reasoning}, cache {c.usage_total.cache_read}
            </p>
            {(c.invalid.count > 0 || c.badly_signed.count > 0) && (
              <p className="text-red-700 dark:text-red-300">
                {c.invalid.count} invalid <RecordLinks records={c.invalid.records} onSelect={onSelect} label="Invalid" /> · {c.badly_signed.count} badly signed{' '}
                <RecordLinks records={c.badly_signed.records} onSelect={onSelect} label="Badly signed" />
              </p>
            )}
          </div>
        ))}
      </section>
    </div>
  );
}
