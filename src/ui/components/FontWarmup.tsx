// The fonts a load brings, looked up before it needs them. Chromium on Linux resolves a font stack
// one family at a time (Tailwind's mono stack names several families such a system lacks before
// the generic one), a few milliseconds each, and loads each face's file (italic, bold), inside the
// layout that first shows the text: 30–50 ms of the 60–90 ms frame that first showed a
// million-record load's rows (the bench's long task). Drawn invisibly with the page's first frame, the
// lookups are made when the page starts, not during the first load, which may begin right away.

/**
 * The text styles a load brings that the empty page does not show: the list's rows and header
 * (rows.tsx, VerdictMarks.tsx, ListHeader.tsx) and the first record's detail, chosen when a load
 * ends (FieldTree.tsx: the theme's sans stack, font-sans). fonts.spec.ts finds any that is missing.
 */
const STYLES = [
  'font-mono text-xs',
  'font-mono text-[11px]',
  'font-mono text-sm',
  'font-mono text-[11px] italic',
  'font-mono text-xs font-semibold',
  'font-mono text-base font-semibold',
  'font-semibold text-[10px]',
  'font-semibold text-xs',
  'font-semibold text-[11px]',
  'font-semibold text-sm',
  'font-semibold text-base',
  'font-medium text-[11px]',
  'font-medium text-xs',
  'text-[10px]',
  'text-[11px]',
  'text-xs',
  'font-sans text-[10px]',
  'font-sans text-xs',
  'font-sans text-xs font-semibold',
];

export function FontWarmup() {
  return (
    <div aria-hidden="true" className="pointer-events-none invisible fixed left-0 top-0 -z-10">
      {STYLES.map((s) => (
        <span key={s} className={s}>
          Aa0
        </span>
      ))}
    </div>
  );
}
