// The worker entry: every decode happens here, never on the page's main thread. Each request goes
// to its handler in the table (handlers.ts), typed by the protocol's map (src/wire/protocol.ts).
/// <reference lib="webworker" />
import type { WireRequest } from '../wire/protocol';
import { answer, inspectorHandlers } from './handlers';
import { InspectorSession } from './session';
import { VerifyPool } from './verify-pool';

// Ed25519 checks run on a small pool of verifier workers, beside the decoding.
const handlers = inspectorHandlers(new InspectorSession(new VerifyPool().verifyMany));
const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.onmessage = (event: MessageEvent<WireRequest>) => {
  void answer(handlers, event.data, (message, transfer) => scope.postMessage(message, transfer));
};
