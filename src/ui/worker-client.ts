// The page's side of the worker protocol: a promise per request. The page never decodes.
import type { RegisteredKey } from '../core/keys/keys';
import type { InputPayload, RecordDetail, RecordFilter, RecordSummary, Request, Response, SharedView } from '../worker/protocol';

type Batch = Extract<Response, { type: 'batch' }>;

/** `?slowload=MS` pauses between batches of a large load: to watch progress (and for the tests). */
const SLOW_MOTION = Math.min(1000, Math.max(0, Number(new URLSearchParams(globalThis.location?.search ?? '').get('slowload') ?? 0) || 0));
type Pending = { resolve: (r: Response) => void; reject: (e: Error) => void; onBatch?: (b: Batch) => void };
type RequestBody = Request extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

export class InspectorClient {
  private worker: Worker;
  private nextId = 1;
  private pending = new Map<number, Pending>();

  constructor() {
    this.worker = new Worker(new URL('../worker/inspector.worker.ts', import.meta.url), { type: 'module', name: 'inspector' });
    this.worker.onmessage = (e: MessageEvent<Response>) => {
      const p = this.pending.get(e.data.id);
      if (!p) return;
      if (e.data.type === 'batch') {
        p.onBatch?.(e.data);
        return;
      }
      this.pending.delete(e.data.id);
      if (e.data.type === 'failed') p.reject(new Error(e.data.message));
      else p.resolve(e.data);
    };
    this.worker.onerror = (e) => {
      for (const p of this.pending.values()) p.reject(new Error(`the inspector worker failed: ${e.message}`));
      this.pending.clear();
    };
  }

  private send(body: RequestBody, transfer: Transferable[] = [], onBatch?: (b: Batch) => void, onId?: (id: number) => void): Promise<Response> {
    const id = this.nextId++;
    onId?.(id);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onBatch });
      this.worker.postMessage({ ...body, id } as Request, transfer);
    });
  }

  /**
   * Loads inputs; large ones stream: `onBatch` gets records as they are read. `onId` receives the
   * load's id, for `cancel`.
   */
  async load(inputs: InputPayload[], onBatch?: (b: Batch) => void, onId?: (id: number) => void) {
    const r = await this.send({ type: 'load', inputs, pauseMs: SLOW_MOTION }, inputs.map((i) => i.bytes), onBatch, onId);
    if (r.type !== 'loaded') throw new Error(`unexpected reply ${r.type}`);
    return r;
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
  async setKeys(keys: RegisteredKey[]): Promise<RecordSummary[]> {
    const r = await this.send({ type: 'keys', keys });
    if (r.type !== 'keys') throw new Error(`unexpected reply ${r.type}`);
    return r.records;
  }

  /** Opens a permalink fragment in place of what is loaded. */
  async open(fragment: string) {
    const r = await this.send({ type: 'open', fragment });
    if (r.type !== 'loaded') throw new Error(`unexpected reply ${r.type}`);
    return r;
  }

  async share(view: Omit<SharedView, 'redacted'>, redact: boolean, bundle: boolean) {
    const r = await this.send({ type: 'share', view, redact, bundle });
    if (r.type !== 'shared') throw new Error(`unexpected reply ${r.type}`);
    return r;
  }

  async graph(expanded: string[]) {
    const r = await this.send({ type: 'graph', expanded });
    if (r.type !== 'graph') throw new Error(`unexpected reply ${r.type}`);
    return r.graph;
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
    await this.send({ type: 'clear' });
  }
}

let client: InspectorClient | null = null;
export function inspectorClient(): InspectorClient {
  client ??= new InspectorClient();
  return client;
}
