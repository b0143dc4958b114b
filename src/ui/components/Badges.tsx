import { memo } from 'react';
import type { RecordSummary } from '../../wire/summary-pack';

const TONES = {
  good: 'bg-emerald-100 text-emerald-900 ring-emerald-300 dark:bg-emerald-950 dark:text-emerald-200 dark:ring-emerald-800',
  bad: 'bg-red-100 text-red-900 ring-red-300 dark:bg-red-950 dark:text-red-200 dark:ring-red-800',
  warn: 'bg-amber-100 text-amber-900 ring-amber-300 dark:bg-amber-950 dark:text-amber-200 dark:ring-amber-800',
  none: 'bg-slate-100 text-slate-700 ring-slate-300 dark:bg-slate-800 dark:text-slate-300 dark:ring-slate-600',
};
type Tone = keyof typeof TONES;

function Badge({ tone, label, title }: { tone: Tone; label: string; title: string }) {
  return (
    <span title={title} aria-label={title} className={`inline-flex items-center whitespace-nowrap rounded px-1.5 py-0.5 text-[11px] font-medium ring-1 ring-inset ${TONES[tone]}`}>
      {label}
    </span>
  );
}

const SIGNATURE_BADGES: Record<RecordSummary['signature'], { tone: Tone; label: string }> = {
  unsigned: { tone: 'none', label: 'Unsigned' },
  valid: { tone: 'good', label: 'Signature valid' },
  invalid: { tone: 'bad', label: 'Signature invalid' },
  unknown_key: { tone: 'warn', label: 'Unknown key' },
  unsupported: { tone: 'none', label: 'Unsupported scheme' },
  malformed: { tone: 'bad', label: 'Malformed signature' },
};

/** The three separate answers every record gets: Decoded, Valid, Signed. Never one ✓ that hides which. */
export const Badges = memo(function Badges({ record }: { record: RecordSummary }) {
  const sig = SIGNATURE_BADGES[record.signature];
  return (
    <span className="inline-flex flex-wrap gap-1" data-testid="badges">
      <Badge tone={record.decoded ? 'good' : 'bad'} label={record.decoded ? 'Decoded' : 'Not decoded'} title={record.decoded ? 'Decoded: yes' : `Decoded: no (${record.errorCode})`} />
      {record.decoded && (
        <Badge
          tone={record.valid ? 'good' : 'bad'}
          label={record.valid ? 'Valid' : 'Invalid'}
          title={record.valid ? 'Valid: yes' : `Valid: no (${record.errors} error finding${record.errors === 1 ? '' : 's'})`}
        />
      )}
      <Badge tone={sig.tone} label={sig.label + (record.signature === 'valid' ? (record.trusted ? ', trusted' : ', not trusted') : '')} title={`Signed: ${sig.label.toLowerCase()}`} />
    </span>
  );
});
