// The watchdog's restart, with a scripted stand-in for the worker: the input a worker crashed or
// hung on is never read again by itself (it would take the new worker down too); every other input
// is; the stopped one is reported, and loading it again (Retry) reads it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { InputPayload, WireMessage, WireRequest } from '../wire/protocol';
import { packSummaries, unpackSummaries, type RecordSummary } from '../wire/summary-pack';
import type { Restart } from './worker-client';

const EMPTY = { count: 0, cols: new Int32Array(0), strings: [] };

/** A worker that answers as the test says; every instance is kept, in order. */
class FakeWorker {
  static all: FakeWorker[] = [];
  /** The script each new worker starts with, by its place in `all` (default: read everything). */
  static scripts: ((req: WireRequest, w: FakeWorker) => void)[] = [];
  onmessage: ((e: MessageEvent<WireMessage>) => void) | null = null;
  onerror: ((e: ErrorEvent) => void) | null = null;
  received: WireRequest[] = [];
  terminated = false;
  /** What the worker does with each request but keys (which it always acknowledges). */
  script: (req: WireRequest, w: FakeWorker) => void;
  constructor() {
    this.script = FakeWorker.scripts[FakeWorker.all.length] ?? readAll;
    FakeWorker.all.push(this);
  }
  postMessage(req: WireRequest): void {
    this.received.push(req);
    if (req.type === 'keys') queueMicrotask(() => this.reply({ id: req.id, kind: 'reply', reply: EMPTY }));
    else queueMicrotask(() => this.script(req, this));
  }
  reply(r: WireMessage): void {
    if (!this.terminated) this.onmessage?.({ data: r } as MessageEvent<WireMessage>);
  }
  crash(message = 'boom'): void {
    this.onerror?.({ message, preventDefault() {} } as ErrorEvent);
  }
  terminate(): void {
    this.terminated = true;
  }
  /** Names of the inputs of each load this worker was asked for. */
  loads(): string[][] {
    return this.received.filter((r) => r.type === 'load').map((r) => (r as WireRequest<'load'>).body.inputs.map((i) => i.name));
  }
}

const input = (name: string): InputPayload => ({ name, data: new Blob([name]) });
const loaded = (id: number): WireMessage => ({ id, kind: 'reply', reply: { inputs: [], records: EMPTY, view: null, problems: [], cancelled: false } });
const reading = (id: number, at: number): WireMessage => ({ id, kind: 'part', part: { type: 'reading', at } });
/** Answers a load: announces each input, then says it is loaded. */
const readAll = (req: WireRequest, w: FakeWorker) => {
  if (req.type !== 'load') return;
  for (const at of req.body.inputs.keys()) w.reply(reading(req.id, at));
  w.reply(loaded(req.id));
};
/** Reads a load's inputs until it meets `name`, then crashes. */
const crashOn = (name: string) => (req: WireRequest, w: FakeWorker) => {
  if (req.type !== 'load') return;
  for (const [at, i] of req.body.inputs.entries()) {
    w.reply(reading(req.id, at));
    if (i.name === name) return w.crash();
  }
  w.reply(loaded(req.id));
};
/** A record's summary with only its key and input (all the replay cares about). */
const summary = (key: number, input: number): RecordSummary => ({
  key,
  dialect: null,
  displayType: null,
  input,
  index: 0,
  format: 'agdx.envelope',
  kind: null,
  id: null,
  conversation: null,
  source: null,
  target: null,
  decoded: true,
  valid: true,
  errorCode: null,
  signature: 'unsigned',
  trusted: false,
  trustNote: null,
  errors: 0,
  warnings: 0,
  summary: '',
  redacted: false,
  operation: null,
  timeMs: null,
  timeFrom: null,
});
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('InspectorClient restarts', () => {
  let InspectorClient: typeof import('./worker-client').InspectorClient;
  beforeEach(async () => {
    FakeWorker.all = [];
    FakeWorker.scripts = [];
    vi.stubGlobal('Worker', FakeWorker);
    ({ InspectorClient } = await import('./worker-client'));
  });
  afterEach(() => vi.unstubAllGlobals());

  it('a crash while reading an input: that input is not read again, the others are, and it is reported', async () => {
    const client = new InspectorClient();
    const restarts: Restart[] = [];
    client.onRestart((r) => restarts.push(r));
    const first = FakeWorker.all[0];
    const a = input('a.cbor');
    await client.load([a]);
    first.script = crashOn('bad.cbor');
    const bad = input('bad.cbor');
    await expect(client.load([input('b.cbor'), bad, input('c.cbor')])).rejects.toThrow(
      /crashed \(boom\) while reading bad\.cbor: it was stopped and restarted/,
    );
    await settle();
    const second = FakeWorker.all[1];
    expect(first.terminated).toBe(true);
    // The new worker reads every input loaded or asked for, except the one the crash happened on.
    expect(second.loads()).toEqual([['a.cbor', 'b.cbor', 'c.cbor']]);
    await settle();
    expect(restarts).toHaveLength(1);
    expect(restarts[0].stopped.map((s) => s.input)).toEqual([bad]);
    expect(restarts[0].stopped[0].reason).toMatch(/while reading bad\.cbor/);
    // Retry: loading it again reads it (and only it).
    await client.load([bad]);
    expect(second.loads().at(-1)).toEqual(['bad.cbor']);
  });

  it('a replay that crashes on an input drops that one too, so restarts end; both are reported', async () => {
    const client = new InspectorClient();
    const restarts: Restart[] = [];
    client.onRestart((r) => restarts.push(r));
    // The second worker's replay crashes on c.cbor.
    FakeWorker.scripts = [readAll, crashOn('c.cbor')];
    await client.load([input('a.cbor'), input('c.cbor')]);
    FakeWorker.all[0].script = crashOn('b.cbor');
    await expect(client.load([input('b.cbor')])).rejects.toThrow(/while reading b\.cbor/);
    await settle();
    expect(FakeWorker.all).toHaveLength(3);
    expect(FakeWorker.all[1].loads()).toEqual([['a.cbor', 'c.cbor']]);
    expect(FakeWorker.all[2].loads()).toEqual([['a.cbor']]);
    expect(restarts).toHaveLength(1);
    expect(restarts[0].stopped.map((s) => s.input.name)).toEqual(['b.cbor', 'c.cbor']);
  });

  it('a crash while no load runs: everything is read again and nothing is reported as stopped', async () => {
    const client = new InspectorClient();
    const restarts: Restart[] = [];
    client.onRestart((r) => restarts.push(r));
    await client.load([input('a.cbor'), input('b.cbor')]);
    FakeWorker.all[0].crash();
    await settle();
    expect(FakeWorker.all[1].loads()).toEqual([['a.cbor', 'b.cbor']]);
    expect(restarts).toHaveLength(1);
    expect(restarts[0].stopped).toEqual([]);
  });

  it('a link opened replaced what was loaded: a restart opens it again, then reads the inputs loaded after it', async () => {
    const fragment = 'v1.LINK';
    const opened = {
      inputs: [{ input: 0, name: 'from-link.cbor', bytes: 3, sha256: '', format: 'agdx', records: 1, error: null }],
      records: packSummaries([summary(0, 0)]),
      view: null,
      problems: [],
      cancelled: false,
    };
    // Every worker opens the link and reads loads; the after-link load names its input 1.
    const script = (req: WireRequest, w: FakeWorker) => {
      if (req.type === 'open') w.reply({ id: req.id, kind: 'reply', reply: opened });
      else if (req.type === 'load') {
        for (const at of req.body.inputs.keys()) w.reply(reading(req.id, at));
        const inputs = req.body.inputs.map((i, at) => ({ input: 1 + at, name: i.name, bytes: 1, sha256: '', format: 'agdx', records: 1, error: null }));
        w.reply({
          id: req.id,
          kind: 'reply',
          reply: { inputs, records: packSummaries(inputs.map((i) => summary(i.input, i.input))), view: null, problems: [], cancelled: false },
        });
      }
    };
    FakeWorker.scripts = [script, script];
    const client = new InspectorClient();
    const restarts: Restart[] = [];
    client.onRestart((r) => restarts.push(r));
    await client.load([input('before.cbor')]);
    await client.open(fragment);
    await client.load([input('after.cbor')]);
    FakeWorker.all[0].crash();
    await settle();
    const second = FakeWorker.all[1];
    // The link again, in place of what was loaded before it; then what was loaded after it.
    expect(second.received.map((r) => r.type)).toEqual(['keys', 'open', 'load']);
    expect((second.received[1] as WireRequest<'open'>).body.fragment).toBe(fragment);
    expect(second.loads()).toEqual([['after.cbor']]);
    await settle();
    expect(restarts).toHaveLength(1);
    // One result for the page: the link's inputs and records, then the others'.
    expect(restarts[0].replayed.inputs.map((i) => i.name)).toEqual(['from-link.cbor', 'after.cbor']);
    expect(unpackSummaries(restarts[0].replayed.records).map((r) => r.key)).toEqual([0, 1]);
  });

  it('a bundle file is an input like any other: a restart reads it again (its view and inputs with it)', async () => {
    const client = new InspectorClient();
    const bundle = input('view.eibundle');
    await client.load([input('a.cbor')]);
    await client.load([bundle]);
    FakeWorker.all[0].crash();
    await settle();
    expect(FakeWorker.all[1].loads()).toEqual([['a.cbor', 'view.eibundle']]);
  });

  it('after Clear, a restart opens no link; a link that could not be read replaces nothing', async () => {
    FakeWorker.scripts = [
      (req, w) => {
        if (req.type === 'open')
          w.reply({
            id: req.id,
            kind: 'reply',
            reply: { inputs: [], records: EMPTY, view: null, problems: [], cancelled: false, error: req.body.fragment === 'bad' ? 'not a link' : null },
          });
        else if (req.type === 'clear') w.reply({ id: req.id, kind: 'reply', reply: null });
        else readAll(req, w);
      },
    ];
    const client = new InspectorClient();
    await client.open('v1.GOOD');
    await client.clear();
    await client.load([input('a.cbor')]);
    await client.open('bad');
    FakeWorker.all[0].crash();
    await settle();
    expect(FakeWorker.all[1].received.map((r) => r.type)).toEqual(['keys', 'load']);
    expect(FakeWorker.all[1].loads()).toEqual([['a.cbor']]);
  });

  it('a link whose replay kills the new worker is not opened again, so restarts end', async () => {
    const opens = (req: WireRequest, w: FakeWorker) => {
      if (req.type === 'open') w.reply({ id: req.id, kind: 'reply', reply: { inputs: [], records: EMPTY, view: null, problems: [], cancelled: false } });
      else readAll(req, w);
    };
    const diesOnOpen = (req: WireRequest, w: FakeWorker) => (req.type === 'open' ? w.crash() : readAll(req, w));
    FakeWorker.scripts = [opens, diesOnOpen, opens];
    const client = new InspectorClient();
    const restarts: Restart[] = [];
    client.onRestart((r) => restarts.push(r));
    await client.open('v1.HEAVY');
    await client.load([input('after.cbor')]);
    FakeWorker.all[0].crash();
    await settle();
    await settle();
    expect(FakeWorker.all).toHaveLength(3);
    expect(FakeWorker.all[2].received.map((r) => r.type)).toEqual(['keys', 'load']);
    expect(FakeWorker.all[2].loads()).toEqual([['after.cbor']]);
    await settle();
    expect(restarts.at(-1)?.reason).toMatch(/while opening a shared link/);
  });

  it('two inputs with the same name: only the one being read is left out', async () => {
    const client = new InspectorClient();
    const early = input('same.cbor');
    await client.load([early]);
    FakeWorker.all[0].script = (req, w) => {
      if (req.type !== 'load') return;
      w.reply(reading(req.id, 0));
      w.crash();
    };
    await expect(client.load([input('same.cbor')])).rejects.toThrow(/while reading same\.cbor/);
    await settle();
    const replay = FakeWorker.all[1].received.find((r) => r.type === 'load') as WireRequest<'load'>;
    expect(replay.body.inputs).toEqual([early]);
  });
});

describe('InspectorClient.call', () => {
  let InspectorClient: typeof import('./worker-client').InspectorClient;
  beforeEach(async () => {
    FakeWorker.all = [];
    FakeWorker.scripts = [];
    vi.stubGlobal('Worker', FakeWorker);
    ({ InspectorClient } = await import('./worker-client'));
  });
  afterEach(() => vi.unstubAllGlobals());

  it("sends the body under the request's type; parts go to onPart, the reply resolves, the failure rejects", async () => {
    const shell = { nodes: [], edges: [], folded: [], missing: 0, cycles: 0, streams: 0, ms: 1 };
    FakeWorker.scripts = [
      (req, w) => {
        if (req.type === 'graph') {
          w.reply({ id: req.id, kind: 'part', part: { nodes: [], edges: [] } });
          w.reply({ id: req.id, kind: 'reply', reply: shell });
        } else if (req.type === 'folds') w.reply({ id: req.id, kind: 'failed', message: 'no folds' });
      },
    ];
    const client = new InspectorClient();
    const parts: unknown[] = [];
    await expect(client.call('graph', { expanded: ['s1'] }, { onPart: (p) => parts.push(p) })).resolves.toEqual(shell);
    expect(parts).toEqual([{ nodes: [], edges: [] }]);
    expect(FakeWorker.all[0].received.find((r) => r.type === 'graph')).toMatchObject({ type: 'graph', body: { expanded: ['s1'] } });
    await expect(client.call('folds', { asOf: null })).rejects.toThrow('no folds');
  });
});
