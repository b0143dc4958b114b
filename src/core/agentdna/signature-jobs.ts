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

/** Whether two jobs are the same check: everything an answer depends on but the key-file keys, which are fixed for a read. */
export function sameJob(a: Pick<SignatureJob, 'signer' | 'message' | 'signature'>, b: Pick<SignatureJob, 'signer' | 'message' | 'signature'>): boolean {
  return a.signature === b.signature && a.message === b.message && a.signer === b.signer;
}

export type CheckSignatures = (jobs: SignatureJob[]) => Promise<SignatureCheck[]>;

/**
 * Answers computed elsewhere for one read (one input, one set of key-file keys). `submit` sends
 * jobs and resolves when their answers are in (or, if the other side failed, when they never will
 * be: those are then computed locally); `take` hands an answer over once.
 */
export class SignatureResults {
  /**
   * Answers by the signature's text, then matched on signer and message. Keyed by the signature
   * alone because it is the same string where a job is listed and where its answer is taken (a
   * slice of the document's tree), so its hash is computed once; a key joining the three texts was
   * a new string to hash at both ends (about 300 ms of a 10,000-workflow load's reading, in Node).
   */
  private readonly answers = new Map<string, { job: SignatureJob; check: SignatureCheck }[]>();

  constructor(private readonly check: CheckSignatures) {}

  submit(jobs: SignatureJob[]): Promise<void> {
    if (jobs.length === 0) return Promise.resolve();
    return this.check(jobs).then(
      (checks) => {
        if (checks.length !== jobs.length) return;
        jobs.forEach((job, i) => {
          const list = this.answers.get(job.signature);
          if (list) list.push({ job, check: checks[i] });
          else this.answers.set(job.signature, [{ job, check: checks[i] }]);
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
    const list = this.answers.get(signature);
    if (list === undefined) return undefined;
    const at = list.findIndex((a) => sameJob(a.job, { signer, message, signature }));
    if (at < 0) return undefined;
    const answer = list[at].check;
    if (list.length === 1) this.answers.delete(signature);
    else list.splice(at, 1);
    recoveredLater(answer, signer, message, signature);
    return answer;
  }
}
