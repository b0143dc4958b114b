// The page's session state as one value changed only by typed actions, through a pure reducer, so
// it can be tested without React or a DOM. React holds the value (useReducer in usePageStore), not
// an external store read with useSyncExternalStore: such a store renders every change at once, and
// a load's batches must render as transitions, in slices (docs/architecture.md, "What keeps the page responsive").
//
// The record summaries stay in the SummaryStore (one packed array, no per-record objects): an
// action that brings a pack is written there once, before the reducer runs (`applySummaries`),
// since React may run a reducer twice; the state keeps `recordsVersion`, which tells React it changed.
import type { RegistryEntry } from '../../core/keys/keys';
import type { RegistryChange } from '../../core/keys/registry';
import {
  type ComparedPair,
  type InputSummary,
  LOG_ORDER,
  type ListOrder,
  type Loaded,
  type LoadProgress,
  type RecordFilter,
  type SharedView,
} from '../../wire/protocol';
import { SLOT, type SummaryPack } from '../../wire/summary-pack';
import { displayText, groupDigits } from '../format';
import { filterFromLink } from '../shared-view';
import type { SummaryStore } from '../summary-store';
import { DEFAULT_TAB, tabOf, type TabId } from '../tabs';
import type { StoppedInput } from '../worker-client';
import { plural } from '../../core/plural';

/** What the right-hand pane shows: a history entry each (back and forward move between them). */
export interface PageView {
  selected: number | null;
  tab: TabId;
}

export interface PageState {
  /** Every input loaded, in order. */
  inputs: InputSummary[];
  /** Moves whenever the summary store changes (React cannot see into it). */
  recordsVersion: number;
  /** Moves when a load, a link's opening or a restart ends: the graph, folds and share link are per load. */
  loadVersion: number;
  view: PageView;
  viewport: SharedView['viewport'];
  /** The list's filter; the worker works out which records match. */
  filter: RecordFilter;
  /** The list's order (log order, or by a column); the worker sorts. */
  order: ListOrder;
  /**
   * The keys the worker found for a filter and an order, in that order, what they answer (they arrive
   * a moment after a change) and the rule ids the filter's `rule` matched (null without one); null
   * with no filter in log order (every record, as loaded).
   */
  visible: { keys: Int32Array; filter: RecordFilter; order: ListOrder; rules: string[] | null } | null;
  /** What the list says after a filter hid the selected record and the first record it kept was selected instead. */
  listNotice: string | null;
  /** The running load's records and bytes, or null. */
  progress: LoadProgress | null;
  /** The status line. */
  status: string;
  /** The alert line: what went wrong, or null. */
  problem: string | null;
  /** The view the last opened link or bundle preset, and its filter (the banner says what it set). */
  shared: { view: SharedView; filter: RecordFilter } | null;
  /** Inputs the worker crashed or hung on: not read again unless the person retries them. */
  stopped: StoppedInput[];
  /** The key registry (stored in this browser: keys-store.ts). */
  keys: RegistryEntry[];
  /** Changes to registry entries that would widen trust, waiting for Accept or Reject. */
  pendingKeyChanges: RegistryChange[];
  /** The two records compared (and whether they, their conversations or their inputs are), or null. */
  compare: ComparedPair | null;
  /** "Pick in the list": the record B is being picked for (the list's next choice is B), or null. */
  comparePicking: number | null;
}

export type PageAction =
  /** The view to show (the history hook has made or replaced its history entry). */
  | { type: 'view'; view: PageView }
  | { type: 'viewport'; viewport: SharedView['viewport'] }
  | { type: 'filter'; filter: RecordFilter }
  | { type: 'order'; order: ListOrder }
  /** The worker's answer to `filter` and `order`. */
  | { type: 'visible'; keys: Int32Array; filter: RecordFilter; order: ListOrder; rules: string[] | null }
  | { type: 'list-notice'; notice: string | null }
  /** A load was asked for: its inputs are being gathered. */
  | { type: 'load-asked' }
  | { type: 'load-started'; inputs: number; bytes: number }
  | { type: 'load-batch'; inputs: InputSummary[]; records: SummaryPack; progress: LoadProgress }
  /**
   * `records` and `inputs`: how many the load read in all (batches and reply); `unreadable`: the
   * inputs among them nothing could be read from (each is one record of format unknown, not counted as a record).
   */
  | { type: 'load-ended'; result: Loaded; records: number; inputs: number; unreadable: InputSummary[] }
  | { type: 'load-failed'; message: string }
  | { type: 'link-opening' }
  /** A link or bundle opened in place of what was loaded (its view comes apart: `shared-view`). */
  | { type: 'link-opened'; result: Loaded }
  /** The view a link or bundle carried: its viewport, filter and banner (its selection and tab go through `view`). */
  | { type: 'shared-view'; view: SharedView }
  /** The watchdog stopped the worker; a new one read the other inputs again. */
  | { type: 'restarted'; reason: string; stopped: StoppedInput[]; replayed: Loaded }
  | { type: 'cleared' }
  /** A stopped input was retried or dismissed: no longer listed. */
  | { type: 'stopped-done'; input: StoppedInput }
  | { type: 'keys'; keys: RegistryEntry[] }
  | { type: 'key-changes-pending'; changes: RegistryChange[] }
  /** The summaries whose verdict a key change moved. */
  | { type: 'verdicts'; records: SummaryPack }
  /** Compares two records (or their conversations or inputs), or stops comparing; picking in the list ends. */
  | { type: 'compare'; compare: ComparedPair | null }
  /** Starts (with record A) or stops picking record B in the list. */
  | { type: 'compare-picking'; anchor: number | null };

export function initialPageState(keys: RegistryEntry[]): PageState {
  return {
    inputs: [],
    recordsVersion: 0,
    loadVersion: 0,
    view: { selected: null, tab: DEFAULT_TAB },
    viewport: null,
    filter: {},
    order: LOG_ORDER,
    visible: null,
    listNotice: null,
    progress: null,
    status: '',
    problem: null,
    shared: null,
    stopped: [],
    keys,
    pendingKeyChanges: [],
    compare: null,
    comparePicking: null,
  };
}

/** The first record of a pack, if any: a load selects it when it ends, so the detail shows something. */
export const firstKey = (pack: SummaryPack): number | null => (pack.count ? pack.cols[SLOT.KEY] : null);

/** A filter with any field set. */
export const filterActive = (f: RecordFilter): boolean => Object.values(f).some((v) => v);

export const sameOrder = (a: ListOrder, b: ListOrder): boolean => a.by === b.by && a.descending === b.descending;

/** Whether the list shows anything but every record in log order: then the worker says which keys, in which order. */
export const listQueryActive = (filter: RecordFilter, order: ListOrder): boolean => filterActive(filter) || !sameOrder(order, LOG_ORDER);

/** New inputs are appended; inputs the worker re-judged are replaced. */
export function mergeInputs(prev: InputSummary[], incoming: InputSummary[]): InputSummary[] {
  const next = prev.slice();
  for (const i of incoming) {
    const at = next.findIndex((x) => x.input === i.input);
    if (at >= 0) next[at] = i;
    else next.push(i);
  }
  return next;
}

/**
 * The status line after a load: its records, its inputs, and the inputs nothing could be read from
 * (a PNG, an empty file), which are counted as unreadable inputs, not as records.
 */
export function loadedStatus(records: number, inputs: number, unreadable: number, cancelled: boolean): string {
  const kept = Math.max(0, records - unreadable);
  const read = `${cancelled ? 'Cancelled: kept' : 'Loaded'} ${groupDigits(kept)} ${kept === 1 ? 'record' : 'records'} from ${plural(inputs, 'input')}`;
  return unreadable ? `${read} (${unreadable === inputs && inputs > 0 ? (inputs === 1 ? 'it is' : 'all are') : unreadable} unreadable).` : `${read}.`;
}

/** Inputs the alert line names one by one; the rest are counted. */
const UNREADABLE_NAMED = 3;

/** What the alert line says of the inputs nothing could be read from: their names, why, and where. */
export function unreadableWords(inputs: readonly InputSummary[]): string[] {
  const words = inputs.slice(0, UNREADABLE_NAMED).map((i) => {
    const e = i.error;
    return e ? `${i.name} could not be read: ${e.message} (${e.code}${e.offset ? `, byte ${e.offset}` : ''})` : `${i.name} could not be read`;
  });
  if (inputs.length > UNREADABLE_NAMED) words.push(`and ${inputs.length - UNREADABLE_NAMED} more inputs could not be read (see their headers in the list)`);
  return words;
}

/**
 * The summary store's part of an action: the pack it brings written at its keys (or the store
 * emptied first, when the action replaces what was loaded). Runs once per action, before the reducer.
 */
export function applySummaries(summaries: SummaryStore, action: PageAction): void {
  switch (action.type) {
    case 'load-batch':
    case 'verdicts':
      summaries.apply(action.records);
      return;
    case 'load-ended':
      summaries.apply(action.result.records);
      summaries.trim();
      return;
    case 'link-opened':
      summaries.clear();
      summaries.apply(action.result.records);
      summaries.trim();
      return;
    case 'restarted':
      summaries.clear();
      summaries.apply(action.replayed.records);
      summaries.trim();
      return;
    case 'cleared':
      summaries.clear();
      return;
  }
}

export function reducePage(state: PageState, action: PageAction): PageState {
  switch (action.type) {
    case 'view':
      return state.view.selected === action.view.selected && state.view.tab === action.view.tab ? state : { ...state, view: action.view };
    case 'viewport':
      return { ...state, viewport: action.viewport };
    case 'filter':
      return { ...state, filter: action.filter, visible: listQueryActive(action.filter, state.order) ? state.visible : null, listNotice: null };
    case 'order':
      return { ...state, order: action.order, visible: listQueryActive(state.filter, action.order) ? state.visible : null };
    case 'visible':
      return { ...state, visible: { keys: action.keys, filter: action.filter, order: action.order, rules: action.rules } };
    case 'list-notice':
      return { ...state, listNotice: action.notice };
    case 'load-asked':
      return { ...state, problem: null };
    case 'load-started':
      return { ...state, status: `Reading ${plural(action.inputs, 'input')}…`, progress: { records: 0, bytesDone: 0, bytesTotal: action.bytes } };
    case 'load-batch':
      return {
        ...state,
        inputs: mergeInputs(state.inputs, action.inputs),
        recordsVersion: action.records.count ? state.recordsVersion + 1 : state.recordsVersion,
        progress: action.progress,
      };
    case 'load-ended': {
      const r = action.result;
      // Every load error is said in the alert line (a live region), the inputs nothing could be read from too.
      const problems = [...r.problems, ...unreadableWords(action.unreadable)];
      return {
        ...state,
        progress: null,
        inputs: mergeInputs(state.inputs, r.inputs),
        recordsVersion: state.recordsVersion + 1,
        loadVersion: state.loadVersion + 1,
        problem: problems.length ? displayText(problems.join('; ')) : state.problem,
        status: loadedStatus(action.records, action.inputs, action.unreadable.length, r.cancelled),
      };
    }
    case 'load-failed':
      return { ...state, problem: action.message, status: '', progress: null };
    case 'link-opening':
      return { ...state, status: 'Opening the shared view…' };
    case 'link-opened': {
      const r = action.result;
      const entries = state.keys.length;
      return {
        ...state,
        inputs: r.inputs,
        recordsVersion: state.recordsVersion + 1,
        loadVersion: state.loadVersion + 1,
        compare: null,
        comparePicking: null,
        status: `Opened a shared view: ${r.records.count} records from ${r.inputs.length} inputs. A link brings no keys: ${entries ? `signatures are trusted only as your registry (${entries} entries) backs them` : 'your registry is empty, so no signature is trusted'}.`,
      };
    }
    case 'shared-view': {
      const filter = filterFromLink(action.view.filters);
      return {
        ...state,
        viewport: action.view.viewport,
        filter,
        visible: listQueryActive(filter, state.order) ? state.visible : null,
        shared: { view: action.view, filter },
        compare: action.view.compare ?? null,
        comparePicking: null,
      };
    }
    case 'restarted': {
      const { stopped, replayed } = action;
      const notRead = stopped.length
        ? ` ${stopped.map((x) => displayText(x.input.name)).join(', ')} ${stopped.length === 1 ? 'was' : 'were'} not read again (see Retry).`
        : '';
      return {
        ...state,
        stopped: [...state.stopped, ...stopped],
        inputs: replayed.inputs,
        recordsVersion: state.recordsVersion + 1,
        loadVersion: state.loadVersion + 1,
        progress: null,
        // Keys may have moved (an input not read again): what was compared is not kept.
        compare: null,
        comparePicking: null,
        problem: `${action.reason}: it was stopped and restarted. The other inputs were read again (${replayed.records.count} records); the app goes on.${notRead}`,
        status: '',
      };
    }
    case 'cleared':
      return {
        ...state,
        inputs: [],
        stopped: [],
        recordsVersion: state.recordsVersion + 1,
        shared: null,
        compare: null,
        comparePicking: null,
        status: 'Cleared.',
      };
    case 'stopped-done':
      return { ...state, stopped: state.stopped.filter((x) => x !== action.input) };
    case 'keys':
      return { ...state, keys: action.keys };
    case 'key-changes-pending':
      return { ...state, pendingKeyChanges: action.changes };
    case 'verdicts':
      return action.records.count ? { ...state, recordsVersion: state.recordsVersion + 1 } : state;
    case 'compare':
      return { ...state, compare: action.compare, comparePicking: null };
    case 'compare-picking':
      return { ...state, comparePicking: action.anchor };
  }
}

/**
 * The view after a change to `current` (fields left out stay), or null when a new history entry
 * would show what is already shown.
 */
export function nextView(current: PageView, change: Partial<PageView>, mode: 'push' | 'replace' | 'none'): PageView | null {
  const view = { selected: change.selected !== undefined ? change.selected : current.selected, tab: change.tab ?? current.tab };
  return mode === 'push' && view.selected === current.selected && view.tab === current.tab ? null : view;
}

/** The view a history entry holds (anything: another version of the page may have written it). */
export function viewFromHistory(entry: unknown): PageView {
  const e = (typeof entry === 'object' && entry !== null ? entry : {}) as { selected?: unknown; tab?: unknown };
  return { selected: typeof e.selected === 'number' ? e.selected : null, tab: tabOf(e.tab) ?? DEFAULT_TAB };
}

/** The view a link or bundle carried, as this page shows it (a tab it names that is not one of ours: the default). */
export function viewFromLink(view: SharedView): PageView {
  return { selected: view.selectedKey, tab: tabOf(view.tab) ?? DEFAULT_TAB };
}
