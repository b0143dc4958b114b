import { Suspense, useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { splitAfterKey, useSplit } from '../hooks/use-split';
import { shownTabs, tabSpec, type LoadedKinds, type TabId, type TabPanelProps } from '../tabs';
import { DetailPanel } from './DetailPanel';

interface Props extends TabPanelProps {
  tab: TabId;
  onTab: (tab: TabId) => void;
  loaded: LoadedKinds;
}

/**
 * The right-hand pane: the tab bar and the open tab's panel (both from the tab registry), above the
 * selected record's detail, with a separator between the two that a pointer drags and the arrow keys move.
 */
export function ViewPane({ tab, onTab, loaded, ...panel }: Props) {
  const spec = tabSpec(tab);
  const tabs = shownTabs(loaded, tab);
  const content = spec.panel?.(panel);
  const [share, setShare] = useSplit();
  const area = useRef<HTMLDivElement>(null);
  const dragging = useRef(false);

  // The panel's share of the area below the tab bar, where the pointer is (layout reads only while dragging).
  const shareAt = (clientY: number) => {
    const r = area.current?.getBoundingClientRect();
    return r && r.height > 0 ? (clientY - r.top) / r.height : share;
  };
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    dragging.current = true;
    e.currentTarget.setPointerCapture(e.pointerId);
    e.preventDefault();
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (dragging.current) setShare(shareAt(e.clientY));
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    dragging.current = false;
    e.currentTarget.releasePointerCapture(e.pointerId);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const next = splitAfterKey(share, e.key);
    if (next === null) return;
    e.preventDefault();
    setShare(next);
  };
  // Left and right move to the previous and next tab (wrapping), Home and End to the first and last; the tab opens as focus moves.
  const onTabKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const at = tabs.findIndex((t) => t.id === tab);
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const next = tabs[(to + tabs.length) % tabs.length].id as TabId;
    onTab(next);
    document.getElementById(`tab-${next}`)?.focus();
  };

  return (
    // On a narrow screen the page scrolls and this pane is nearly a screen tall, so a tab's panel (the
    // graph) gets a usable height; side by side, it fills the row.
    <div className="flex h-[calc(100dvh-3rem)] min-h-0 flex-col md:h-auto">
      {/* On a phone the six tabs fit the width (tighter, a little smaller); should they not, the bar scrolls sideways. */}
      <div
        role="tablist"
        aria-label="View"
        onKeyDown={onTabKey}
        className="flex gap-0.5 overflow-x-auto border-b border-slate-200 px-2 pt-2 sm:gap-1 sm:px-3 dark:border-slate-800"
      >
        {tabs.map((t) => (
          <button
            key={t.id}
            id={`tab-${t.id}`}
            type="button"
            role="tab"
            aria-selected={tab === t.id}
            aria-controls={tab === t.id && content ? 'tab-panel' : undefined}
            // One stop in the Tab order, on the open tab; the arrow keys move between tabs (the ARIA tabs pattern).
            tabIndex={tab === t.id ? 0 : -1}
            onClick={() => onTab(t.id as TabId)}
            className={`shrink-0 rounded-t px-1.5 py-1.5 text-[13px] sm:px-3 sm:text-sm focus-visible:outline-2 focus-visible:outline-teal-600 ${tab === t.id ? 'border border-b-0 border-slate-200 bg-white font-medium dark:border-slate-800 dark:bg-slate-950' : 'text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-slate-100'}`}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div ref={area} className="flex min-h-0 flex-1 flex-col">
        {content && (
          <>
            {/* A full tab (the comparison) takes the whole pane: no separator, no record detail below. */}
            <div
              role="tabpanel"
              id="tab-panel"
              aria-labelledby={`tab-${tab}`}
              className={spec.full ? 'min-h-0 flex-1' : 'min-h-40'}
              style={spec.full ? undefined : { height: `${Math.round(share * 1000) / 10}%` }}
            >
              {spec.lazy ? (
                <Suspense fallback={<p className="p-4 text-sm text-slate-600 dark:text-slate-400">Loading the {spec.label.toLowerCase()} view…</p>}>
                  {content}
                </Suspense>
              ) : (
                content
              )}
            </div>
          </>
        )}
        {content && !spec.full && (
          <>
            {/* biome-ignore lint/a11y/useSemanticElements: a focusable, movable separator (the ARIA window splitter), not an <hr> */}
            <div
              role="separator"
              tabIndex={0}
              aria-orientation="horizontal"
              aria-label={`Resize: ${spec.label.toLowerCase()} above, record detail below (arrow keys)`}
              aria-valuemin={25}
              aria-valuemax={85}
              aria-valuenow={Math.round(share * 100)}
              aria-valuetext={`${spec.label} ${Math.round(share * 100)}% of the pane`}
              onPointerDown={onPointerDown}
              onPointerMove={onPointerMove}
              onPointerUp={onPointerUp}
              onPointerCancel={onPointerUp}
              onKeyDown={onKeyDown}
              className="group flex h-2.5 shrink-0 cursor-row-resize touch-none items-center justify-center border-y border-slate-200 bg-slate-100 outline-none hover:bg-slate-200 focus-visible:bg-teal-100 focus-visible:ring-2 focus-visible:ring-teal-500 dark:border-slate-800 dark:bg-slate-900 dark:hover:bg-slate-800"
            >
              <span aria-hidden="true" className="h-0.5 w-10 rounded bg-slate-400 group-hover:bg-slate-600" />
            </div>
          </>
        )}
        {!(content && spec.full) && (
          <div className="min-h-0 flex-1 overflow-auto [contain:strict]">
            {panel.selected !== null ? (
              <DetailPanel recordKey={panel.selected} onSelect={panel.onSelect} />
            ) : (
              <p className="p-6 text-sm text-slate-600 dark:text-slate-400">Select a record to see its fields, bytes and findings.</p>
            )}
          </div>
        )}
      </div>
    </div>
  );
}
