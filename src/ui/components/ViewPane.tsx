import { Suspense } from 'react';
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
  return (
    <div className="flex min-h-0 flex-col">
      <div role="tablist" aria-label="View" className="flex gap-1 border-b border-slate-200 px-3 pt-2 dark:border-slate-800">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            aria-selected={tab === t.id}
            onClick={() => onTab(t.id)}
            className={`rounded-t px-3 py-1.5 text-sm ${tab === t.id ? 'border border-b-0 border-slate-200 bg-white font-medium dark:border-slate-800 dark:bg-slate-950' : 'text-slate-500 hover:text-slate-900 dark:hover:text-slate-100'}`}
          >
            {t.label}
          </button>
        ))}
      </div>
      {content && (
        <div role="tabpanel" aria-label={spec.label} className="h-[58%] min-h-64 border-b border-slate-200 dark:border-slate-800">
          {spec.lazy ? (
            <Suspense fallback={<p className="p-4 text-sm text-slate-500">Loading the {spec.label.toLowerCase()} view…</p>}>{content}</Suspense>
          ) : (
            content
          )}
        </div>
      )}
      <div className="min-h-0 flex-1 overflow-auto [contain:strict]">
        {panel.selected !== null ? (
          <DetailPanel recordKey={panel.selected} />
        ) : (
          <p className="p-6 text-sm text-slate-500">Select a record to see its fields, bytes and findings.</p>
        )}
      </div>
    </div>
  );
}
