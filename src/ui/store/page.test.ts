// The page's session state, without React: the reducer over sequences of actions as the hooks send
// them, the summary store fed once per action, and the view helpers the history hook relies on.
import { describe, expect, it } from 'vitest';
import type { RegistryEntry } from '../../core/keys/keys';
import { type InputPayload, type InputSummary, LOG_ORDER, type Loaded, type SharedView } from '../../wire/protocol';
import { packSummaries, type RecordSummary, type SummaryPack } from '../../wire/summary-pack';
import { SummaryStore } from '../summary-store';
import type { StoppedInput } from '../worker-client';
import {
  applySummaries,
  firstKey,
  initialPageState,
  loadedStatus,
  mergeInputs,
  nextView,
  reducePage,
  viewFromHistory,
  viewFromLink,
  type PageAction,
  type PageState,
  listQueryActive,
  unreadableWords,
} from './page';

const summary = (key: number, input = 0): RecordSummary => ({
  key,
  dialect: null,
  displayType: null,
  input,
  index: key,
  format: 'agdx.envelope' as RecordSummary['format'],
  kind: 'command',
  id: `01HZ${key}`,
  conversation: null,
  source: 'alice',
  target: null,
  decoded: true,
  valid: true,
  errorCode: null,
  signature: 'unsigned',
  trusted: false,
  trustNote: null,
  errors: 0,
  warnings: 0,
  summary: `record ${key}`,
  redacted: false,
  operation: null,
  timeMs: null,
  timeFrom: null,
});
const pack = (keys: number[], input = 0): SummaryPack => packSummaries(keys.map((k) => summary(k, input)));
const inputSummary = (input: number, name: string, records = 0): InputSummary => ({ input, name, bytes: 10, sha256: '', format: 'agdx', records, error: null });
const loaded = (over: Partial<Loaded> = {}): Loaded => ({ inputs: [], records: pack([]), view: null, problems: [], cancelled: false, ...over });
const stopped = (name: string): StoppedInput => ({ input: { name, data: new Blob([name]) } as InputPayload, reason: 'the worker crashed' });
const sharedView = (over: Partial<SharedView> = {}): SharedView => ({
  selectedKey: 1,
  tab: 'graph',
  viewport: { x: 1, y: 2, zoom: 0.5 },
  filters: {},
  redacted: false,
  notBlank: 0,
  ...over,
});

/** Objects frozen all the way down: a reducer that changed its input would throw. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !ArrayBuffer.isView(value) && !(value instanceof Blob) && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** Runs actions as usePageStore does (summaries first, then the reducer), every state frozen. */
function run(actions: PageAction[], state: PageState = initialPageState([]), summaries = new SummaryStore()): { state: PageState; summaries: SummaryStore } {
  for (const action of actions) {
    applySummaries(summaries, action);
    state = reducePage(deepFreeze(state), action);
  }
  return { state, summaries };
}

describe('a load', () => {
  it('says what it reads, shows batches as they come, and says what it read when it ends', () => {
    const a = inputSummary(0, 'a.cbor');
    let { state, summaries } = run([{ type: 'load-asked' }, { type: 'load-started', inputs: 2, bytes: 300 }]);
    expect(state.status).toBe('Reading 2 inputs…');
    expect(state.progress).toEqual({ records: 0, bytesDone: 0, bytesTotal: 300 });
    ({ state } = run(
      [{ type: 'load-batch', inputs: [a], records: pack([0, 1]), progress: { records: 2, bytesDone: 100, bytesTotal: 300 } }],
      state,
      summaries,
    ));
    expect(state.inputs).toEqual([a]);
    expect(state.recordsVersion).toBe(1);
    expect(state.progress?.records).toBe(2);
    expect(summaries.length).toBe(2);
    // A batch without records (an input's summary moving on) does not redraw the list.
    const a2 = { ...a, records: 2 };
    ({ state } = run([{ type: 'load-batch', inputs: [a2], records: pack([]), progress: { records: 2, bytesDone: 200, bytesTotal: 300 } }], state, summaries));
    expect(state.inputs).toEqual([a2]);
    expect(state.recordsVersion).toBe(1);
    const b = inputSummary(1, 'b.bin', 1);
    ({ state } = run(
      [{ type: 'load-ended', result: loaded({ inputs: [b], records: pack([2], 1) }), records: 3, inputs: 2, unreadable: [] }],
      state,
      summaries,
    ));
    expect(state.inputs).toEqual([a2, b]);
    expect(state.progress).toBeNull();
    expect(state.loadVersion).toBe(1);
    expect(state.recordsVersion).toBe(2);
    expect(state.status).toBe('Loaded 3 records from 2 inputs.');
    expect(state.problem).toBeNull();
    expect(summaries.length).toBe(3);
    expect(summaries.get(2)?.input).toBe(1);
  });

  it('a cancelled load says what it kept; problems are shown with control characters made visible', () => {
    const { state } = run([
      { type: 'load-ended', result: loaded({ cancelled: true, problems: ['x.bin: bad\u0007', 'y: worse'] }), records: 1, inputs: 1, unreadable: [] },
    ]);
    expect(state.status).toBe('Cancelled: kept 1 record from 1 input.');
    expect(state.problem).toBe('x.bin: bad⟨U+0007⟩; y: worse');
  });

  it('an input nothing could be read from (a PNG) is counted as unreadable, not as a record', () => {
    expect(loadedStatus(1, 1, 1, false)).toBe('Loaded 0 records from 1 input (it is unreadable).');
    expect(loadedStatus(16, 9, 1, false)).toBe('Loaded 15 records from 9 inputs (1 unreadable).');
    expect(loadedStatus(2, 2, 2, false)).toBe('Loaded 0 records from 2 inputs (all are unreadable).');
    expect(loadedStatus(2_000_000, 1, 0, false)).toBe('Loaded 2,000,000 records from 1 input.');
    expect(loadedStatus(15, 8, 0, true)).toBe('Cancelled: kept 15 records from 8 inputs.');
    const png: InputSummary = {
      ...inputSummary(0, 'photo.png', 1),
      format: 'file(png)',
      error: { code: 'input/unrecognized', message: 'a PNG image, not an agent record', offset: 0 },
    };
    const { state } = run([{ type: 'load-ended', result: loaded({ inputs: [png], records: pack([0]) }), records: 1, inputs: 1, unreadable: [png] }]);
    expect(state.status).toBe('Loaded 0 records from 1 input (it is unreadable).');
    // The alert line (a live region) says why, as the input's header in the list does.
    expect(state.problem).toBe('photo.png could not be read: a PNG image, not an agent record (input/unrecognized)');
    const many = [1, 2, 3, 4, 5].map((n) => ({ ...png, input: n, name: `p${n}.png`, error: { ...png.error!, offset: 7 } }));
    expect(unreadableWords(many)).toEqual([
      'p1.png could not be read: a PNG image, not an agent record (input/unrecognized, byte 7)',
      'p2.png could not be read: a PNG image, not an agent record (input/unrecognized, byte 7)',
      'p3.png could not be read: a PNG image, not an agent record (input/unrecognized, byte 7)',
      'and 2 more inputs could not be read (see their headers in the list)',
    ]);
  });

  it('a failed load says why, and the next load clears the alert', () => {
    let { state } = run([
      { type: 'load-started', inputs: 1, bytes: 5 },
      { type: 'load-failed', message: 'no worker' },
    ]);
    expect(state).toMatchObject({ problem: 'no worker', status: '', progress: null });
    ({ state } = run([{ type: 'load-asked' }], state));
    expect(state.problem).toBeNull();
  });

  it('re-judged inputs replace their summary, new ones are appended', () => {
    const a = inputSummary(0, 'a');
    const b = inputSummary(1, 'b');
    expect(mergeInputs([a, b], [{ ...a, records: 9 }, inputSummary(2, 'c')])).toEqual([{ ...a, records: 9 }, b, inputSummary(2, 'c')]);
  });

  it('the first key of a pack is the first record sent', () => {
    expect(firstKey(pack([7, 3]))).toBe(7);
    expect(firstKey(pack([]))).toBeNull();
  });
});

describe('the filter', () => {
  it('keeps the last keys shown while the worker works out the new ones; without a filter, every record shows', () => {
    const keys = new Int32Array([1, 3]);
    let { state } = run([
      { type: 'filter', filter: { kind: 'command' } },
      { type: 'visible', keys, filter: { kind: 'command' }, order: LOG_ORDER, rules: null },
    ]);
    expect(state.visible).toEqual({ keys, filter: { kind: 'command' }, order: LOG_ORDER, rules: null });
    ({ state } = run([{ type: 'filter', filter: { kind: 'command', source: 'al' } }], state));
    expect(state.visible?.keys).toBe(keys);
    ({ state } = run([{ type: 'filter', filter: { kind: '' } }], state));
    expect(state.visible).toBeNull();
  });

  it('asks the worker for the keys while the list is sorted, with or without a filter; back in log order, every record shows as loaded', () => {
    const byTime = { by: 'time', descending: true } as const;
    const keys = new Int32Array([3, 1, 2]);
    let { state } = run([{ type: 'order', order: byTime }]);
    expect(listQueryActive(state.filter, state.order)).toBe(true);
    ({ state } = run([{ type: 'visible', keys, filter: {}, order: byTime, rules: null }], state));
    // Clearing a filter keeps the sorted keys (the list stays sorted); log order again drops them.
    ({ state } = run([{ type: 'filter', filter: {} }], state));
    expect(state.visible?.keys).toBe(keys);
    ({ state } = run([{ type: 'order', order: LOG_ORDER }], state));
    expect(state.visible).toBeNull();
    expect(listQueryActive({}, LOG_ORDER)).toBe(false);
  });

  it('drops what it said of a hidden selection when the filter changes again', () => {
    let { state } = run([{ type: 'list-notice', notice: 'The filter hides it' }]);
    expect(state.listNotice).toBe('The filter hides it');
    ({ state } = run([{ type: 'filter', filter: { kind: 'event' } }], state));
    expect(state.listNotice).toBeNull();
  });
});

describe('a link or bundle opened', () => {
  it('replaces what was loaded, says trust comes from the registry, and presets its viewport, filter and banner', () => {
    const summaries = new SummaryStore();
    summaries.apply(pack([0, 1, 2, 3]));
    const key = { kind: 'agent', id: 'k' } as unknown as RegistryEntry;
    let { state } = run([{ type: 'link-opening' }], initialPageState([key]), summaries);
    expect(state.status).toBe('Opening the shared view…');
    const view = sharedView({ filters: { kind: 'event', nonsense: 'x' } });
    ({ state } = run(
      [
        { type: 'link-opened', result: loaded({ inputs: [inputSummary(0, 'l')], records: pack([0]), view }) },
        { type: 'shared-view', view },
      ],
      state,
      summaries,
    ));
    expect(summaries.length).toBe(1);
    expect(state.inputs).toHaveLength(1);
    expect(state.loadVersion).toBe(1);
    expect(state.status).toBe(
      'Opened a shared view: 1 records from 1 inputs. A link brings no keys: signatures are trusted only as your registry (1 entries) backs them.',
    );
    expect(state.viewport).toEqual({ x: 1, y: 2, zoom: 0.5 });
    expect(state.filter).toEqual({ kind: 'event' });
    expect(state.shared).toEqual({ view, filter: { kind: 'event' } });
    expect(run([{ type: 'link-opened', result: loaded() }]).state.status).toMatch(/your registry is empty, so no signature is trusted\.$/);
  });

  it('its selection and tab as this page shows them: a tab it names that is not one of ours opens the default', () => {
    expect(viewFromLink(sharedView({ selectedKey: 4, tab: 'graph' }))).toEqual({ selected: 4, tab: 'graph' });
    expect(viewFromLink(sharedView({ selectedKey: null, tab: '<script>' }))).toEqual({ selected: null, tab: 'records' });
  });
});

describe('a restart and a clear', () => {
  it('a restart shows what the new worker read, lists the inputs it did not, and says so', () => {
    const summaries = new SummaryStore();
    summaries.apply(pack([0, 1, 2]));
    const bad = stopped('bad\u0000.cbor');
    const { state } = run(
      [
        { type: 'load-started', inputs: 1, bytes: 9 },
        {
          type: 'restarted',
          reason: 'the worker gave no answer for 20.0 s',
          stopped: [bad],
          replayed: loaded({ inputs: [inputSummary(0, 'a')], records: pack([0]) }),
        },
      ],
      initialPageState([]),
      summaries,
    );
    expect(summaries.length).toBe(1);
    expect(state.stopped).toEqual([bad]);
    expect(state.progress).toBeNull();
    expect(state.problem).toBe(
      'the worker gave no answer for 20.0 s: it was stopped and restarted. The other inputs were read again (1 records); the app goes on. bad⟨U+0000⟩.cbor was not read again (see Retry).',
    );
    const { state: after } = run([{ type: 'stopped-done', input: bad }], state);
    expect(after.stopped).toEqual([]);
  });

  it('a clear empties the records, the inputs, the stopped list and the banner', () => {
    const summaries = new SummaryStore();
    const view = sharedView();
    const { state } = run(
      [
        { type: 'link-opened', result: loaded({ inputs: [inputSummary(0, 'a')], records: pack([0, 1]) }) },
        { type: 'shared-view', view },
        { type: 'restarted', reason: 'r', stopped: [stopped('x')], replayed: loaded({ records: pack([0]) }) },
        { type: 'cleared' },
      ],
      initialPageState([]),
      summaries,
    );
    expect(summaries.length).toBe(0);
    expect(state).toMatchObject({ inputs: [], stopped: [], shared: null, status: 'Cleared.' });
  });
});

describe('keys', () => {
  it('a key change that moved verdicts redraws the list; one that moved none does not', () => {
    const summaries = new SummaryStore();
    let { state } = run(
      [
        { type: 'keys', keys: [] },
        { type: 'verdicts', records: pack([]) },
      ],
      initialPageState([]),
      summaries,
    );
    expect(state.recordsVersion).toBe(0);
    ({ state } = run([{ type: 'verdicts', records: pack([0]) }], state, summaries));
    expect(state.recordsVersion).toBe(1);
    expect(summaries.length).toBe(1);
  });
});

describe('the view', () => {
  it('a new history entry only when the view changes; fields left out stay', () => {
    const current = { selected: 3, tab: 'graph' as const };
    expect(nextView(current, { selected: 3 }, 'push')).toBeNull();
    expect(nextView(current, { selected: 3 }, 'replace')).toEqual(current);
    expect(nextView(current, { tab: 'runs' }, 'push')).toEqual({ selected: 3, tab: 'runs' });
    expect(nextView(current, { selected: null }, 'none')).toEqual({ selected: null, tab: 'graph' });
  });

  it('a history entry written by anything else reads as the default view', () => {
    expect(viewFromHistory({ selected: 2, tab: 'agents' })).toEqual({ selected: 2, tab: 'agents' });
    for (const entry of [null, undefined, 'x', 7, { selected: '2', tab: 'nope' }, { tab: '__proto__' }, { tab: 'toString' }])
      expect(viewFromHistory(entry)).toEqual({ selected: null, tab: 'records' });
  });

  it('the reducer keeps the state as it was when the view it is given is the one shown', () => {
    const state = initialPageState([]);
    expect(reducePage(state, { type: 'view', view: { selected: null, tab: 'records' } })).toBe(state);
    expect(reducePage(state, { type: 'view', view: { selected: 1, tab: 'records' } }).view).toEqual({ selected: 1, tab: 'records' });
  });
});
