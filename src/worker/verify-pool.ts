// The verifier pool: signature checks on the machine's other cores, so they never hold up decoding.
// It speaks one typed map (src/wire/verify-protocol.ts), answered in each verifier worker by
// src/worker/verify.worker.ts. Sized to the cores with the reading thread's own share counted:
// `cores − 1` verifier workers (at least one), and the reading thread (the inspector worker) takes
// AgentDNA batches itself between its own work, so a reader that waits for answers verifies
// instead of idling, and no core is asked to run two verifiers beside the reader.
// AgentDNA jobs go out in batches (one message, one loop over them, each worker's proven keys warm
// across batches), taken from one queue as each verifier becomes free: a slow or busy core holds no
// one up. Ed25519 checks go one message per worker, as before AgentDNA came here.
import type { VerifyJob, VerifyMany } from '../core/agdx/verify';
import type { SignatureCheck } from '../core/agentdna/signature';
import type { CheckSignatures, SignatureJob } from '../core/agentdna/signature-jobs';
import type { VerifyMessage, VerifyProtocol, VerifyRequest, VerifyType } from '../wire/verify-protocol';

/** What the pool needs of a Worker (tests hand it others). */
export interface VerifierPort {
  postMessage(message: VerifyRequest): void;
  onmessage: ((e: MessageEvent<VerifyMessage>) => void) | null;
  onerror: ((e: ErrorEvent) => void) | null;
}

/** The reading thread's own share: runs AgentDNA jobs in place, once it can do so fast (`ready`). */
export interface LocalVerifier {
  ready(): boolean;
  run(jobs: SignatureJob[]): SignatureCheck[];
}

export interface VerifyPoolOptions {
  /** The machine's cores (navigator.hardwareConcurrency). */
  cores?: number;
  /** Starts verifier worker `i`. */
  spawn?: (i: number) => VerifierPort;
  /** The reading thread's share; null: verifier workers only. */
  local?: LocalVerifier | null;
  /** AgentDNA jobs per message. */
  batch?: number;
}

/** At most this many verifier workers, whatever the cores. */
export const MAX_VERIFIERS = 7;
/** AgentDNA jobs per batch: about 10 ms of libsecp256k1 checks, small enough to spread, large enough to amortise a message. */
export const SIGNATURE_BATCH = 48;
/**
 * Batches a verifier holds at once, so it never waits for the next: its next batch goes out only
 * when the reading thread's turn ends (a stretch of workflows read, a part handed over, a batch of
 * its own checked: up to ~50 ms), and a batch is 3–7 ms of checks. With four a verifier idled
 * 10–20% of a load; twelve cover such a turn, and leave the reading thread little to wait for at
 * the end of a load.
 */
export const IN_FLIGHT = 12;

/** How many verifier workers for this many cores: the reading thread's core counted. */
export function verifierCount(cores: number): number {
  return Math.max(1, Math.min(MAX_VERIFIERS, Math.floor(cores) - 1 || 1));
}

/**
 * Runs `fn` on a later turn of this thread's event loop, after what is queued already (a read's next
 * batch, a page's request). A MessageChannel, not setTimeout: nested timeouts are held to 4 ms, and
 * a reader waiting for a stretch would idle that long between two of its own batches.
 */
const laterTurn = (() => {
  if (typeof MessageChannel !== 'function') return (fn: () => void) => void setTimeout(fn, 0);
  let channel: MessageChannel | null = null;
  const turns: (() => void)[] = [];
  return (fn: () => void) => {
    if (channel === null) {
      channel = new MessageChannel();
      channel.port1.onmessage = () => turns.shift()?.();
      // Node (tests): the port must not keep the process alive.
      (channel.port1 as unknown as { unref?: () => void }).unref?.();
    }
    turns.push(fn);
    channel.port2.postMessage(null);
  };
})();

const spawnWorker = (i: number): VerifierPort =>
  new Worker(new URL('./verify.worker.ts', import.meta.url), { type: 'module', name: `verify-${i}` }) as unknown as VerifierPort;

interface Verifier {
  port: VerifierPort;
  /** Requests sent and not answered, by id. */
  waiting: Map<number, { resolve(reply: unknown): void; reject(e: Error): void }>;
  /** AgentDNA batches it holds. */
  batches: number;
}

interface Batch {
  jobs: SignatureJob[];
  resolve(checks: SignatureCheck[]): void;
  reject(e: unknown): void;
}

export class VerifyPool {
  private readonly verifiers: Verifier[] = [];
  private readonly local: LocalVerifier | null;
  private readonly batchSize: number;
  private readonly queue: Batch[] = [];
  private localTurn = false;
  private nextId = 1;
  private nextEd = 0;

  constructor({ cores = globalThis.navigator?.hardwareConcurrency ?? 2, spawn = spawnWorker, local = null, batch = SIGNATURE_BATCH }: VerifyPoolOptions = {}) {
    if (!(batch >= 1)) throw new TypeError('VerifyPool: batch must be at least 1');
    this.local = local;
    this.batchSize = batch;
    for (let i = 0; i < verifierCount(cores); i++) {
      const v: Verifier = { port: spawn(i), waiting: new Map(), batches: 0 };
      v.port.onmessage = (e) => this.answered(v, e.data);
      // A worker that fails (its script, or an uncaught error) answers nothing more: what it holds fails.
      v.port.onerror = (e) => {
        for (const w of v.waiting.values()) w.reject(new Error(`verifier failed: ${e.message}`));
        v.waiting.clear();
      };
      this.verifiers.push(v);
    }
  }

  /** How many verifier workers there are (the reading thread not counted). */
  get size(): number {
    return this.verifiers.length;
  }

  private answered(v: Verifier, m: VerifyMessage): void {
    const w = v.waiting.get(m.id);
    if (!w || m.kind === 'part') return;
    v.waiting.delete(m.id);
    if (m.kind === 'reply') w.resolve(m.reply);
    else w.reject(new Error(m.message));
  }

  /** One request to one verifier, typed by the map. */
  private call<K extends VerifyType>(v: Verifier, type: K, body: VerifyProtocol[K]['body']): Promise<VerifyProtocol[K]['reply']> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      v.waiting.set(id, { resolve: resolve as (reply: unknown) => void, reject });
      v.port.postMessage({ id, type, body } as VerifyRequest);
    });
  }

  /** Ed25519 checks, in order: split over the verifier workers, one message each. */
  verifyMany: VerifyMany = async (jobs: VerifyJob[]) => {
    const per = Math.ceil(jobs.length / this.verifiers.length);
    const parts: Promise<boolean[]>[] = [];
    for (let i = 0; i < jobs.length; i += per) {
      parts.push(this.call(this.verifiers[this.nextEd++ % this.verifiers.length], 'ed25519', { jobs: jobs.slice(i, i + per) }));
    }
    return (await Promise.all(parts)).flat();
  };

  /** AgentDNA signature checks (runSignatureJob on each job), in order, in batches on whichever verifier is free. */
  checkSignatures: CheckSignatures = async (jobs: SignatureJob[]) => {
    const parts: Promise<SignatureCheck[]>[] = [];
    for (let i = 0; i < jobs.length; i += this.batchSize) {
      const batch = jobs.slice(i, i + this.batchSize);
      parts.push(new Promise((resolve, reject) => this.queue.push({ jobs: batch, resolve, reject })));
    }
    this.pump();
    return (await Promise.all(parts)).flat();
  };

  /** Hands queued batches to free verifiers, and gives the reading thread a turn at the rest. */
  private pump(): void {
    for (const v of this.verifiers) {
      while (v.batches < IN_FLIGHT && this.queue.length > 0) {
        const b = this.queue.shift()!;
        v.batches++;
        this.call(v, 'agentdna', { jobs: b.jobs })
          .then(b.resolve, b.reject)
          .finally(() => {
            v.batches--;
            this.pump();
          });
      }
    }
    if (this.local && this.queue.length > 0 && !this.localTurn) {
      // A later turn: the reading thread's own work (a batch read, a page's request) goes between two batches.
      this.localTurn = true;
      laterTurn(() => this.localBatch());
    }
  }

  /** One batch checked here, when libsecp256k1 is; then the next turn, while batches wait. */
  private localBatch(): void {
    this.localTurn = false;
    const local = this.local!;
    if (this.queue.length === 0 || !local.ready()) return;
    const b = this.queue.shift()!;
    try {
      b.resolve(local.run(b.jobs));
    } catch (e) {
      b.reject(e);
    }
    this.pump();
  }
}
