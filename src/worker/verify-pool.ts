// A few verifier workers, so Ed25519 checks use the machine's other cores and never hold up decoding.
import type { VerifyJob, VerifyMany } from '../core/agdx/verify';

export class VerifyPool {
  private workers: Worker[] = [];
  private next = 0;
  private nextId = 1;
  private waiting = new Map<number, (r: boolean[]) => void>();

  constructor(size = Math.max(1, Math.min(4, (globalThis.navigator?.hardwareConcurrency ?? 2) - 1))) {
    for (let i = 0; i < size; i++) {
      const w = new Worker(new URL('./verify.worker.ts', import.meta.url), { type: 'module', name: `verify-${i}` });
      w.onmessage = (e: MessageEvent<{ id: number; results: boolean[] }>) => {
        this.waiting.get(e.data.id)?.(e.data.results);
        this.waiting.delete(e.data.id);
      };
      this.workers.push(w);
    }
  }

  /** Splits the jobs over the workers and answers in order. */
  verifyMany: VerifyMany = async (jobs: VerifyJob[]) => {
    const per = Math.ceil(jobs.length / this.workers.length);
    const parts: Promise<boolean[]>[] = [];
    for (let i = 0; i < jobs.length; i += per) {
      const chunk = jobs.slice(i, i + per);
      const id = this.nextId++;
      const worker = this.workers[this.next++ % this.workers.length];
      parts.push(new Promise((resolve) => this.waiting.set(id, resolve)));
      worker.postMessage({ id, jobs: chunk });
    }
    return (await Promise.all(parts)).flat();
  };
}
