// The Timeline tab: the AGDX records of the load on a time axis, one lane per agent, modelled in
// the worker (core/timeline, packed by wire/timeline-pack) and drawn here on a canvas, only what is
// in view. Marks select their records; a record selected elsewhere is ringed and brought into view.
// Everything the canvas says is also said in text: the deadline problems above it, the mark under
// the pointer or the keyboard in words (announced), and a list view of every mark.
import { useQuery } from '@tanstack/react-query';
import { memo, startTransition, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { MARK, rows, type TimelinePack } from '../../wire/timeline-pack';
import { displayText } from '../format';
import { usePrefersDark } from '../hooks/use-prefers-dark';
import { queryKeys } from '../query-keys';
import { inspectorClient } from '../worker-client';
import { laneTops } from './layout';
import { describeMark, MarkList, problemsOf } from './parts';
import { LaneColumn, TimelineSummary } from './summary';
import { useTimelineKeys } from './use-timeline-keys';
import { useTimelinePainter } from './use-timeline-painter';
import { useTimelinePointer } from './use-timeline-pointer';
import { useViewport, useViewportMoves } from './use-timeline-viewport';

interface Props {
  version: number;
  selected: number | null;
  onSelect: (key: number) => void;
}

export default function TimelineView({ version, selected, onSelect }: Props) {
  const query = useQuery({ queryKey: queryKeys.timeline(version), queryFn: () => inspectorClient().call('timeline', {}), structuralSharing: false });
  // Drawn as a transition (in slices), not in the synchronous update a query's result makes.
  const pack = useDeferredValue(query.data);
  if (query.isError) return <p className="p-4 text-sm text-red-600">The timeline could not be built: {query.error.message}</p>;
  if (!pack) return <p className="p-4 text-sm text-slate-600 dark:text-slate-400">Building the timeline…</p>;
  return <Timeline key={version} pack={pack} selected={selected} onSelect={onSelect} />;
}

const Timeline = memo(function Timeline({
  pack,
  selected,
  onSelect: select0,
}: {
  pack: TimelinePack;
  selected: number | null;
  onSelect: (key: number) => void;
}) {
  // Selecting re-renders the list and the detail: as a transition, in slices that leave the
  // canvas's frames (and the pointer) free.
  const onSelect = useCallback((record: number) => startTransition(() => select0(record)), [select0]);
  const count = rows(pack.marks, MARK.STRIDE);
  // Record → mark (the marks are by time).
  const markOf = useMemo(() => {
    let max = -1;
    for (let i = 0; i < count; i++) max = Math.max(max, pack.marks[i * MARK.STRIDE + MARK.RECORD]);
    const out = new Int32Array(max + 1).fill(-1);
    for (let i = 0; i < count; i++) out[pack.marks[i * MARK.STRIDE + MARK.RECORD]] = i;
    return out;
  }, [pack, count]);
  const labelOf = useCallback(
    (record: number) => (record < markOf.length && markOf[record] >= 0 ? pack.labels[markOf[record]] : `record ${record}`),
    [pack, markOf],
  );
  const problems = useMemo(() => problemsOf(pack, labelOf), [pack, labelOf]);
  // What a mark is, in words (the tooltip, the announcement and the list view).
  const describe = useCallback((i: number) => describeMark(pack, i), [pack]);
  const dark = usePrefersDark();
  const [links, setLinks] = useState(false);
  const [list, setList] = useState(false);
  const [focused, setFocused] = useState(-1);
  const tops = useMemo(() => laneTops(pack.laneTracks), [pack]);
  const selectedMark = selected !== null && selected < markOf.length ? markOf[selected] : -1;

  const box = useRef<HTMLDivElement>(null);
  const lanesCol = useRef<HTMLDivElement>(null);
  const viewport = useViewport(pack, tops);
  const { canvas, ring, range, schedule } = useTimelinePainter(pack, viewport, { selected: selectedMark, focused, links, dark });
  const moves = useViewportMoves(pack, tops, viewport, schedule, { box, canvas, lanesCol, list });
  const { laneWindow, setScroll, reveal } = moves;

  // A record selected elsewhere: its mark is ringed, brought into view, and the keyboard goes on from it.
  useEffect(() => {
    if (selectedMark < 0) return;
    setFocused(selectedMark);
    reveal(selectedMark);
  }, [selectedMark, reveal]);

  const pointer = useTimelinePointer({ pack, viewport, box, list, schedule, setScroll, describe, setFocused, onSelect });
  const tip = pointer.tip;
  const onKeyDown = useTimelineKeys({ pack, count, viewport, moves, schedule, focused, setFocused, onSelect });

  const select = (record: number) => {
    onSelect(record);
    const i = record < markOf.length ? markOf[record] : -1;
    if (i >= 0) {
      setFocused(i);
      reveal(i);
    }
  };
  const selectedWords = selectedMark >= 0 ? describe(selectedMark) : null;

  return (
    <section aria-label="Timeline" className="flex h-full flex-col text-[11px]">
      <TimelineSummary
        pack={pack}
        count={count}
        problems={problems}
        links={links}
        onLinks={() => setLinks((x) => !x)}
        list={list}
        onList={() => setList((x) => !x)}
        onSelect={select}
        range={range}
      />
      {list ? (
        <MarkList pack={pack} selected={selectedMark} describe={describe} onSelect={select} />
      ) : (
        <div className="flex min-h-[50%] flex-1" data-testid="timeline-chart">
          <LaneColumn pack={pack} tops={tops} laneWindow={laneWindow} column={lanesCol} onScroll={setScroll} />
          <div
            ref={box}
            // A widget of its own: it takes the keys (zoom, pan, marks) while it has focus.
            role="application"
            aria-label="Timeline canvas"
            aria-describedby="timeline-keys"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: the canvas is a widget that takes keys (above)
            tabIndex={0}
            onKeyDown={onKeyDown}
            {...pointer.handlers}
            className="relative min-h-0 min-w-0 flex-1 cursor-crosshair touch-none overflow-hidden outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-teal-500"
            data-testid="timeline-canvas"
          >
            <canvas ref={canvas} className="absolute top-0 left-0" />
            <div ref={ring} data-testid="timeline-focus" aria-hidden="true" className="pointer-events-none absolute top-0 left-0 hidden h-6 w-6" />
            {tip && (
              <div
                role="tooltip"
                className="pointer-events-none absolute z-10 max-w-md rounded border border-slate-300 bg-white px-2 py-1 text-[11px] shadow dark:border-slate-600 dark:bg-slate-900"
                style={{ left: Math.min(tip.x + 12, Math.max(0, viewport.size.current.width - 300)), top: tip.y + 14 }}
              >
                <bdi>{displayText(tip.text)}</bdi>
              </div>
            )}
          </div>
        </div>
      )}
      <p className="truncate border-t border-slate-200 px-3 py-0.5 dark:border-slate-800" data-testid="timeline-selected">
        {selectedWords ? (
          <>
            Selected: <bdi>{displayText(selectedWords)}</bdi>
          </>
        ) : selected !== null ? (
          'The selected record is not on the timeline (it has no time, or it is not an AGDX record).'
        ) : (
          'Click a mark to select its record.'
        )}
      </p>
      <p className="sr-only" aria-live="polite">
        {focused >= 0 && focused < count ? displayText(describe(focused)) : ''}
      </p>
    </section>
  );
});
