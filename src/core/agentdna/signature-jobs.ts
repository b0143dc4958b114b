// AgentDNA signature checks handed to other threads (the page's verifier pool): a job is
// checkSignatureText's inputs, its answer is checkSignatureText's verdict, computed there (by the
// quick check against a DID's proven key when it can decide, its list of candidates then completed
// when the record is opened or reported); the reading thread takes the answer where it would have
// computed it. An answer is found only for the exact inputs it was computed from, and a job that
// was not sent (or whose answer did not come) is computed where it is needed, so the verdicts never
// depend on the pool.
import { checkSignatureQuick, checkSignatureText, recoveredLater, type ExtraKeys, type SignatureCheck } from './signature';

export interface SignatureJob {
  signer: string | null;
  /** The signed message (ASCII hex). */
  message: string;
  /** The signature as the envelope stores it (hex text). */
  signature: string;
  /** The keys a key file offers for the signer, when it offers any. */
  offered?: Uint8Array[];
  /** Always the full check (to complete a quick check's list of candidates). */
  full?: boolean;
}

export function signatureJob(signer: string | null, message: string, signature: string, extraKeys: ExtraKeys | undefined): SignatureJob {
  const offered = signer !== null ? extraKeys?.get(signer) : undefined;
  return offered?.length ? { signer, message, signature, offered } : { signer, message, signature };
}

/**
 * Runs a job (on whichever thread has it): the quick check when it can decide (its list of
 * candidates then completed later: SignatureResults.take marks it), else the full one.
 */
export function runSignatureJob(job: SignatureJob): SignatureCheck {
  if (!job.full && !job.offered?.length) {
    const quick = checkSignatureQuick(job.signer, job.message, job.signature);
    if (quick) return quick;
  }
  const extraKeys: ExtraKeys | undefined = job.offered?.length && job.signer !== null ? new Map([[job.signer, job.offered]]) : undefined;
  return checkSignatureText(job.signer, job.message, job.signature, extraKeys);
}

/** A job's identity: everything its answer depends on but the key-file keys, which are fixed for a read. */
export function jobKey(job: Pick<SignatureJob, 'signer' | 'message' | 'signature'>): string {
  return `${job.signer === null ? '-' : `+${job.signer}`}\u0000${job.message}\u0000${job.signature}`;
}

export type CheckSignatures = (jobs: SignatureJob[]) => Promise<SignatureCheck[]>;

/**
 * Answers computed elsewhere for one read (one input, one set of key-file keys). `submit` sends
 * jobs and resolves when their answers are in (or, if the other side failed, when they never will
 * be: those are then computed locally); `take` hands an answer over once.
 */
export class SignatureResults {
  private readonly answers = new Map<string, SignatureCheck[]>();

  constructor(private readonly check: CheckSignatures) {}

  submit(jobs: SignatureJob[]): Promise<void> {
    if (jobs.length === 0) return Promise.resolve();
    return this.check(jobs).then(
      (checks) => {
        if (checks.length !== jobs.length) return;
        jobs.forEach((job, i) => {
          const key = jobKey(job);
          const list = this.answers.get(key);
          if (list) list.push(checks[i]);
          else this.answers.set(key, [checks[i]]);
        });
      },
      () => {},
    );
  }

  /** Answers not taken yet. */
  get untaken(): number {
    let n = 0;
    for (const list of this.answers.values()) n += list.length;
    return n;
  }

  take(signer: string | null, message: string, signature: string): SignatureCheck | undefined {
    const key = jobKey({ signer, message, signature });
    const list = this.answers.get(key);
    const answer = list?.shift();
    if (list && list.length === 0) this.answers.delete(key);
    if (answer) recoveredLater(answer, signer, message, signature);
    return answer;
  }
}
