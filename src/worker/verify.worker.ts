// A verifier in the pool (verify-pool.ts): each request of the pool's map (src/wire/verify-protocol.ts)
// answered by its handler (verify-handlers.ts).
/// <reference lib="webworker" />
import type { VerifyRequest } from '../wire/verify-protocol';
import { answer } from './answer';
import { loadSecp } from './secp';
import { verifyHandlers } from './verify-handlers';

const handlers = verifyHandlers(loadSecp);
const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.onmessage = (e: MessageEvent<VerifyRequest>) => {
  void answer(handlers, e.data, (message, transfer) => scope.postMessage(message, transfer));
};
