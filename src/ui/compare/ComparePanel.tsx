// The Compare tab: a region labelled "Comparison" with records A and B side by side and what the
// worker found comparing them (src/core/compare): two records field by field, byte by byte and
// signature by signature (and two workflows envelope by envelope), or their conversations or
// inputs record by record. With nothing compared yet, it says how to start and offers two inputs.
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import type { CompareScope } from '../../core/share/permalink';
import { shortId } from '../../core/short-id';
import type { ComparedPair } from '../../wire/protocol';
import { Badges, Headline } from '../components/Badges';
import { NamedText } from '../components/Identity';
import { displayText } from '../format';
import { queryKeys } from '../query-keys';
import { inspectorClient } from '../worker-client';
import { useCompareApi } from '../compare-context';
import { firstKeyOf } from '../summary-store';
import { comparedWords, subjectOf } from './compare-view';
import { LogDiffView } from './LogDiffView';
import { BUTTON } from './parts';
import { RecordDiffView } from './RecordDiffView';

const SCOPES: { scope: CompareScope; label: string }[] = [
  { scope: 'records', label: 'These records' },
  { scope: 'conversations', label: 'Their conversations' },
  { scope: 'inputs', label: 'Their inputs' },
];

export default function ComparePanel({ version, onSelect }: { version: number; onSelect: (key: number) => void }) {
  const api = useCompareApi();
  return (
    <section aria-label="Comparison" data-testid="comparison" className="h-full overflow-auto p-3 text-sm">
      {api.pair ? <PairView pair={api.pair} version={version} onSelect={onSelect} /> : <NoPair />}
    </section>
  );
}

function NoPair() {
  const api = useCompareApi();
  const [a, setA] = useState<number | ''>('');
  const [b, setB] = useState<number | ''>('');
  const inputs = api.inputs.filter((i) => i.records > 0);
  const compare = () => {
    if (a === '' || b === '') return;
    const ka = firstKeyOf(a, api.summaries);
    const kb = firstKeyOf(b, api.summaries);
    if (ka !== null && kb !== null) api.show({ a: ka, b: kb, scope: 'inputs' });
  };
  return (
    <div className="flex flex-col gap-3">
      <h2 className="text-base font-semibold">Comparison</h2>
      <p className="text-slate-700 dark:text-slate-300">
        Nothing is compared yet. Open a record and choose <strong>Compare with…</strong> in its detail to compare it with another record of any input: their
        fields, their canonical bytes and what the difference means for their signatures; two AgentDNA workflows envelope by envelope. From there, their
        conversations or their inputs can be compared record by record.
      </p>
      {inputs.length >= 2 && (
        <fieldset className="flex flex-wrap items-end gap-2 rounded border border-slate-200 p-2 dark:border-slate-700">
          <legend className="px-1 text-xs font-semibold">Or compare two whole inputs (say yesterday's run and today's)</legend>
          {(
            [
              ['A', a, setA],
              ['B', b, setB],
            ] as const
          ).map(([side, value, set]) => (
            <label key={side} className="flex flex-col text-xs">
              Input {side}
              <select
                value={value}
                onChange={(e) => set(e.target.value === '' ? '' : Number(e.target.value))}
                className="mt-0.5 max-w-[18rem] rounded border border-slate-300 bg-white px-1 py-1 dark:border-slate-600 dark:bg-slate-900"
              >
                <option value="">Choose an input</option>
                {inputs.map((i) => (
                  <option key={i.input} value={i.input}>
                    {displayText(i.name)} ({i.records} records)
                  </option>
                ))}
              </select>
            </label>
          ))}
          <button type="button" className={BUTTON} disabled={a === '' || b === ''} onClick={compare}>
            Compare these inputs
          </button>
        </fieldset>
      )}
    </div>
  );
}

function SideCard({ side, recordKey, onSelect }: { side: 'A' | 'B'; recordKey: number; onSelect: (key: number) => void }) {
  const api = useCompareApi();
  const s = api.summaries.get(recordKey);
  const name = s ? (api.inputs.find((i) => i.input === s.input)?.name ?? '') : '';
  return (
    <div data-testid={`side-${side}`} className="min-w-0 rounded border border-slate-200 p-2 dark:border-slate-700">
      <p className="flex flex-wrap items-baseline gap-x-2">
        <span className="rounded bg-slate-800 px-1.5 text-xs font-bold text-white dark:bg-slate-200 dark:text-slate-900">{side}</span>
        {s ? (
          <>
            <bdi className="font-medium [overflow-wrap:anywhere]">{displayText(name)}</bdi>
            <span className="text-xs text-slate-600 dark:text-slate-300">
              record #{s.index} · {displayText([s.format, s.kind].filter(Boolean).join(' · '))}
              {s.id && (
                <>
                  {' · '}
                  <span className="font-mono" title={displayText(s.id)}>
                    {displayText(shortId(s.id))}
                  </span>
                </>
              )}
            </span>
          </>
        ) : (
          <span className="text-xs">no longer loaded</span>
        )}
      </p>
      {s && (
        <>
          <p className="mt-1 text-xs [overflow-wrap:anywhere]">
            <bdi>
              <NamedText text={s.summary} />
            </bdi>
          </p>
          <div className="mt-1 flex flex-wrap items-center gap-2">
            <Headline record={s} />
            <Badges record={s} />
            <button type="button" className={BUTTON} onClick={() => onSelect(recordKey)}>
              Show {side}'s detail
            </button>
          </div>
        </>
      )}
    </div>
  );
}

function PairView({ pair, version, onSelect }: { pair: ComparedPair; version: number; onSelect: (key: number) => void }) {
  const api = useCompareApi();
  const subject = subjectOf(pair, api.summaries);
  const query = useQuery({
    queryKey: queryKeys.compare(version, subject ?? {}),
    queryFn: () => inspectorClient().call('compare', subject!),
    enabled: subject !== null,
  });
  // A comparison can be hundreds of rows: rendered as a transition, in slices.
  const comparison = useDeferredValue(query.data);
  const a = api.summaries.get(pair.a);
  const b = api.summaries.get(pair.b);
  const conversations = !!(a?.conversation && b?.conversation);
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="text-base font-semibold">Comparison</h2>
        <fieldset aria-label="What to compare" className="inline-flex flex-wrap gap-1">
          {SCOPES.map(({ scope, label }) => (
            <button
              key={scope}
              type="button"
              aria-pressed={pair.scope === scope}
              disabled={scope === 'conversations' && !conversations}
              title={scope === 'conversations' && !conversations ? 'Both records need a conversation id (AGDX envelopes have one)' : undefined}
              onClick={() => api.show({ ...pair, scope })}
              className={`${BUTTON} ${pair.scope === scope ? 'border-teal-600 bg-teal-50 dark:border-teal-400 dark:bg-teal-950' : ''}`}
            >
              {label}
            </button>
          ))}
        </fieldset>
        <span className="ml-auto inline-flex flex-wrap gap-1">
          <button type="button" className={BUTTON} onClick={() => api.show({ ...pair, a: pair.b, b: pair.a })}>
            Swap A and B
          </button>
          <button type="button" className={BUTTON} onClick={() => api.compareWith(pair.a)}>
            Change B…
          </button>
          <button type="button" className={BUTTON} onClick={api.close}>
            Stop comparing
          </button>
        </span>
      </div>
      <p className="text-xs text-slate-600 [overflow-wrap:anywhere] dark:text-slate-300" data-testid="compared-words">
        Comparing <bdi>{comparedWords(pair, api.summaries, api.inputs)}</bdi>.
      </p>
      {pair.scope === 'records' && (
        <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
          <SideCard side="A" recordKey={pair.a} onSelect={onSelect} />
          <SideCard side="B" recordKey={pair.b} onSelect={onSelect} />
        </div>
      )}
      {subject === null ? (
        <p role="alert" className="text-red-700 dark:text-red-300">
          {pair.scope === 'conversations' ? 'Both records need a conversation id to compare their conversations.' : 'One of the records is no longer loaded.'}
        </p>
      ) : query.isError ? (
        <p role="alert" className="text-red-700 dark:text-red-300">
          Could not compare: {query.error.message}
        </p>
      ) : query.data === null ? (
        <p role="alert">One of the compared records, inputs or conversations is no longer loaded.</p>
      ) : !comparison ? (
        <p className="text-slate-600 dark:text-slate-400">Comparing…</p>
      ) : comparison.type === 'records' ? (
        <RecordDiffView c={comparison} />
      ) : (
        <LogDiffView c={comparison} onSelect={onSelect} />
      )}
    </div>
  );
}
