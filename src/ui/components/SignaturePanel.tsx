import { memo } from 'react';
import { trustNote } from '../../core/keys/trust-note';
import { signatureStory } from '../../core/verdict';
import { displayText, hex2 } from '../format';
import { useRegistry } from '../registry-context';
import type { RecordDetail } from '../../wire/protocol';
import { NamedText } from './Identity';
import { TrustSigner } from './TrustSigner';

const SEGMENT_STYLES = [
  { name: 'domain', cls: 'bg-teal-200 dark:bg-teal-800' },
  { name: 'context', cls: 'bg-violet-200 dark:bg-violet-800' },
  { name: 'envelope', cls: 'bg-amber-100 dark:bg-amber-900' },
] as const;

const MAX_SHOWN = 4096;

/** The signed message laid out in its three segments: domain, encoded context, canonical envelope. */
function SigningInput({ signing }: { signing: NonNullable<RecordDetail['signing']> }) {
  const parts = [signing.domain, signing.context, signing.envelope];
  let shown = 0;
  return (
    <div>
      <p className="mb-1 flex flex-wrap gap-3 text-[11px]">
        {SEGMENT_STYLES.map((s, i) => (
          <span key={s.name} className="inline-flex items-center gap-1">
            <span className={`inline-block h-3 w-3 rounded-sm ${s.cls}`} /> {s.name} ({parts[i].length} bytes)
          </span>
        ))}
      </p>
      <section
        aria-label="Signing input"
        className="max-h-48 overflow-auto rounded bg-slate-50 p-2 font-mono text-[11px] leading-5 break-all dark:bg-slate-900"
      >
        {SEGMENT_STYLES.map((segment, i) => {
          const bytes = parts[i];
          const take = Math.max(0, Math.min(bytes.length, MAX_SHOWN - shown));
          shown += take;
          return (
            <span key={segment.name} data-segment={segment.name} className={segment.cls}>
              {Array.from(bytes.subarray(0, take), hex2).join(' ')}
              {take > 0 ? ' ' : ''}
            </span>
          );
        })}
        {shown < parts.reduce((n, p) => n + p.length, 0) && <span>… (first {MAX_SHOWN} bytes)</span>}
      </section>
    </div>
  );
}

/** Received bytes against the canonical encoding, from the row of the first difference. */
function CanonicalDiff({ diff }: { diff: NonNullable<RecordDetail['canonical']> }) {
  const start = Math.max(0, Math.floor(diff.firstDifference / 16) * 16 - 16);
  // Keyed by byte offset: the window shows the bytes from `start` on.
  const rows = (bytes: Uint8Array, other: Uint8Array) =>
    Array.from(bytes.subarray(start, start + 64), (b, i) => ({ b, at: start + i })).map(({ b, at }) => (
      <span key={at} className={other[at] !== b ? 'bg-red-300 text-black dark:bg-red-700 dark:text-white' : ''}>
        {hex2(b)}{' '}
      </span>
    ));
  return (
    <section className="mt-2 text-[11px]" aria-label="Canonical diff">
      <p className="mb-1">
        The received bytes are not canonical: they first differ at byte {diff.offset + diff.firstDifference} ({diff.received.length} received,{' '}
        {diff.canonical.length} canonical). The signature is checked against the canonical bytes, as the reference does.
      </p>
      <div className="grid grid-cols-[5rem_1fr] gap-x-2 font-mono">
        <span className="text-slate-600 dark:text-slate-400">received</span>
        <span className="break-all">{rows(diff.received, diff.canonical)}</span>
        <span className="text-slate-600 dark:text-slate-400">canonical</span>
        <span className="break-all">{rows(diff.canonical, diff.received)}</span>
      </div>
    </section>
  );
}

/** What the record holds outside its signature, in the story's words: a valid signature vouches for none of it. */
function NotCovered({ sentence }: { sentence: string }) {
  const [head, ...rest] = sentence.split(': ');
  return (
    <p
      data-testid="not-covered"
      className="rounded border border-amber-400 bg-amber-50 p-2 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      <strong>{head}: </strong>
      {displayText(rest.join(': '))} They are marked “not signed” in the fields below.
    </p>
  );
}

/**
 * The record's signature story, every line from core/verdict.ts signatureStory: the same facts the
 * badges, the comparison, the exports and the command line word.
 */
export const SignaturePanel = memo(function SignaturePanel({ detail }: { detail: RecordDetail }) {
  const s = detail.signature;
  const ctx = detail.context;
  const { name } = useRegistry();
  const story = signatureStory(s, { note: trustNote(s), name });
  return (
    <div className="flex flex-col gap-2 text-xs" data-testid="signature" data-status={s.status}>
      <p className="text-sm font-medium" data-testid="signature-sentence">
        {story.sentence}
      </p>
      <p className="text-slate-700 dark:text-slate-300" data-testid="signature-reason">
        <NamedText text={s.reason} />
      </p>
      {story.coverage && <NotCovered sentence={story.coverage} />}
      {s.status !== 'unsigned' && (
        <dl className="grid grid-cols-[8rem_minmax(0,1fr)] gap-x-2 gap-y-0.5 [overflow-wrap:anywhere]">
          <dt className="text-slate-600 dark:text-slate-400">Scheme</dt>
          <dd>{s.scheme ?? 'unknown'}</dd>
          <dt className="text-slate-600 dark:text-slate-400">Key id</dt>
          <dd className="font-mono">{s.key_id ?? '—'}</dd>
          <dt className="text-slate-600 dark:text-slate-400">Signer</dt>
          {/* The signer by its registered name with the identity itself after it: the detail shows the DID. */}
          <dd data-testid="signer">{displayText(story.signer)}</dd>
          <dt className="text-slate-600 dark:text-slate-400">Trusted</dt>
          <dd data-testid="trust">{story.trust}</dd>
          {story.context !== null && (
            <>
              <dt className="text-slate-600 dark:text-slate-400">Context</dt>
              <dd data-testid="context">
                {ctx.signed
                  ? `signed content_type ${ctx.signed.content_type ?? '—'}, agent_version ${ctx.signed.agent_version ?? '—'}; headers agdx.ct ${ctx.observed?.ct ?? '—'}, agdx.av ${ctx.observed?.av ?? '—'}: ${story.context}`
                  : 'none signed'}
              </dd>
            </>
          )}
        </dl>
      )}
      <TrustSigner detail={detail} />
      {detail.signing && <SigningInput signing={detail.signing} />}
      {detail.canonical && <CanonicalDiff diff={detail.canonical} />}
    </div>
  );
});
