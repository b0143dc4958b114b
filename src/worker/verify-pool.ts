// A few verifier workers, so signature checks use the machine's other cores and never hold up
// decoding: Ed25519 (AGDX) on all but one core's worth, AgentDNA's secp256k1 on every core (the
// inspector worker waits for those answers, so its core is free meanwhile).
import type { VerifyJob, VerifyMany } from '../core/agdx/verify';
import type { SignatureCheck } from '../core/agentdna/signature';
import type { CheckSignatures, SignatureJob } from '../core/agentdna/signature-jobs';

/** A request to a verifier worker: Ed25519 jobs, or AgentDNA signature jobs. */
export type VerifyRequest = { id: number; jobs: VerifyJob[] } | { id: number; agentdna: SignatureJob[] };
export type VerifyAnswer = { id: number; results: boolean[] } | { id: number; checks: SignatureCheck[] };

export class VerifyPool {
  private workers: Worker[] = [];
  private next = 0;
  private nextId = 1;
  private waiting = new Map<number, (answer: VerifyAnswer) => void>();
  /** How many workers take Ed25519 jobs (a core is left to decoding, as before AgentDNA came here). */
  private readonly ed25519Workers: number;

  constructor(cores = globalThis.navigator?.hardwareConcurrency ?? 2) {
    const size = Math.max(1, Math.min(4, cores));
    this.ed25519Workers = Math.max(1, Math.min(size, cores - 1));
    for (let i = 0; i < size; i++) {
      const w = new Worker(new URL('./verify.worker.ts', import.meta.url), { type: 'module', name: `verify-${i}` });
      w.onmessage = (e: MessageEvent<VerifyAnswer>) => {
        this.waiting.get(e.data.id)?.(e.data);
        this.waiting.delete(e.data.id);
      };
      this.workers.push(w);
    }
  }

  /** Splits `items` over the first `count` workers, one message each, and answers in order. */
  private async split<T, R>(items: T[], count: number, request: (id: number, chunk: T[]) => VerifyRequest, answer: (a: VerifyAnswer) => R[]): Promise<R[]> {
    const per = Math.ceil(items.length / count);
    const parts: Promise<R[]>[] = [];
    for (let i = 0; i < items.length; i += per) {
      const chunk = items.slice(i, i + per);
      const id = this.nextId++;
      const worker = this.workers[this.next++ % count];
      parts.push(new Promise((resolve) => this.waiting.set(id, (a) => resolve(answer(a)))));
      worker.postMessage(request(id, chunk));
    }
    return (await Promise.all(parts)).flat();
  }

  /** Ed25519 checks, in order. */
  verifyMany: VerifyMany = (jobs: VerifyJob[]) =>
    this.split(
      jobs,
      this.ed25519Workers,
      (id, chunk) => ({ id, jobs: chunk }),
      (a) => ('results' in a ? a.results : []),
    );

  /** AgentDNA signature checks (checkSignatureText on each job), in order. */
  checkSignatures: CheckSignatures = (jobs: SignatureJob[]) =>
    this.split(
      jobs,
      this.workers.length,
      (id, chunk) => ({ id, agentdna: chunk }),
      (a) => ('checks' in a ? a.checks : []),
    );
}
