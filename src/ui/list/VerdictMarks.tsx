// A compact row's three answers (Decoded, Valid, Signed) as three small marks side by side, each a
// glyph and a tone, never one ✓ for all: the words are the badges' (their names and tooltips are the
// comfortable row's badge titles; the signature's come from signatureBadge, as everywhere else).
import { memo } from 'react';
import type { RecordSummary } from '../../wire/summary-pack';
import { displayText, signatureBadge } from '../format';

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
  const sig = signatureBadge(record.signature, record.trusted, record.trustNote === null ? null : displayText(record.trustNote));
  const w = record.warnings;
  return (
    <span className="inline-flex shrink-0 justify-end gap-0.5" data-testid="badges">
      <Mark
        tone={record.decoded ? 'good' : 'bad'}
        glyph={record.decoded ? '✓' : '✗'}
        title={record.decoded ? 'Decoded: yes' : `Decoded: no (${record.errorCode})`}
      />
      {record.decoded && (
        <Mark
          tone={record.valid ? (w ? 'warn' : 'good') : 'bad'}
          glyph={record.valid ? (w ? `▲${w > 9 ? '' : w}` : '✓') : '✗'}
          title={`${record.valid ? 'Valid: yes' : `Valid: no (${record.errors} error finding${record.errors === 1 ? '' : 's'})`}${w ? `; ${w} warning finding${w === 1 ? '' : 's'} (see Findings)` : ''}`}
          testId={w ? 'warnings-badge' : undefined}
        />
      )}
      <Mark
        tone={sig.tone}
        glyph={SIGNATURE_GLYPH[sig.tone]}
        title={`Signed: ${sig.label.charAt(0).toLowerCase()}${sig.label.slice(1)}`}
        testId="signature-badge"
      />
    </span>
  );
});
