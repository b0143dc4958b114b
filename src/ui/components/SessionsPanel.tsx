// The Sessions tab: the 0.7 dialect's sessions (report@1 `sessions`, folded in the worker) as the
// tree they were spawned in (children under their parent; a parent that is not in the log shown as
// a ghost), each with its lifecycle as a strip of states, its budget against its usage and cost, and
// the work it parked while paused. Choosing a session filters the record list to its conversation.
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { ReportSession } from '../../core/folds';
import { shortId } from '../../core/short-id';
import { isoFromMicros } from '../../core/time';
import { displayText } from '../format';
import { queryKeys } from '../query-keys';
import { inspectorClient } from '../worker-client';
import { RuleRef } from './RuleRef';

interface Props {
  version: number;
  selected: number | null;
  onSelect: (key: number) => void;
  /** The conversation the record list is filtered to (null: none). */
  conversation: string | null;
  onConversation: (id: string | null) => void;
}

/** A session tree's node: a session, or a conversation its children name as parent that has no session here. */
export interface TreeNode {
  id: string;
  session: ReportSession | null;
  children: TreeNode[];
}

/** The sessions as trees: each under its parent; a parent with no session in the log becomes a ghost node. */
export function sessionTree(sessions: readonly ReportSession[]): TreeNode[] {
  const nodes = new Map<string, TreeNode>();
  for (const s of sessions) nodes.set(s.conversation, { id: s.conversation, session: s, children: [] });
  const roots: TreeNode[] = [];
  for (const s of sessions) {
    const node = nodes.get(s.conversation)!;
    if (s.parent === null || s.parent === s.conversation) {
      roots.push(node);
      continue;
    }
    let parent = nodes.get(s.parent);
    if (!parent) {
      parent = { id: s.parent, session: null, children: [] };
      nodes.set(s.parent, parent);
      roots.push(parent);
    }
    parent.children.push(node);
  }
  return roots;
}

const when = (micros: string | null) => (micros ? (isoFromMicros(micros)?.replace('.000Z', 'Z') ?? `${micros} µs`) : '—');

const STATE_STYLE: Record<string, string> = {
  completed: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200',
  failed: 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200',
  rejected: 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200',
  canceled: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  paused: 'bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200',
};
const stateStyle = (state: string) => STATE_STYLE[state] ?? 'bg-slate-100 dark:bg-slate-800';

/** Used of a ceiling, as words and a bar (no bar without a ceiling). */
function Budget({ label, used, ceiling, unit }: { label: string; used: string; ceiling: string | null; unit: string }) {
  const ratio = ceiling !== null && Number(ceiling) > 0 ? Number(used) / Number(ceiling) : null;
  return (
    <div className="flex items-center gap-2">
      <span className="w-12 text-slate-600 dark:text-slate-400">{label}</span>
      <span className="font-mono">
        {used}
        {ceiling !== null ? ` of ${ceiling}` : ''} {unit}
      </span>
      {ratio !== null && (
        <meter
          min={0}
          max={1}
          low={0.75}
          high={0.95}
          optimum={0}
          value={Math.min(ratio, 1)}
          aria-label={`${label} used: ${Math.round(ratio * 100)}% of the budget`}
          className="h-2 w-24"
        />
      )}
      {ratio !== null && ratio > 1 && <span className="text-red-700 dark:text-red-300">over budget</span>}
    </div>
  );
}

function Lifecycle({ s, onSelect }: { s: ReportSession; onSelect: (key: number) => void }) {
  return (
    <ol aria-label={`Lifecycle of ${s.label ?? s.conversation}`} className="flex flex-wrap items-center gap-1">
      {s.history.map((h, i) => (
        <li key={h.record} className="flex items-center gap-1">
          {i > 0 && (
            <span aria-hidden="true" className="text-slate-500">
              →
            </span>
          )}
          <button
            type="button"
            data-state={h.state}
            data-disallowed={String(h.disallowed)}
            onClick={() => onSelect(h.record)}
            title={`${when(h.time)} · record ${h.record}${h.body ? ` · ${h.body} body` : ''}`}
            className={`rounded px-1.5 py-0.5 focus-visible:outline-2 focus-visible:outline-teal-600 ${h.disallowed || h.after_end ? 'ring-2 ring-red-500' : ''} ${stateStyle(h.state)}`}
          >
            {h.state}
            {h.disallowed ? ' (not allowed)' : h.after_end ? ' (after the end)' : ''}
          </button>
        </li>
      ))}
    </ol>
  );
}

function Parked({ s, onSelect }: { s: ReportSession; onSelect: (key: number) => void }) {
  if (s.parked.length === 0) return null;
  const link = (record: number | null, what: string) =>
    record === null ? (
      <span className="text-red-700 dark:text-red-300">{what}: not in this log</span>
    ) : (
      <button type="button" onClick={() => onSelect(record)} className="text-teal-800 underline underline-offset-2 dark:text-teal-300">
        {what} #{record}
      </button>
    );
  return (
    <div>
      <p className="text-slate-600 dark:text-slate-400">Parked while paused</p>
      <ul className="ml-3 list-disc">
        {s.parked.map((p) => (
          <li key={`${p.parked_record}-${p.source.offset}`} data-unparked={String(p.unparked_record !== null)}>
            <bdi>{displayText(p.role)}</bdi> held offset {p.source.offset} (partition {p.source.partition}): {link(p.source_record, 'the record')} ·{' '}
            {link(p.parked_record, 'parked')} ·{' '}
            {p.unparked_record === null ? (
              <span className="text-red-700 dark:text-red-300">
                never unparked (<RuleRef id="agdx/session/never-unparked" />)
              </span>
            ) : (
              link(p.unparked_record, 'unparked')
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

function SessionCard({ s, props }: { s: ReportSession; props: Props }) {
  const chosen = props.conversation === s.conversation;
  const name = s.label ?? shortId(s.conversation);
  return (
    <div data-session={s.conversation} className={`rounded border p-2 ${chosen ? 'border-teal-600' : 'border-slate-200 dark:border-slate-800'}`}>
      <div className="flex flex-wrap items-baseline gap-2">
        <button
          type="button"
          aria-pressed={chosen}
          onClick={() => props.onConversation(chosen ? null : s.conversation)}
          className="rounded font-semibold text-teal-800 underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-teal-600 dark:text-teal-300"
          title={chosen ? 'Show every record again' : 'Show only this session’s records in the list'}
        >
          <bdi>{displayText(name)}</bdi>
        </button>
        <span className="font-mono text-slate-600 dark:text-slate-400" title={s.conversation}>
          {shortId(s.conversation)}
        </span>
        {s.agent !== null && (
          <span>
            agent <bdi className="font-mono">{displayText(s.agent)}</bdi>
          </span>
        )}
        {s.namespace !== null && <span>namespace {displayText(s.namespace)}</span>}
        {s.sdk && (
          <span className="text-slate-600 dark:text-slate-400">
            {displayText(s.sdk.language)} {displayText(s.sdk.version)}
          </span>
        )}
        <span className={`rounded px-1.5 ${stateStyle(s.state ?? '')}`}>{s.state ?? 'no state'}</span>
      </div>
      <Lifecycle s={s} onSelect={props.onSelect} />
      {s.end && (s.end.reason !== null || s.end.error) && (
        <p>
          Ended: {s.end.reason !== null ? <bdi>{displayText(s.end.reason)}</bdi> : 'no reason'}
          {s.end.error && (
            <span className="text-red-700 dark:text-red-300">
              {' '}
              · {s.end.error.name}
              {s.end.error.message !== null ? `: ${displayText(s.end.error.message)}` : ''}
            </span>
          )}
        </p>
      )}
      <Budget label="Tokens" used={s.tokens} ceiling={s.budget?.tokens ?? null} unit="in + out" />
      <Budget label="Cost" used={s.usage.cost_micros} ceiling={s.budget?.cost_micros ?? null} unit="µ" />
      {s.over_budget && (
        <p className="text-red-700 dark:text-red-300">
          Passed its {s.over_budget.dimension === 'tokens' ? 'token' : 'cost'} budget at{' '}
          <button type="button" onClick={() => props.onSelect(s.over_budget!.record)} className="underline">
            record #{s.over_budget.record}
          </button>{' '}
          (<RuleRef id="agdx/session/over-budget" />)
        </p>
      )}
      <Parked s={s} onSelect={props.onSelect} />
      <p className="text-slate-600 dark:text-slate-400">
        {s.records.length} records · {when(s.first_time)} to {when(s.last_time)}
      </p>
    </div>
  );
}

function Tree({ nodes, props }: { nodes: readonly TreeNode[]; props: Props }) {
  return (
    <ul className="flex flex-col gap-2">
      {nodes.map((n) => (
        <li key={n.id} aria-label={n.session ? `Session ${n.session.label ?? n.id}` : `Conversation ${n.id}, not in this log`}>
          {n.session ? (
            <SessionCard s={n.session} props={props} />
          ) : (
            <p data-ghost={n.id} className="rounded border border-dashed border-slate-400 p-2 text-slate-600 dark:text-slate-400">
              Parent conversation <span className="font-mono">{shortId(n.id)}</span>: no session of it in this log
            </p>
          )}
          {n.children.length > 0 && (
            <div className="ml-4 mt-2 border-l-2 border-slate-200 pl-3 dark:border-slate-700">
              <Tree nodes={n.children} props={props} />
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}

/** Trees drawn at first, and how many more each press of the button adds: a large log has thousands of sessions. */
const PAGE = 25;

export function SessionsPanel(props: Props) {
  const query = useQuery({
    queryKey: queryKeys.folds(props.version, null),
    queryFn: () => inspectorClient().call('folds', { asOf: null }),
  });
  const [shown, setShown] = useState(PAGE);
  const sessions = query.data?.sessions;
  const trees = useMemo(() => (sessions ? sessionTree(sessions) : []), [sessions]);
  if (query.isError) return <p className="p-4 text-sm text-red-600">{query.error.message}</p>;
  if (!sessions) return <p className="p-4 text-sm text-slate-600 dark:text-slate-400">Folding the log…</p>;
  return (
    <section aria-label="Sessions" className="h-full overflow-auto p-3 text-xs">
      <h2 className="mb-2 font-semibold">
        Sessions ({sessions.length}){' '}
        {props.conversation !== null && (
          <button
            type="button"
            onClick={() => props.onConversation(null)}
            className="ml-2 rounded border border-slate-300 px-2 font-normal dark:border-slate-700"
          >
            Show every record
          </button>
        )}
      </h2>
      {sessions.length === 0 ? (
        <p className="text-slate-600 dark:text-slate-400">No sessions: the log has no laser-sdk 0.7 session statuses.</p>
      ) : (
        <>
          <Tree nodes={trees.slice(0, shown)} props={props} />
          {trees.length > shown && (
            <button type="button" onClick={() => setShown(shown + PAGE)} className="mt-2 rounded border border-slate-300 px-2 py-0.5 dark:border-slate-700">
              Show {Math.min(PAGE, trees.length - shown)} more of {trees.length - shown} trees
            </button>
          )}
        </>
      )}
    </section>
  );
}
