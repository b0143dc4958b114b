// The page's side of the worker protocol (src/wire/protocol.ts): one generic `call`, typed by the
// protocol's map, and a watchdog that restarts a stuck or crashed worker. The page never decodes.
import type { RegistryEntry } from '../core/keys/keys';
import { joinGraph, type GraphPart } from '../wire/graph-parts';
import type { InputPayload, Loaded, Part, Reply, RequestBody, RequestType, WireMessage, WireRequest } from '../wire/protocol';
import { packSummaries, unpackSummaries, type SummaryPack } from '../wire/summary-pack';
import { testTimings } from './test-timings';

/** A pause between batches of a large load, and the watchdog's base budget (test-timings.ts: never from a URL in production). */
const { slowLoadMs: SLOW_MOTION, watchdogMs: WATCHDOG_BASE_MS } = testTimings();
/**
 * A load may go this long without a word from the worker: the base, plus a twentieth of it per MB
 * of input. Other requests (details, graph, folds, report) get a minute.
 */
const budgetFor = (type: RequestType, bytes: number) =>
  type === 'load' || type === 'open' ? WATCHDOG_BASE_MS * (1 + bytes / 20_000_000) : Math.max(60_000, WATCHDOG_BASE_MS);

type Pending = {
  resolve: (reply: never) => void;
  reject: (e: Error) => void;
  onPart?: (part: never) => void;
  budget: number;
  timer: ReturnType<typeof setTimeout> | null;
};

/** How a request is sent: its parts' listener, buffers handed over, its input's size (the watchdog's budget), its id once known. */
export interface CallOptions<K extends RequestType> {
  onPart?: (part: Part<K>) => void;
  transfer?: Transferable[];
  bytes?: number;
  onId?: (id: number) => void;
}

/**
 * Requests a restarted worker must see again go through their own methods, which remember them:
 * loads (the inputs to read again), a link opened (it replaced what was loaded: opened again, before
 * the inputs loaded after it), keys (the registry to send first) and clear (forgets them all).
 */
type Remembered = 'load' | 'open' | 'keys' | 'clear';

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
  replayed: Loaded;
}

export class InspectorClient {
  private worker!: Worker;
  private nextId = 1;
  private pending = new Map<number, Pending>();
  /** Every input loaded (Blobs: immutable handles, not copies), so a restarted worker can read them again. */
  private loadedInputs: InputPayload[] = [];
  /**
   * The permalink fragment opened last, if nothing cleared it since: a restarted worker opens it
   * again (its inputs, redaction and all) before reading `loadedInputs`, the inputs loaded after it.
   * A bundle file needs nothing of the kind: it is an input in `loadedInputs`, read again as it was.
   */
  private link: string | null = null;
  /** The open running now: a link a restart's replay was opening again when the worker died is dropped, so restarts end. */
  private opening: { replay: boolean } | null = null;
  private keys: readonly RegistryEntry[] = [];
  private restartListeners = new Set<(r: Restart) => void>();

  constructor() {
    this.start();
  }

  private start(): void {
    this.worker = new Worker(new URL('../worker/inspector.worker.ts', import.meta.url), { type: 'module', name: 'inspector' });
    this.worker.onmessage = (e: MessageEvent<WireMessage>) => {
      // Any word from the worker shows it is not stuck: every request waiting on it gets its full
      // budget again (a load queued behind a long one says nothing until its turn).
      for (const [id, waiting] of this.pending) this.arm(id, waiting);
      const m = e.data;
      const p = this.pending.get(m.id);
      if (!p) return;
      if (m.kind === 'part') {
        p.onPart?.(m.part as never);
        return;
      }
      this.settle(m.id);
      if (m.kind === 'failed') p.reject(new Error(m.message));
      else p.resolve(m.reply as never);
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
  private track(id: number, inputs: InputPayload[], part: Part<'load'>): void {
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
    const why = `${reason}${stuck ? ` while reading ${stuck.name}` : this.opening ? ' while opening a shared link' : ''}`;
    // The link a replay died opening would take the next worker down too: it is not opened again.
    // (A first open that dies was never remembered: what was loaded before it is read again.)
    if (!stuck && this.opening?.replay) this.link = null;
    this.opening = null;
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
    const link = this.link;
    let replayId = 0;
    void this.send('keys', { keys: this.keys })
      .then(() => (link !== null ? this.openLink(link, { replay: true }) : null))
      .then(async (opened) => {
        const r = await this.send(
          'load',
          { inputs: replay },
          { onPart: (part) => this.track(replayId, replay, part), onId: (id) => (replayId = id), bytes: replay.reduce((n, i) => n + i.data.size, 0) },
        );
        this.reading.delete(replayId);
        return opened ? joinLoaded(opened, r) : r;
      })
      .then((r) => {
        const stopped = this.stopped;
        this.stopped = [];
        for (const l of this.restartListeners) l({ reason: why, stopped, replayed: r });
      })
      .catch(() => {});
  }

  /** Sends one request of any type; its reply (or failure) settles the promise, its parts go to `onPart`. */
  private send<K extends RequestType>(type: K, body: RequestBody<K>, { onPart, transfer = [], bytes = 0, onId }: CallOptions<K> = {}): Promise<Reply<K>> {
    const id = this.nextId++;
    onId?.(id);
    return new Promise<Reply<K>>((resolve, reject) => {
      const p: Pending = { resolve, reject, onPart, budget: budgetFor(type, bytes), timer: null };
      this.pending.set(id, p);
      this.arm(id, p);
      this.worker.postMessage({ id, type, body } as WireRequest, transfer);
    });
  }

  /**
   * Asks the worker anything the protocol's map lists (but loads, keys and clear, which have their
   * own methods below): `client.call('detail', { key })` is typed by the map, body and reply.
   */
  call<K extends Exclude<RequestType, Remembered>>(type: K, body: RequestBody<K>, options?: CallOptions<K>): Promise<Reply<K>> {
    return this.send(type, body, options);
  }

  /**
   * Loads inputs; large ones stream: `onBatch` gets records as they are read, and then the
   * summaries of those whose verdicts the load's end changed (`verdicts` parts). `onId` receives the
   * load's id, for `cancel`. Each input's Blob stays here, for a restarted worker to read again.
   */
  async load(
    inputs: InputPayload[],
    onBatch?: (b: Extract<Part<'load'>, { type: 'batch' | 'verdicts' }>) => void,
    onId?: (id: number) => void,
  ): Promise<Loaded> {
    let id = 0;
    let r: Loaded;
    try {
      r = await this.send(
        'load',
        { inputs, stream: true, pauseMs: SLOW_MOTION },
        {
          onPart: (part) => {
            // Remember which input is being read: if the worker crashes or hangs, that is the one to drop.
            this.track(id, inputs, part);
            if (part.type !== 'reading') onBatch?.(part);
          },
          onId: (i) => {
            id = i;
            this.inflight.set(i, inputs);
            onId?.(i);
          },
          bytes: inputs.reduce((n, c) => n + c.data.size, 0),
        },
      );
    } finally {
      // Settled either way (a restart has already taken this load's inputs over).
      this.reading.delete(id);
      this.inflight.delete(id);
    }
    this.loadedInputs.push(...inputs);
    return r;
  }

  /** Tells the worker the first records of a load are on screen, so it reads on. */
  shown(load: number): void {
    void this.call('shown', { load }).catch(() => {});
  }

  /** Sends the key registry; every record is re-verified. Returns the summaries whose verdict changed. */
  async setKeys(keys: readonly RegistryEntry[]): Promise<SummaryPack> {
    this.keys = keys;
    return this.send('keys', { keys });
  }

  /** Opens a permalink fragment in place of what is loaded (its size sets the watchdog's budget). */
  open(fragment: string): Promise<Loaded> {
    return this.openLink(fragment, { replay: false });
  }

  private async openLink(fragment: string, opening: { replay: boolean }): Promise<Loaded> {
    this.opening = opening;
    try {
      const r = await this.send('open', { fragment }, { bytes: fragment.length });
      // The link's inputs replaced what was loaded (one that could not be read replaced nothing).
      if (!r.error && !opening.replay) {
        this.link = fragment;
        this.loadedInputs = [];
      }
      return r;
    } finally {
      if (this.opening === opening) this.opening = null;
    }
  }

  /** The graph, joined from the parts a large one comes in. */
  async graph(expanded: string[]) {
    const parts: GraphPart[] = [];
    const shell = await this.call('graph', { expanded }, { onPart: (part) => parts.push(part) });
    return joinGraph(parts, shell);
  }

  async clear(): Promise<void> {
    this.loadedInputs = [];
    this.link = null;
    await this.send('clear', {});
  }
}

/** A restart's replay as one result: the link's inputs, then those loaded after it (keys follow on, as in the worker). */
function joinLoaded(link: Loaded, after: Loaded): Loaded {
  return {
    inputs: [...link.inputs, ...after.inputs],
    records: packSummaries([...unpackSummaries(link.records), ...unpackSummaries(after.records)]),
    view: link.view,
    problems: [...link.problems, ...after.problems],
    cancelled: after.cancelled,
  };
}

let client: InspectorClient | null = null;
export function inspectorClient(): InspectorClient {
  client ??= new InspectorClient();
  return client;
}
