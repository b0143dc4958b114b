import { memo, useState } from 'react';
import type { EnvelopeReport, WorkflowReport } from '../../core/agentdna/model';
import { type BadgeWords, envelopeWords, type VerdictTone } from '../../core/verdict';
import { displayLines, displayText } from '../format';
import { Identity } from './Identity';
import { isoFromSeconds } from '../../core/time';
import { shortDid } from '../../core/short-id';

function epochDate(epoch: string | null): string {
  if (!epoch || !/^\d+(\.\d+)?$/.test(epoch)) return epoch === null ? '—' : displayText(epoch);
  return isoFromSeconds(Number(epoch)) ?? epoch;
}

function pretty(payload: string | null): string {
  if (payload === null) return '—';
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
}

const MODE_NAMES = { light: 'Light', heavy: 'Heavy', boundary: 'Boundary' } as const;

const TAG_TONES: Record<VerdictTone, string> = {
  good: 'bg-emerald-100 text-emerald-900 ring-emerald-300 dark:bg-emerald-950 dark:text-emerald-200 dark:ring-emerald-800',
  bad: 'bg-red-100 text-red-900 ring-red-300 dark:bg-red-950 dark:text-red-200 dark:ring-red-800',
  none: 'bg-slate-100 text-slate-700 ring-slate-300 dark:bg-slate-800 dark:text-slate-300 dark:ring-slate-600',
  warn: 'bg-amber-100 text-amber-900 ring-amber-300 dark:bg-amber-950 dark:text-amber-200 dark:ring-amber-800',
  untrusted: 'bg-orange-200 text-orange-950 ring-orange-500 dark:bg-orange-800 dark:text-orange-50 dark:ring-orange-400',
};

function Tag({ words, testId }: { words: BadgeWords; testId?: string }) {
  return (
    <span
      title={words.title}
      data-testid={testId}
      data-tone={words.tone}
      className={`rounded px-1.5 py-0.5 text-[11px] font-medium ring-1 ring-inset ${TAG_TONES[words.tone]}`}
    >
      {words.label}
    </span>
  );
}

/** The envelope's verdicts as core/verdict.ts words them. */
const wordsOf = (e: EnvelopeReport) =>
  envelopeWords({
    hashOk: e.hash_ok,
    signature: e.signature,
    didMatch: e.did_match,
    trusted: e.trusted,
    claimedHashSignature: e.claimed_hash_signature,
    duplicateHash: e.duplicate_hash,
  });

function EnvelopeTags({ e }: { e: EnvelopeReport }) {
  const w = wordsOf(e);
  return (
    <>
      <Tag words={w.hash} />
      <Tag words={w.signature} testId="envelope-signature" />
      {w.binding && <Tag words={w.binding} />}
      <Tag words={{ ...w.trust, title: displayText(e.trust_reason) }} testId="envelope-trust" />
      {w.duplicate && <Tag words={w.duplicate} />}
    </>
  );
}

const tampered = (e: EnvelopeReport) => !e.hash_ok || e.signature !== 'valid' || !e.did_match;

/** An AgentDNA workflow: AgentDNA's three mode verdicts, and the inspector's own truth per envelope. */
export const WorkflowPanel = memo(function WorkflowPanel({ workflow }: { workflow: WorkflowReport }) {
  const [selected, setSelected] = useState(0);
  const env = workflow.envelopes[selected];
  return (
    <div className="flex flex-col gap-3 text-xs">
      <section className="grid gap-2 sm:grid-cols-3" aria-label="Mode verdicts">
        {(['light', 'heavy', 'boundary'] as const).map((m) => {
          const d = workflow.mode_details[m];
          return (
            <div
              key={m}
              data-mode={m}
              className={`min-w-0 rounded border p-2 [overflow-wrap:anywhere] ${d.code === 1000 ? 'border-emerald-300 dark:border-emerald-800' : 'border-red-300 dark:border-red-800'}`}
            >
              <p className="font-semibold">
                {MODE_NAMES[m]}: <span data-testid={`mode-${m}`}>{d.code}</span> {d.code === 1000 ? 'passed' : 'failed'}
                {d.raised ? ' (AgentDNA raises)' : ''}
              </p>
              <p className="mt-1 text-slate-700 dark:text-slate-300">{displayText(d.reason)}</p>
              <p className="mt-1 text-slate-500 dark:text-slate-400">Did not check: {displayText(d.notChecked)}</p>
            </div>
          );
        })}
      </section>
      <ol aria-label="Envelopes" className="flex flex-col gap-1">
        {workflow.envelopes.map((e, i) => (
          <li key={e.path}>
            <button
              type="button"
              aria-pressed={selected === i}
              data-tampered={tampered(e) || undefined}
              onClick={() => setSelected(i)}
              className={`w-full rounded border px-2 py-1.5 text-left ${selected === i ? 'border-teal-500 bg-teal-50 dark:bg-teal-950/50' : 'border-slate-200 hover:bg-slate-50 dark:border-slate-800 dark:hover:bg-slate-900'} ${tampered(e) ? 'border-l-4 border-l-red-500' : ''}`}
            >
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-mono text-slate-600 dark:text-slate-400">{displayText(e.path)}</span>
                <span title={displayText(e.from ?? '')}>{e.from ? <Identity value={e.from} shorten={shortDid} /> : '—'}</span>→
                <span title={displayText(e.to ?? '')}>{e.to ? <Identity value={e.to} shorten={shortDid} /> : '—'}</span>
                <span className="text-slate-600 dark:text-slate-400">{epochDate(e.epoch)}</span>
                <span className={e.status_code === '1000' ? 'text-slate-600 dark:text-slate-400' : 'text-amber-700 dark:text-amber-300'}>
                  {displayText(e.status_code ?? '—')} {displayText(e.status_name)}
                </span>
                <span className="ml-auto inline-flex flex-wrap gap-1">
                  <EnvelopeTags e={e} />
                </span>
              </div>
            </button>
          </li>
        ))}
      </ol>
      {env && (
        <section aria-label="Envelope detail" className="grid gap-2 rounded border border-slate-200 p-2 dark:border-slate-800">
          <p className="font-semibold">{displayText(env.path)}</p>
          <p>{displayText(env.signature_reason)}</p>
          <p data-testid="envelope-trust-reason">{displayText(env.trust_reason)}</p>
          <p className="text-slate-600 dark:text-slate-300">AgentDNA itself: {displayText(env.agentdna_reason)}</p>
          <h4 className="font-medium">Payload</h4>
          <pre className="max-h-40 overflow-auto rounded bg-slate-50 p-2 whitespace-pre-wrap break-all dark:bg-slate-900">
            {displayLines(pretty(env.payload))}
          </pre>
          <h4 className="font-medium">Content JSON that was hashed</h4>
          <pre data-testid="content-json" className="overflow-auto rounded bg-slate-50 p-2 whitespace-pre-wrap break-all dark:bg-slate-900">
            {displayLines(env.content_json ?? '—')}
          </pre>
          <p>
            content hash <span className="font-mono">{env.content_hash ?? '—'}</span>; stored{' '}
            <span className="font-mono">{displayText(env.claimed_hash ?? '—')}</span>
          </p>
          {env.combined_json && (
            <>
              <h4 className="font-medium">With its parents</h4>
              <pre className="overflow-auto rounded bg-slate-50 p-2 whitespace-pre-wrap break-all dark:bg-slate-900">{displayLines(env.combined_json)}</pre>
            </>
          )}
          <p>
            Signed message: <span className="font-mono break-all">{displayText(env.message ?? env.message_problem ?? '—')}</span>
          </p>
          <p>
            The 32 bytes signed{env.rule ? ` (${env.rule === 'truncate' ? 'the first 32 ASCII bytes of the message' : 'SHA-256 of the message'})` : ''}:{' '}
            <span data-testid="signed-bytes" className="font-mono break-all">
              {env.signed_bytes_hex ?? '—'}
            </span>
          </p>
          {env.der_issues.length > 0 && <p className="text-amber-700 dark:text-amber-300">DER: {displayText(env.der_issues.join('; '))}</p>}
          <h4 className="font-medium">Recovered keys and their DIDs</h4>
          <ul className="font-mono">
            {env.recovered.length === 0 && <li className="font-sans text-slate-600 dark:text-slate-400">none</li>}
            {env.recovered.map((k) => (
              <li key={`${k.rule}:${k.recovery}`} className={k.matches ? 'text-emerald-700 dark:text-emerald-300' : 'text-slate-600 dark:text-slate-400'}>
                {k.rule}/{k.recovery}: {displayText(k.did ?? '—')} {k.matches ? '← matches from' : ''}
                <span className="block truncate text-[10px]" title={k.public_key}>
                  key {k.public_key}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
});
