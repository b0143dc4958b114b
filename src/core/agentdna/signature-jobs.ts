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

type JobInputs = Pick<SignatureJob, 'signer' | 'message' | 'signature'>;

/**
 * Values by job: everything an answer depends on but the key-file keys, which are fixed for a read.
 * Filed by the signature's text, then matched on signer and message: the signature is the same
 * string where a job is listed and where its answer is taken (a slice of the document's tree), so
 * its hash is computed once; a key joining the three texts was a new string to hash at both ends
 * (about 300 ms of a 10,000-workflow load's reading, in Node). Several values for one job are kept
 * in the order added.
 */
export class ByJob<T> {
  private readonly bySignature = new Map<string, { job: JobInputs; value: T }[]>();

  get size(): number {
    let n = 0;
    for (const list of this.bySignature.values()) n += list.length;
    return n;
  }

  add(job: JobInputs, value: T): void {
    const list = this.bySignature.get(job.signature);
    if (list) list.push({ job, value });
    else this.bySignature.set(job.signature, [{ job, value }]);
  }

  has(job: JobInputs): boolean {
    return this.at(job) >= 0;
  }

  /** The first value added for `job`, taken out; undefined when there is none. */
  take(job: JobInputs): T | undefined {
    const at = this.at(job);
    if (at < 0) return undefined;
    const list = this.bySignature.get(job.signature)!;
    const { value } = list[at];
    if (list.length === 1) this.bySignature.delete(job.signature);
    else list.splice(at, 1);
    return value;
  }

  private at({ signer, message, signature }: JobInputs): number {
    const list = this.bySignature.get(signature);
    return list ? list.findIndex((a) => a.job.message === message && a.job.signer === signer) : -1;
  }
}

export type CheckSignatures = (jobs: SignatureJob[]) => Promise<SignatureCheck[]>;

/**
 * Answers computed elsewhere for one read (one input, one set of key-file keys). `submit` sends
 * jobs and resolves when their answers are in (or, if the other side failed, when they never will
 * be: those are then computed locally); `take` hands an answer over once.
 */
export class SignatureResults {
  private readonly answers = new ByJob<SignatureCheck>();

  constructor(private readonly check: CheckSignatures) {}

  submit(jobs: SignatureJob[]): Promise<void> {
    if (jobs.length === 0) return Promise.resolve();
    return this.check(jobs).then(
      (checks) => {
        if (checks.length !== jobs.length) return;
        for (let i = 0; i < jobs.length; i++) this.answers.add(jobs[i], checks[i]);
      },
      () => {},
    );
  }

  /** Answers not taken yet. */
  get untaken(): number {
    return this.answers.size;
  }

  take(signer: string | null, message: string, signature: string): SignatureCheck | undefined {
    const answer = this.answers.take({ signer, message, signature });
    if (answer) recoveredLater(answer, signer, message, signature);
    return answer;
  }
}
