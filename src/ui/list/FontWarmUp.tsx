/**
 * The text faces (family, size, weight, style) the list's first rows use: its input header, column
 * header, compact and comfortable rows and verdict marks (rows.tsx, ListHeader.tsx, VerdictMarks.tsx).
 * A face new to the page is looked up when text first uses it, and Chromium asks the browser process
 * for it, which is busy reading the chosen file just then: at a million records (227 MB) the first
 * rows' frame spent 48–65 ms of style and layout waiting on those lookups (issue 29). A face added
 * to the rows belongs here too; the glyphs are the rows' own (marks, arrows, ellipses, digits).
 */
const FACES = [
  'text-xs',
  'text-xs font-semibold',
  'text-sm font-semibold',
  'text-[11px]',
  'text-[11px] font-semibold',
  'text-[10px] font-semibold leading-none',
  'font-mono text-xs',
  'font-mono text-[10px]',
  'font-mono text-[11px] tabular-nums',
  'font-mono text-[11px] tabular-nums italic',
] as const;

const GLYPHS = 'Ag 0123456789 …→·—–✓✗▲×';

/** The faces above, set once in a box nobody sees or reads, while the page waits for a file. */
export function FontWarmUp() {
  return (
    <div aria-hidden="true" className="pointer-events-none invisible absolute top-0 -left-[9999px]">
      {FACES.map((face) => (
        <span key={face} className={face}>
          {GLYPHS}
        </span>
      ))}
    </div>
  );
}
