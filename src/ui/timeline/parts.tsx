// The Timeline tab's parts around its canvas: the deadline and clock problems (counted, and listed
// in a scrolled list of rows of one height, each selecting its record), the legend, a mark in
// words, and the list view of every mark.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { formatDuration } from '../../core/time';
import { DEADLINE, MARK, type PackedMark, readDeadline, readMark, rows, SKEW, type TimelinePack } from '../../wire/timeline-pack';
import { displayText } from '../format';

/** Problems listed above the canvas, each kind (the rest: the Findings filter). */
export const LISTED = 50;
/** A problem's row: one line, never squeezed by the others (nine of them once printed over each other). */
const PROBLEM_ROW = 20;
/** Rows the problems' list shows before it scrolls. */
const PROBLEM_ROWS = 4;
const LIST_ROW = 30;

/** A time on the axis, from its origin: `+2.5 s`. */
export const at = (t: number) => (t === 0 ? '0' : `${t < 0 ? '' : '+'}${formatDuration(Math.round(t))}`);

const VERDICT_WORDS: Record<PackedMark['verdict'], string> = {
  invalid: 'invalid',
  'bad-signature': 'signature invalid or malformed',
  'unknown-key': 'signed by an unknown key',
  untrusted: 'signature valid, not trusted',
  trusted: 'signature valid, trusted',
  unsigned: 'unsigned',
};

/** A mark in words: the tooltip, the announcement and the list view say it. */
export function describeMark(pack: TimelinePack, i: number): string {
  const m = readMark(pack, i);
  const notes = [VERDICT_WORDS[m.verdict]];
  if (m.late) notes.push('came after its stream ended');
  if (m.skewed) notes.push('earlier than its cause or command (clock skew)');
  return `${m.label} — ${pack.lanes[m.lane]}, at ${at(m.t)} (${m.source === 'log' ? 'log time' : 'record id ULID time'}); ${notes.join('; ')}`;
}

/** What the page says of deadlines and clocks, from the pack: each problem with the record it selects. */
export interface Problem {
  key: string;
  record: number;
  text: string;
}

/**
 * The deadline and clock problems of a timeline: all counted, the first LISTED of each kind put in
 * words (a large log has thousands; only those few are shown).
 */
export function problemsOf(p: TimelinePack, labelOf: (record: number) => string) {
  const missed: Problem[] = [];
  const unanswered: Problem[] = [];
  const skews: Problem[] = [];
  const count = { missed: 0, unanswered: 0, skews: 0, met: 0 };
  for (let i = 0, n = rows(p.deadlines, DEADLINE.STRIDE); i < n; i++) {
    const d = readDeadline(p, i);
    if (d.state === 'missed' && d.answer !== null) {
      if (count.missed++ < LISTED) {
        missed.push({
          key: `m${i}`,
          record: d.answer,
          text: `Deadline missed by ${formatDuration(Math.round(d.missedBy ?? 0))}: ${labelOf(d.answer)} answered ${labelOf(d.command)}`,
        });
      }
    } else if (d.state === 'unanswered') {
      if (count.unanswered++ < LISTED)
        unanswered.push({ key: `u${i}`, record: d.command, text: `No answer before the deadline (${at(d.at)}): ${labelOf(d.command)}` });
    } else if (d.state === 'met') count.met++;
  }
  for (let i = 0, n = rows(p.skews, SKEW.STRIDE); i < n; i++) {
    if (count.skews++ >= LISTED) continue;
    const o = i * SKEW.STRIDE;
    const record = p.skews[o + SKEW.RECORD];
    skews.push({
      key: `s${i}`,
      record,
      text: `Clock skew: ${labelOf(record)} is ${formatDuration(Math.round(p.skews[o + SKEW.BY]))} earlier than ${p.skews[o + SKEW.VIA] === 0 ? 'its cause' : 'its command'}`,
    });
  }
  return { missed, unanswered, skews, count };
}

export type Problems = ReturnType<typeof problemsOf>;

/** The problems, a row each (missed, unanswered, skews), in a list that scrolls past a few rows. */
export function ProblemList({ problems, onSelect }: { problems: Problems; onSelect: (record: number) => void }) {
  const items = [
    ...problems.missed.map((x) => ({ ...x, tone: 'missed' })),
    ...problems.unanswered.map((x) => ({ ...x, tone: 'unanswered' })),
    ...problems.skews.map((x) => ({ ...x, tone: 'skew' })),
  ];
  if (items.length === 0) return null;
  const more = problems.count.missed > LISTED || problems.count.unanswered > LISTED || problems.count.skews > LISTED;
  const shown = items.length + (more ? 1 : 0);
  return (
    <ul
      className="mt-0.5 overflow-y-auto"
      style={{ maxHeight: PROBLEM_ROW * Math.min(shown, PROBLEM_ROWS) }}
      aria-label="Deadlines and clocks"
      data-testid="timeline-problems"
    >
      {items.map((x) => (
        <li key={x.key} className="shrink-0 truncate" style={{ height: PROBLEM_ROW, lineHeight: `${PROBLEM_ROW}px` }}>
          <button
            type="button"
            data-testid={`timeline-${x.tone}`}
            onClick={() => onSelect(x.record)}
            title={displayText(x.text)}
            className={`max-w-full truncate text-left underline-offset-2 hover:underline ${x.tone === 'skew' ? 'text-violet-800 dark:text-violet-300' : 'text-red-800 dark:text-red-300'}`}
          >
            {x.tone === 'skew' ? '⟲' : '⚠'} <bdi>{displayText(x.text)}</bdi>
          </button>
        </li>
      ))}
      {more && (
        <li className="truncate text-slate-600 dark:text-slate-400" style={{ height: PROBLEM_ROW, lineHeight: `${PROBLEM_ROW}px` }}>
          …and more: filter the records by rule agdx/deadline/ or agdx/graph/clock-skew.
        </li>
      )}
    </ul>
  );
}

/** What the glyphs and lines mean (the verdicts in the badge tones, each with a shape of its own). */
export function Legend() {
  const item = (svg: ReactNode, words: string) => (
    <span className="inline-flex items-center gap-1">
      <svg width="14" height="12" aria-hidden="true" className="overflow-visible">
        {svg}
      </svg>
      {words}
    </span>
  );
  return (
    <p className="mt-0.5 flex flex-wrap gap-x-3 gap-y-0.5" role="note" aria-label="Timeline legend">
      {item(<circle cx="7" cy="6" r="4.5" className="fill-emerald-600 dark:fill-emerald-400" />, 'trusted')}
      {item(<circle cx="7" cy="6" r="4.5" className="fill-slate-500 dark:fill-slate-400" />, 'unsigned')}
      {item(
        <>
          <circle cx="7" cy="6" r="4.5" className="fill-orange-600 dark:fill-orange-400" />
          <circle cx="7" cy="6" r="2" fill="#fff" />
        </>,
        'not trusted',
      )}
      {item(<path d="M7 0.5 L12.5 6 L7 11.5 L1.5 6 Z" className="fill-amber-600 dark:fill-amber-400" />, 'unknown key')}
      {item(<path d="M7 0.5 L12.5 11 L1.5 11 Z" className="fill-red-600 dark:fill-red-400" />, 'bad signature')}
      {item(
        <>
          <rect x="2.5" y="1.5" width="9" height="9" className="fill-red-700 dark:fill-red-400" />
          <path d="M4.5 3.5 L9.5 8.5 M9.5 3.5 L4.5 8.5" stroke="#fff" />
        </>,
        'invalid',
      )}
      {item(<path d="M0 6 H14 M0 3 V9 M14 3 V9" className="stroke-slate-500" />, 'command → answer (latency)')}
      {item(<path d="M4 0 V12 M4 0 L10 3 L4 6 Z" className="fill-red-600 stroke-red-600" />, 'deadline (⚠ missed)')}
      {item(<rect x="0" y="4" width="14" height="5" className="fill-teal-600/60" />, 'chunk stream')}
      {item(<circle cx="7" cy="6" r="5" fill="none" strokeDasharray="2 2" className="stroke-red-600" />, 'late chunk')}
      {item(<circle cx="7" cy="6" r="5" fill="none" className="stroke-violet-600" />, '⟲ clock skew')}
      {item(
        <>
          <rect x="0" y="0" width="14" height="12" className="fill-teal-600/10" />
          <rect x="0" y="9" width="14" height="2" className="fill-teal-600 dark:fill-teal-400" />
        </>,
        'session working',
      )}
      {item(
        <>
          <rect x="0" y="0" width="14" height="12" className="fill-amber-600/20" />
          <path d="M2 12 L-4 0 M8 12 L2 0 M14 12 L8 0 M20 12 L14 0" className="stroke-amber-700 dark:stroke-amber-400" strokeOpacity="0.5" />
          <rect x="0" y="9" width="14" height="2" className="fill-amber-700 dark:fill-amber-400" />
        </>,
        'session paused',
      )}
      {item(<path d="M1 2 C1 12 13 12 13 4" fill="none" strokeDasharray="3 2" className="stroke-amber-700 dark:stroke-amber-400" />, 'parked → unparked')}
    </p>
  );
}

/** Every mark as a row, in time order (windowed): the list the canvas draws, for reading and the keyboard. */
export function MarkList({
  pack,
  selected,
  describe,
  onSelect,
}: {
  pack: TimelinePack;
  selected: number;
  describe: (i: number) => string;
  onSelect: (record: number) => void;
}) {
  const count = rows(pack.marks, MARK.STRIDE);
  const scroller = useRef<HTMLDivElement>(null);
  const [top, setTop] = useState(0);
  const [height, setHeight] = useState(400);
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setHeight(el.clientHeight));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  // The selected record's row is scrolled into view when it is out of it.
  useEffect(() => {
    const el = scroller.current;
    if (!el || selected < 0) return;
    const y = selected * LIST_ROW;
    if (y < el.scrollTop || y + LIST_ROW > el.scrollTop + el.clientHeight) el.scrollTop = y - el.clientHeight / 2;
  }, [selected]);
  const first = Math.max(0, Math.floor(top / LIST_ROW) - 5);
  const last = Math.min(count, Math.ceil((top + height) / LIST_ROW) + 5);
  const items = [];
  for (let i = first; i < last; i++) {
    const record = pack.marks[i * MARK.STRIDE + MARK.RECORD];
    items.push(
      <li key={i} className="absolute right-0 left-0" style={{ top: i * LIST_ROW, height: LIST_ROW }}>
        <button
          type="button"
          aria-current={i === selected ? 'true' : undefined}
          onClick={() => onSelect(record)}
          className={`h-full w-full truncate px-3 text-left text-xs outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-teal-500 ${i === selected ? 'bg-teal-50 font-medium dark:bg-teal-950/60' : 'hover:bg-slate-50 dark:hover:bg-slate-900'}`}
        >
          <bdi>{displayText(describe(i))}</bdi>
        </button>
      </li>,
    );
  }
  return (
    <div ref={scroller} className="relative min-h-0 flex-1 overflow-y-auto" onScroll={(e) => setTop(e.currentTarget.scrollTop)} data-testid="timeline-list">
      <ul aria-label={`Timeline marks in time order (${count})`} className="relative" style={{ height: count * LIST_ROW }}>
        {items}
      </ul>
    </div>
  );
}
