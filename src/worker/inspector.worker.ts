// The worker entry: every decode happens here, never on the page's main thread. Each request goes
// to its handler in the table (handlers.ts), typed by the protocol's map (src/wire/protocol.ts).
/// <reference lib="webworker" />
import { secpImplementation } from '../core/agentdna/signature';
import { runSignatureJob } from '../core/agentdna/signature-jobs';
import type { WireRequest } from '../wire/protocol';
import { answer } from './answer';
import { inspectorHandlers } from './handlers';
import { loadSecp } from './secp';
import { InspectorSession } from './session';
import { VerifyPool } from './verify-pool';

// Signature checks run on a pool of verifier workers, beside the decoding; this worker takes its
// own share of AgentDNA batches between its reads (verify-pool.ts), once libsecp256k1 is loaded
// here too. The first AgentDNA checks load it, also for the checks this worker makes itself (a
// workflow read whole, a re-read when key-file keys change).
const pool = new VerifyPool({
  local: { ready: () => secpImplementation() === 'libsecp256k1-wasm', run: (jobs) => jobs.map(runSignatureJob) },
});
const handlers = inspectorHandlers(
  new InspectorSession(pool.verifyMany, (jobs) => {
    void loadSecp();
    return pool.checkSignatures(jobs);
  }),
);
const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.onmessage = (event: MessageEvent<WireRequest>) => {
  void answer(handlers, event.data, (message, transfer) => scope.postMessage(message, transfer));
};
