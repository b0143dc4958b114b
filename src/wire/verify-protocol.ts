// The inspector worker ↔ verifier pool protocol: one map, as src/wire/protocol.ts is for the page
// and the inspector worker, from each request type to its body and its reply. A verifier worker
// answers through `answer` (src/worker/answer.ts) with one handler per entry (src/worker/verify.worker.ts);
// the pool (src/worker/verify-pool.ts) sends them. Only plain data crosses.
import type { VerifyJob } from '../core/agdx/verify';
import type { SignatureCheck } from '../core/agentdna/signature';
import type { SignatureJob } from '../core/agentdna/signature-jobs';
import type { HandlersOf, MessageOf, RequestOf } from './protocol';

export interface VerifyProtocol {
  /** Ed25519 checks (AGDX), noble's strict verdict for each, in order. */
  ed25519: { body: { jobs: VerifyJob[] }; reply: boolean[]; part: never };
  /** AgentDNA signature checks, runSignatureJob's answer for each, in order (a batch of jobs a message). */
  agentdna: { body: { jobs: SignatureJob[] }; reply: SignatureCheck[]; part: never };
}

export type VerifyType = keyof VerifyProtocol;
export type VerifyRequest<K extends VerifyType = VerifyType> = RequestOf<VerifyProtocol, K>;
export type VerifyMessage<K extends VerifyType = VerifyType> = MessageOf<VerifyProtocol, K>;
export type VerifyHandlers = HandlersOf<VerifyProtocol>;
