import { type KeyboardEvent, Suspense } from 'react';
import { TABS, tabSpec, type TabId, type TabPanelProps } from '../tabs';
import { DetailPanel } from './DetailPanel';

interface Props extends TabPanelProps {
  tab: TabId;
  onTab: (tab: TabId) => void;
}

/** The right-hand pane: the tab bar and the open tab's panel (both from the tab registry), above the selected record's detail. */
export function ViewPane({ tab, onTab, ...panel }: Props) {
  const spec = tabSpec(tab);
  const content = spec.panel?.(panel);
  // Left and right move to the previous and next tab (wrapping), Home and End to the first and last; the tab opens as focus moves.
  const onTabKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const at = TABS.findIndex((t) => t.id === tab);
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: TABS.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const next = TABS[(to + TABS.length) % TABS.length].id;
    onTab(next);
    document.getElementById(`tab-${next}`)?.focus();
  };
  return (
    <div className="flex min-h-0 flex-col">
      <div role="tablist" aria-label="View" onKeyDown={onTabKey} className="flex gap-1 border-b border-slate-200 px-3 pt-2 dark:border-slate-800">
        {TABS.map((t) => (
          <button
            key={t.id}
            id={`tab-${t.id}`}
            type="button"
            role="tab"
            aria-selected={tab === t.id}
            aria-controls={tab === t.id && content ? 'tab-panel' : undefined}
            // One stop in the Tab order, on the open tab; the arrow keys move between tabs (the ARIA tabs pattern).
            tabIndex={tab === t.id ? 0 : -1}
            onClick={() => onTab(t.id)}
            className={`rounded-t px-3 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-teal-600 ${tab === t.id ? 'border border-b-0 border-slate-200 bg-white font-medium dark:border-slate-800 dark:bg-slate-950' : 'text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-slate-100'}`}
          >
            {t.label}
          </button>
        ))}
      </div>
      {content && (
        <div role="tabpanel" id="tab-panel" aria-labelledby={`tab-${tab}`} className="h-[58%] min-h-64 border-b border-slate-200 dark:border-slate-800">
          {spec.lazy ? (
            <Suspense fallback={<p className="p-4 text-sm text-slate-600 dark:text-slate-400">Loading the {spec.label.toLowerCase()} view…</p>}>{content}</Suspense>
          ) : (
            content
          )}
        </div>
      )}
      <div className="min-h-0 flex-1 overflow-auto [contain:strict]">
        {panel.selected !== null ? (
          <DetailPanel recordKey={panel.selected} />
        ) : (
          <p className="p-6 text-sm text-slate-600 dark:text-slate-400">Select a record to see its fields, bytes and findings.</p>
        )}
      </div>
    </div>
  );
}
