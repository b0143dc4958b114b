// A compact row's three answers (Decoded, Valid, Signed) as three small marks side by side, each a
// glyph and a tone, never one ✓ for all: the words and tones are the badges' (core/verdict.ts
// verdictBadges, as the comfortable row's badges: no green mark beside a signature that does not hold).
import { memo } from 'react';
import { verdictBadges } from '../../core/verdict';
import type { RecordSummary } from '../../wire/summary-pack';
import { displayText } from '../format';

const TONES = {
  good: 'bg-emerald-100 text-emerald-900 ring-emerald-300 dark:bg-emerald-950 dark:text-emerald-200 dark:ring-emerald-800',
  bad: 'bg-red-100 text-red-900 ring-red-400 dark:bg-red-950 dark:text-red-200 dark:ring-red-800',
  warn: 'bg-amber-100 text-amber-900 ring-amber-400 dark:bg-amber-950 dark:text-amber-200 dark:ring-amber-800',
  untrusted: 'bg-orange-200 text-orange-950 ring-orange-500 dark:bg-orange-800 dark:text-orange-50 dark:ring-orange-400',
  none: 'bg-slate-100 text-slate-700 ring-slate-300 dark:bg-slate-800 dark:text-slate-300 dark:ring-slate-600',
};

/** The signature's glyph, by the badge's tone: trusted, held but not trusted, bad, an unknown key, none. */
const SIGNATURE_GLYPH = { good: '✓', untrusted: '!', bad: '✗', warn: '?', none: '–' } as const;

function Mark({ tone, glyph, title, testId }: { tone: keyof typeof TONES; glyph: string; title: string; testId?: string }) {
  return (
    <span
      role="img"
      aria-label={title}
      title={title}
      data-tone={tone}
      data-testid={testId}
      className={`inline-flex h-4 min-w-4 items-center justify-center rounded-sm px-0.5 text-[10px] leading-none font-semibold ring-1 ring-inset ${TONES[tone]}`}
    >
      {glyph}
    </span>
  );
}

export const VerdictMarks = memo(function VerdictMarks({ record }: { record: RecordSummary }) {
  const b = verdictBadges({ ...record, trustNote: record.trustNote === null ? null : displayText(record.trustNote) });
  const w = record.warnings;
  return (
    <span className="inline-flex shrink-0 justify-end gap-0.5" data-testid="badges">
      <Mark tone={b.decoded.tone} glyph={record.decoded ? '✓' : '✗'} title={b.decoded.title} />
      {b.valid && (
        <Mark
          tone={b.warnings && b.valid.tone === 'good' ? 'warn' : b.valid.tone}
          glyph={record.valid ? (w ? `▲${w > 9 ? '' : w}` : '✓') : '✗'}
          title={`${b.valid.title}${b.warnings ? `; ${b.warnings.title}` : ''}`}
          testId={w ? 'warnings-badge' : 'valid-badge'}
        />
      )}
      <Mark tone={b.signature.tone} glyph={SIGNATURE_GLYPH[b.signature.tone]} title={b.signature.title} testId="signature-badge" />
    </span>
  );
});
