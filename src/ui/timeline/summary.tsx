// The Timeline tab's text around its canvas: the summary above it (counts, the deadline and clock
// problems, the legend and the keys, at most 45% of the pane, so the chart keeps the rest), and the
// column of agents beside it, one lane each, scrolled with the canvas.
import { type RefObject, useState } from 'react';
import { isoFromMicros } from '../../core/time';
import { PARKING, rows, SPAN, STRETCH, type TimelinePack } from '../../wire/timeline-pack';
import { displayText, groupDigits } from '../format';
import { Legend, ProblemList, type Problems } from './parts';

/** The height of the time axis above the canvas (and of the agents' heading beside it). */
export const AXIS = 26;

export function TimelineSummary({
  pack,
  count,
  problems,
  links,
  onLinks,
  list,
  onList,
  onSelect,
  range,
}: {
  pack: TimelinePack;
  /** The marks drawn. */
  count: number;
  problems: Problems;
  links: boolean;
  onLinks: () => void;
  list: boolean;
  onList: () => void;
  onSelect: (record: number) => void;
  /** The stretch of time in view, in words: the canvas writes it (a wheel redraws every frame). */
  range: RefObject<HTMLSpanElement | null>;
}) {
  const origin = pack.origin !== null ? isoFromMicros(pack.origin) : null;
  const sessions = pack.sessionLabels.length;
  const paused = pack.sessionStates.indexOf('paused');
  // A stretch is a row per lane of its session: counted once, by the status that began it.
  const pausedBy = new Set<number>();
  for (let i = 0, n = rows(pack.stretches, STRETCH.STRIDE); i < n; i++) {
    const o = i * STRETCH.STRIDE;
    if (pack.stretches[o + STRETCH.STATE] === paused) pausedBy.add(pack.stretches[o + STRETCH.RECORD]);
  }
  const pauses = pausedBy.size;
  const parkings = rows(pack.parkings, PARKING.STRIDE);
  // The legend and keys are open on a wide screen; on a phone they fold away to leave the canvas room.
  const [wide] = useState(() => typeof matchMedia !== 'function' || matchMedia('(min-width: 768px)').matches);
  // At most 45% of the pane (it scrolls): the chart keeps the rest.
  return (
    <div className="max-h-[45%] shrink-0 overflow-y-auto border-b border-slate-200 px-3 py-1 dark:border-slate-800" data-testid="timeline-summary">
      <p className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span>
          {groupDigits(count)} record{count === 1 ? '' : 's'} on {pack.lanes.length} lane{pack.lanes.length === 1 ? '' : 's'}
          {origin ? <span className="text-slate-600 dark:text-slate-400"> from {origin}</span> : ''}
          {pack.untimed > 0 && ` · ${groupDigits(pack.untimed)} without a time (no log time, no ULID record id): not drawn`}
        </span>
        <span>
          {groupDigits(rows(pack.spans, SPAN.STRIDE))} answers · {groupDigits(problems.count.met)} deadlines met ·{' '}
          <span className={problems.count.missed ? 'font-semibold text-red-700 dark:text-red-300' : ''}>⚠ {groupDigits(problems.count.missed)} missed</span> ·{' '}
          <span className={problems.count.unanswered ? 'font-semibold text-red-700 dark:text-red-300' : ''}>
            {groupDigits(problems.count.unanswered)} unanswered
          </span>{' '}
          ·{' '}
          <span className={problems.count.skews ? 'text-violet-700 dark:text-violet-300' : ''}>
            ⟲ {groupDigits(problems.count.skews)} clock skew{problems.count.skews === 1 ? '' : 's'}
          </span>
        </span>
        {sessions > 0 && (
          <span data-testid="timeline-sessions">
            {groupDigits(sessions)} session{sessions === 1 ? '' : 's'} · {groupDigits(pauses)} paused stretch{pauses === 1 ? '' : 'es'} ·{' '}
            {groupDigits(parkings)} parked → unparked
          </span>
        )}
        <span className="ml-auto inline-flex items-center gap-3">
          <label className="inline-flex items-center gap-1">
            <input type="checkbox" checked={links} onChange={onLinks} /> causal links
          </label>
          <button
            type="button"
            aria-pressed={list}
            onClick={onList}
            className="rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
          >
            List view
          </button>
        </span>
      </p>
      <ProblemList problems={problems} onSelect={onSelect} />
      <details open={wide} className="mt-0.5">
        <summary className="cursor-pointer text-slate-600 dark:text-slate-400">Legend and keys</summary>
        <Legend />
        <p className="text-slate-600 dark:text-slate-400" id="timeline-keys">
          <span ref={range} data-testid="timeline-range" className="mr-2 text-slate-700 dark:text-slate-300" />
          Zoom: wheel, pinch or + −. Pan: drag, shift+wheel or ← →. Lanes: ↑ ↓, or scroll the agents. Home: fit all. [ ]: previous / next mark, Enter: select
          it.
        </p>
      </details>
    </div>
  );
}

/** The agents beside the canvas: only the lanes in view (`laneWindow`) are made; scrolled with it. */
export function LaneColumn({
  pack,
  tops,
  laneWindow,
  column,
  onScroll,
}: {
  pack: TimelinePack;
  tops: Float64Array;
  laneWindow: [number, number];
  column: RefObject<HTMLDivElement | null>;
  onScroll: (top: number) => void;
}) {
  return (
    <div className="flex w-24 shrink-0 flex-col border-r sm:w-32 border-slate-200 dark:border-slate-800">
      <div className="flex shrink-0 items-center px-2 font-medium text-slate-600 dark:text-slate-400" style={{ height: AXIS }}>
        Agent
      </div>
      <div ref={column} className="relative min-h-0 flex-1 overflow-y-auto" onScroll={(e) => onScroll(e.currentTarget.scrollTop)}>
        <ul aria-label="Agents (one lane each)" style={{ height: tops[tops.length - 1] }}>
          {pack.lanes.slice(laneWindow[0], laneWindow[1] + 1).map((agent, k) => {
            const lane = laneWindow[0] + k;
            return (
              <li
                key={lane}
                className={`absolute right-0 left-0 flex items-center truncate px-2 ${lane % 2 ? 'bg-slate-100/80 dark:bg-slate-800/55' : ''}`}
                style={{ top: tops[lane], height: tops[lane + 1] - tops[lane] }}
                title={displayText(agent)}
              >
                <bdi className="truncate">{displayText(agent)}</bdi>
                <span className="ml-auto pl-1 text-slate-500 dark:text-slate-400">{pack.laneMarks[lane]}</span>
              </li>
            );
          })}
        </ul>
      </div>
    </div>
  );
}
