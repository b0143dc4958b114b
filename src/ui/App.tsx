// The page: the session's state (store/page.ts, through usePageStore) and the hooks that feed it,
// composed with the panels. The hooks run in this order on purpose: the key registry goes to the
// worker (useKeys) before the first load or link (useIntake) asks it for anything.
import { useCallback, useMemo, useState } from 'react';
import type { RegistryChange } from '../core/keys/registry';
import { registryNames } from '../core/verdict';
import { type ListOrder, LOG_ORDER, type RecordFilter, type SharedView } from '../wire/protocol';
import { FontWarmup } from './components/FontWarmup';
import { ProgressBar } from './components/LoadControls';
import { KeyRegistry } from './components/KeyRegistry';
import { PasteDialog } from './components/PasteDialog';
import { RecordsPane, unreadableKeys } from './list/RecordsPane';
import { SamplesNote } from './components/SamplesNote';
import { CompareContext } from './compare-context';
import { ComparePicker, PickBanner } from './compare/ComparePicker';
import { exportBundle, exportReport } from './exports';
import { comparedWords } from './compare/compare-view';
import { useCompare } from './compare/use-compare';
import { SharePanel } from './components/SharePanel';
import { SharedViewBanner } from './components/SharedViewBanner';
import { StoppedInputs } from './components/StoppedInputs';
import { Toolbar } from './components/Toolbar';
import { ViewPane } from './components/ViewPane';
import { useIntake } from './hooks/use-intake';
import { useKeys } from './hooks/use-keys';
import { useLoads } from './hooks/use-loads';
import { usePageStore } from './hooks/use-page-store';
import { useRecordFilter } from './hooks/use-record-filter';
import { recordWords, useShownSelection } from './hooks/use-shown-selection';
import { useViewHistory } from './hooks/use-view-history';
import { RegistryContext } from './registry-context';
import { filterToLink, sameFilter } from './shared-view';
import { filterActive, sameOrder } from './store/page';
import { DEFAULT_TAB, tabOf, tabSpec } from './tabs';

type DialogName = 'paste' | 'share' | 'keys';

export function App() {
  const { state, dispatch, summaries } = usePageStore();
  const view = useViewHistory(dispatch);
  const keys = useKeys(state.keys, dispatch);
  useRecordFilter(state.filter, state.order, { load: state.loadVersion, records: state.recordsVersion }, dispatch);
  useShownSelection(state, summaries, view, dispatch);
  const loads = useLoads(state.recordsVersion, dispatch, view, keys);
  const intake = useIntake(loads);
  const compare = useCompare(state, dispatch, view, summaries);
  const [dialog, setDialog] = useState<DialogName | null>(null);
  const close = () => setDialog(null);
  const setFilter = useCallback((f: RecordFilter) => dispatch({ type: 'filter', filter: f }), [dispatch]);
  const setOrder = useCallback((order: ListOrder) => dispatch({ type: 'order', order }), [dispatch]);
  const setViewport = useCallback((v: SharedView['viewport']) => dispatch({ type: 'viewport', viewport: v }), [dispatch]);

  const { inputs, filter, visible, shared, viewport } = state;
  const { selected, tab } = state.view;
  // One object per view, not per render: the share panel rebuilds the link (in the worker, over
  // every input) whenever this changes, and App renders on every batch and status line.
  const pendingKeyChanges = state.pendingKeyChanges;
  const registry = useMemo(
    () => ({
      keys: state.keys,
      name: registryNames(state.keys),
      change: keys.change,
      addPending: (changes: RegistryChange[]) =>
        dispatch({ type: 'key-changes-pending', changes: [...pendingKeyChanges.filter((p) => !changes.some((c) => c.entry === p.entry)), ...changes] }),
    }),
    [state.keys, keys.change, dispatch, pendingKeyChanges],
  );
  const shareView = useMemo(
    () => ({ selectedKey: selected, tab, viewport, filters: filterToLink(filter), compare: state.compare }),
    [selected, tab, viewport, filter, state.compare],
  );
  // What a link can carry besides everything: the selected record (and the one compared with it), the filtered records.
  const shareParts = {
    selected:
      selected === null
        ? null
        : `${recordWords(selected, summaries, (n) => inputs.find((i) => i.input === n)?.name ?? '')}${state.compare ? ', and the record compared with it' : ''}`,
    filtered: filterActive(filter) && visible && sameFilter(visible.filter, filter) ? visible.keys.length : null,
    all: summaries.length - unreadableKeys(inputs, summaries).length,
  };
  // The record the link selected, by what it was in the link: its input's name and its index.
  const sharedKey = shared?.view.selectedKey ?? null;
  const sharedRecord = sharedKey !== null ? summaries.get(sharedKey) : undefined;
  const sharedSelection = sharedRecord ? { index: sharedRecord.index, inputName: inputs.find((i) => i.input === sharedRecord.input)?.name ?? '' } : null;
  const linkTab = shared ? tabOf(shared.view.tab) : null;

  const page = (
    <div className="flex h-full flex-col">
      <FontWarmup />
      <Toolbar
        intake={intake}
        keyCount={state.keys.length}
        loaded={inputs.length > 0}
        status={state.status}
        onPaste={() => setDialog('paste')}
        onKeys={() => setDialog('keys')}
        onShare={() => setDialog('share')}
        onExport={(what) => (what === 'bundle' ? void exportBundle(shareView) : void exportReport(what))}
        onClear={() => {
          intake.dismissSamplesNote();
          void loads.clear();
        }}
      />
      {intake.firstVisitSamples && inputs.length > 0 && (
        <SamplesNote
          records={summaries.length - unreadableKeys(inputs, summaries).length}
          onFiles={intake.files}
          onClear={() => {
            intake.dismissSamplesNote();
            void loads.clear();
          }}
          onDismiss={intake.dismissSamplesNote}
        />
      )}
      {shared && (
        <SharedViewBanner
          view={shared.view}
          linkFilter={shared.filter}
          filter={filter}
          shown={visible && sameFilter(visible.filter, shared.filter) ? visible.keys.length : null}
          total={summaries.length}
          selected={sharedSelection}
          tab={{ name: tabSpec(linkTab ?? DEFAULT_TAB).label, asked: linkTab ? null : shared.view.tab }}
          registryEntries={state.keys.length}
          onShowAll={() => setFilter({})}
          compared={shared.view.compare ? comparedWords(shared.view.compare, summaries, inputs) : null}
        />
      )}
      {state.comparePicking !== null && <PickBanner anchor={state.comparePicking} onCancel={compare.api.cancelPicking} />}
      {state.progress && <ProgressBar progress={state.progress} onCancel={loads.cancel} />}
      {state.problem && (
        <p role="alert" className="border-b border-red-300 bg-red-50 px-4 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
          {state.problem}
        </p>
      )}
      <StoppedInputs
        stopped={state.stopped}
        onRetry={(s) => {
          dispatch({ type: 'stopped-done', input: s });
          intake.retry(s.input);
        }}
        onDismiss={(s) => dispatch({ type: 'stopped-done', input: s })}
      />
      {/* Narrow: the list above the view, the page scrolling between them; wide: side by side. */}
      <main className="grid min-h-0 flex-1 grid-cols-1 overflow-y-auto md:grid-cols-[minmax(18rem,26rem)_1fr] md:overflow-hidden xl:grid-cols-[minmax(20rem,33rem)_1fr]">
        <RecordsPane
          inputs={inputs}
          summaries={summaries}
          version={state.recordsVersion}
          filter={filter}
          onFilter={setFilter}
          order={state.order}
          onOrder={setOrder}
          visible={visible?.keys ?? null}
          sorted={visible !== null && !sameOrder(visible.order, LOG_ORDER)}
          notice={state.listNotice}
          loadVersion={state.loadVersion}
          ruleMatch={visible && sameFilter(visible.filter, filter) ? visible.rules : undefined}
          selected={selected}
          onSelect={compare.onListSelect}
          loading={state.progress !== null}
        />
        <ViewPane
          tab={tab}
          onTab={view.setTab}
          version={state.loadVersion}
          selected={selected}
          onSelect={view.select}
          onOpen={(key) => view.show({ selected: key, tab: DEFAULT_TAB }, 'push')}
          viewport={viewport}
          onViewport={setViewport}
          loaded={{ dialects: summaries.dialects() }}
          conversation={filter.conversation ?? null}
          onConversation={(id) => setFilter({ ...filter, conversation: id ?? undefined })}
        />
      </main>
      <PasteDialog
        open={dialog === 'paste'}
        onClose={close}
        onSubmit={(text) => {
          close();
          intake.text(text);
        }}
      />
      {dialog === 'share' && <SharePanel view={shareView} version={state.loadVersion} parts={shareParts} onClose={close} />}
      {compare.pickerFor !== null && <ComparePicker anchor={compare.pickerFor} version={state.loadVersion} onClose={compare.closePicker} />}
      {dialog === 'keys' && (
        <KeyRegistry
          keys={state.keys}
          onChange={keys.change}
          pending={state.pendingKeyChanges}
          onPending={(changes) => dispatch({ type: 'key-changes-pending', changes })}
          onClose={close}
        />
      )}
      {intake.dragging && (
        <div className="pointer-events-none fixed inset-0 z-50 flex items-center justify-center bg-teal-700/20 text-lg font-semibold text-teal-900 ring-4 ring-inset ring-teal-600 dark:text-teal-100">
          Drop to inspect
        </div>
      )}
    </div>
  );
  // The comparison's state and controls, for the record detail, the Compare tab and the pick mode.
  return (
    <RegistryContext value={registry}>
      <CompareContext value={compare.api}>{page}</CompareContext>
    </RegistryContext>
  );
}
