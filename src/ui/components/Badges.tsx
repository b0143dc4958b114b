import { memo } from 'react';
import type { RecordSummary } from '../../wire/summary-pack';
import { recordHeadline, verdictBadges } from '../../core/verdict';
import { displayText } from '../format';

const TONES = {
  good: 'bg-emerald-100 text-emerald-900 ring-emerald-300 dark:bg-emerald-950 dark:text-emerald-200 dark:ring-emerald-800',
  bad: 'bg-red-100 text-red-900 ring-red-300 dark:bg-red-950 dark:text-red-200 dark:ring-red-800',
  warn: 'bg-amber-100 text-amber-900 ring-amber-300 dark:bg-amber-950 dark:text-amber-200 dark:ring-amber-800',
  // A valid signature the registry does not back: never the trusted green, nor the dark amber of an
  // unknown key (orange-950 on orange-200 is 12:1; orange-50 on orange-800, 7:1).
  untrusted: 'bg-orange-200 text-orange-950 ring-orange-500 dark:bg-orange-800 dark:text-orange-50 dark:ring-orange-400',
  none: 'bg-slate-100 text-slate-700 ring-slate-300 dark:bg-slate-800 dark:text-slate-300 dark:ring-slate-600',
};
type Tone = keyof typeof TONES;

/** One answer as a coloured badge: `label` in short, `title` in full (its accessible name). */
export function Badge({ tone, label, title, testId }: { tone: Tone; label: string; title: string; testId?: string }) {
  return (
    // A named image of its words: the label says in full what the badge says in short.
    <span
      role="img"
      title={title}
      aria-label={title}
      data-tone={tone}
      data-testid={testId}
      className={`inline-flex max-w-full items-center truncate rounded px-1.5 py-0.5 text-[11px] font-medium whitespace-nowrap ring-1 ring-inset ${TONES[tone]}`}
    >
      {label}
    </span>
  );
}

/**
 * The separate answers every record gets (Decoded, Valid, its warnings, Signed), worded and toned by
 * the core (core/verdict.ts verdictBadges): never one ✓ that hides which, and no green answer beside
 * a signature that does not hold. A warning does not make a record invalid, but it is a problem to
 * look at ("any problem" in the filter finds it).
 */
export const Badges = memo(function Badges({ record }: { record: RecordSummary }) {
  // The note comes from the record's verdict (a registry's agent name may be in it): shown escaped.
  const b = verdictBadges({ ...record, trustNote: record.trustNote === null ? null : displayText(record.trustNote) });
  return (
    <span className="inline-flex max-w-full flex-wrap gap-1" data-testid="badges">
      <Badge {...b.decoded} />
      {b.valid && <Badge {...b.valid} testId="valid-badge" />}
      {b.warnings && <Badge {...b.warnings} testId="warnings-badge" />}
      <Badge {...b.signature} testId="signature-badge" />
    </span>
  );
});

/** The worst of a record's verdicts (core/verdict.ts recordHeadline), as the detail and the comparison head a record with it. */
export function Headline({ record }: { record: RecordSummary }) {
  const h = recordHeadline({ ...record, trustNote: record.trustNote === null ? null : displayText(record.trustNote) });
  return (
    <span
      role="img"
      aria-label={`Verdict: ${h.title}`}
      title={h.title}
      data-testid="headline"
      data-tone={h.tone}
      data-class={h.class}
      className={`inline-flex max-w-full items-center rounded px-2 py-0.5 text-xs font-semibold ring-1 ring-inset [overflow-wrap:anywhere] ${TONES[h.tone]}`}
    >
      {h.label}
    </span>
  );
}
