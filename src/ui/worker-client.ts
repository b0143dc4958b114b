// The page's side of the worker protocol: a promise per request. The page never decodes.
import type { RegistryEntry } from '../core/keys/keys';
import type { InputPayload, RecordDetail, RecordFilter, Request, Response, ViewToShare, Unblankable } from '../worker/protocol';
import type { GraphRender } from '../worker/graph-render';
import { joinGraph } from '../worker/graph-parts';
import type { SummaryPack } from '../worker/summary-pack';

type Batch = Extract<Response, { type: 'batch' }>;
/** Messages that are part of a reply still to come: a load's batches and the input it starts, a large graph's parts. */
type Part = Extract<Response, { type: 'batch' | 'reading' | 'graph-part' }>;

/** `?slowload=MS` pauses between batches of a large load: to watch progress (and for the tests). */
const SLOW_MOTION = Math.min(5000, Math.max(0, Number(new URLSearchParams(globalThis.location?.search ?? '').get('slowload') ?? 0) || 0));
/** `?watchdog=MS` sets the base budget of the watchdog (for the tests; default 20 s). */
const WATCHDOG_BASE_MS = Number(new URLSearchParams(globalThis.location?.search ?? '').get('watchdog') ?? 0) || 20_000;
/**
 * A load may go this long without a word from the worker: the base, plus a twentieth of it per MB
 * of input. Other requests (details, graph, folds, report) get a minute.
 */
const budgetFor = (type: string, bytes: number) => (type === 'load' || type === 'open' ? WATCHDOG_BASE_MS * (1 + bytes / 20_000_000) : Math.max(60_000, WATCHDOG_BASE_MS));

type Pending = { resolve: (r: Response) => void; reject: (e: Error) => void; onPart?: (b: Part) => void; budget: number; timer: ReturnType<typeof setTimeout> | null };
type RequestBody = Request extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

/** An input the worker crashed or hung on: never read again by itself, only when the person retries it. */
export interface StoppedInput {
  input: InputPayload;
  reason: string;
}

export interface Restart {
  reason: string;
  /** The inputs the stopped workers were reading (one per restart since the last report). */
  stopped: StoppedInput[];
  /** The inputs loaded before, read again by the new worker (the stopped ones left out). */
  replayed: Extract<Response, { type: 'loaded' }>;
}

export class InspectorClient {
  private worker!: Worker;
  private nextId = 1;
  private pending = new Map<number, Pending>();
  /** Every input loaded (Blobs: immutable handles, not copies), so a restarted worker can read them again. */
  private loadedInputs: InputPayload[] = [];
  private keys: readonly RegistryEntry[] = [];
  private restartListeners = new Set<(r: Restart) => void>();

  constructor() {
    this.start();
  }

  private start(): void {
    this.worker = new Worker(new URL('../worker/inspector.worker.ts', import.meta.url), { type: 'module', name: 'inspector' });
    this.worker.onmessage = (e: MessageEvent<Response>) => {
      // Any word from the worker shows it is not stuck: every request waiting on it gets its full
      // budget again (a load queued behind a long one says nothing until its turn).
      for (const [id, waiting] of this.pending) this.arm(id, waiting);
      const p = this.pending.get(e.data.id);
      if (!p) return;
      if (e.data.type === 'batch' || e.data.type === 'reading' || e.data.type === 'graph-part') {
        p.onPart?.(e.data);
        return;
      }
      this.settle(e.data.id);
      if (e.data.type === 'failed') p.reject(new Error(e.data.message));
      else p.resolve(e.data);
    };
    this.worker.onerror = (e) => {
      e.preventDefault();
      this.restart(`the inspector worker crashed (${e.message || 'no message'})`, null);
    };
  }

  /** (Re)starts a request's watchdog: any word from the worker about it resets the clock. */
  private arm(id: number, p: Pending): void {
    if (p.timer) clearTimeout(p.timer);
    p.timer = setTimeout(() => this.restart(`the worker gave no answer for ${(p.budget / 1000).toFixed(1)} s`, id), p.budget);
  }

  private settle(id: number): void {
    const p = this.pending.get(id);
    if (p?.timer) clearTimeout(p.timer);
    this.pending.delete(id);
  }

  onRestart(listener: (r: Restart) => void): () => void {
    this.restartListeners.add(listener);
    return () => this.restartListeners.delete(listener);
  }

  /** The input each running load is reading, as the worker announced it (loads run one at a time there). */
  private reading = new Map<number, InputPayload>();
  /** The inputs of loads still running, by request id (a replay's are in loadedInputs already). */
  private inflight = new Map<number, InputPayload[]>();
  /** Inputs stopped by restarts whose replay has not been reported yet. */
  private stopped: StoppedInput[] = [];

  /** Follows a load's parts: the worker says which input it starts before it reads it. */
  private track(id: number, inputs: InputPayload[], part: Part): void {
    if (part.type === 'reading' && inputs[part.at]) this.reading.set(id, inputs[part.at]);
  }

  /**
   * Stops the worker, fails what was waiting on it, starts a new one and lets it read again every
   * input loaded before, except the one it was reading when it crashed or hung: that one is not
   * read again by itself (it would crash or hang the new worker too), but reported, so the person
   * can retry it. A replay that itself crashes or hangs drops its input the same way, so restarts end.
   */
  private restart(reason: string, stuckRequest: number | null): void {
    // Whatever timed out or crashed, a load the worker started is what it was busy with.
    const stuckLoad = stuckRequest !== null && this.reading.has(stuckRequest) ? stuckRequest : ([...this.reading.keys()].at(-1) ?? null);
    const stuck = stuckLoad !== null ? this.reading.get(stuckLoad)! : null;
    const why = `${reason}${stuck ? ` while reading ${stuck.name}` : ''}`;
    this.worker.terminate();
    for (const p of this.pending.values()) {
      if (p.timer) clearTimeout(p.timer);
      p.reject(new Error(`${why}: it was stopped and restarted`));
    }
    this.pending.clear();
    // The inputs of loads that were running or waiting go on too, all but the one it was stuck on.
    for (const copies of this.inflight.values()) this.loadedInputs.push(...copies);
    this.inflight.clear();
    this.reading.clear();
    if (stuck) {
      this.loadedInputs = this.loadedInputs.filter((i) => i !== stuck);
      this.stopped.push({ input: stuck, reason: why });
    }
    this.start();
    const replay = this.loadedInputs;
    let replayId = 0;
    void this.send({ type: 'keys', keys: this.keys })
      .then(() =>
        this.send(
          { type: 'load', inputs: replay },
          [],
          (part) => this.track(replayId, replay, part),
          (id) => (replayId = id),
          replay.reduce((n, i) => n + i.data.size, 0),
        ),
      )
      .then((r) => {
        this.reading.delete(replayId);
        if (r.type !== 'loaded') return;
        const stopped = this.stopped;
        this.stopped = [];
        for (const l of this.restartListeners) l({ reason: why, stopped, replayed: r });
      })
      .catch(() => {});
  }

  private send(body: RequestBody, transfer: Transferable[] = [], onPart?: (b: Part) => void, onId?: (id: number) => void, bytes = 0): Promise<Response> {
    const id = this.nextId++;
    onId?.(id);
    return new Promise((resolve, reject) => {
      const p: Pending = { resolve, reject, onPart, budget: budgetFor(body.type, bytes), timer: null };
      this.pending.set(id, p);
      this.arm(id, p);
      this.worker.postMessage({ ...body, id } as Request, transfer);
    });
  }

  /**
   * Loads inputs; large ones stream: `onBatch` gets records as they are read. `onId` receives the
   * load's id, for `cancel`. Each input's Blob stays here, for a restarted worker to read again.
   */
  async load(inputs: InputPayload[], onBatch?: (b: Batch) => void, onId?: (id: number) => void) {
    let id = 0;
    let r: Response;
    try {
      r = await this.send(
        { type: 'load', inputs, stream: true, pauseMs: SLOW_MOTION },
        [],
        (part) => {
          // Remember which input is being read: if the worker crashes or hangs, that is the one to drop.
          this.track(id, inputs, part);
          if (part.type === 'batch') onBatch?.(part);
        },
        (i) => {
          id = i;
          this.inflight.set(i, inputs);
          onId?.(i);
        },
        inputs.reduce((n, c) => n + c.data.size, 0),
      );
    } finally {
      // Settled either way (a restart has already taken this load's inputs over).
      this.reading.delete(id);
      this.inflight.delete(id);
    }
    this.loadedInputs.push(...inputs);
    if (r.type !== 'loaded') throw new Error(`unexpected reply ${r.type}`);
    return r;
  }

  /** Tells the worker the first records of a load are on screen, so it reads on. */
  shown(load: number): void {
    void this.send({ type: 'shown', load }).catch(() => {});
  }

  /** Stops a load between two batches; what was read stays loaded. */
  async cancel(load: number): Promise<void> {
    await this.send({ type: 'cancel', load });
  }

  /** The keys of the records matching `filter`, worked out in the worker. */
  async filter(filter: RecordFilter): Promise<Int32Array> {
    const r = await this.send({ type: 'filter', filter });
    if (r.type !== 'filtered') throw new Error(`unexpected reply ${r.type}`);
    return r.keys;
  }

  async detail(key: number): Promise<RecordDetail | null> {
    const r = await this.send({ type: 'detail', key });
    if (r.type !== 'detail') throw new Error(`unexpected reply ${r.type}`);
    return r.detail;
  }

  /** Sends the key registry; every record is re-verified. Returns the summaries whose verdict changed. */
  async setKeys(keys: readonly RegistryEntry[]): Promise<SummaryPack> {
    this.keys = keys;
    const r = await this.send({ type: 'keys', keys });
    if (r.type !== 'keys') throw new Error(`unexpected reply ${r.type}`);
    return r.records;
  }

  /** Opens a permalink fragment in place of what is loaded. */
  async open(fragment: string) {
    const r = await this.send({ type: 'open', fragment }, [], undefined, undefined, fragment.length);
    if (r.type !== 'loaded') throw new Error(`unexpected reply ${r.type}`);
    return r;
  }

  async share(view: ViewToShare, redact: boolean, bundle: boolean, unblankable?: Unblankable) {
    const r = await this.send({ type: 'share', view, redact, bundle, unblankable });
    if (r.type !== 'shared') throw new Error(`unexpected reply ${r.type}`);
    return r;
  }

  async graph(expanded: string[]) {
    const parts: Array<Pick<GraphRender, 'nodes' | 'edges'>> = [];
    const r = await this.send({ type: 'graph', expanded }, [], (part) => {
      if (part.type === 'graph-part') parts.push(part);
    });
    if (r.type !== 'graph') throw new Error(`unexpected reply ${r.type}`);
    return joinGraph(parts, r.graph);
  }

  async folds(asOf: number | null) {
    const r = await this.send({ type: 'folds', asOf });
    if (r.type !== 'folds') throw new Error(`unexpected reply ${r.type}`);
    return r.folds;
  }

  async report() {
    const r = await this.send({ type: 'report' });
    if (r.type !== 'report') throw new Error(`unexpected reply ${r.type}`);
    return r;
  }

  async clear(): Promise<void> {
    this.loadedInputs = [];
    await this.send({ type: 'clear' });
  }
}

let client: InspectorClient | null = null;
export function inspectorClient(): InspectorClient {
  client ??= new InspectorClient();
  return client;
}
