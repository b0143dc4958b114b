// The worker entry: every decode happens here, never on the page's main thread.
/// <reference lib="webworker" />
import type { Request, Response } from './protocol';
import { InspectorSession } from './session';
import { splitGraph } from './graph-parts';
import { packSummaries } from './summary-pack';
import { loadSecp } from './secp';
import { VerifyPool } from './verify-pool';

// Signature checks run on a small pool of verifier workers, beside the decoding. The first
// AgentDNA checks also load libsecp256k1 here, for the checks this worker makes itself (a
// workflow read whole, a re-read when key-file keys change).
const pool = new VerifyPool();
const session = new InspectorSession(pool.verifyMany, (jobs) => {
  void loadSecp();
  return pool.checkSignatures(jobs);
});
/** Loads asked to stop (by request id): checked between batches. */
const cancelledLoads = new Set<number>();
/** Loads waiting for the page to draw their first records, by request id. */
const drawWaits = new Map<number, () => void>();
/** Nodes (and edges) per message when a graph is sent in parts. */
const GRAPH_PART = 1500;
/** A load waits at most this long for the page to say it drew (a hidden tab draws nothing). */
const DRAW_WAIT_MS = 250;
const pause = (ms = 0) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const scope = self as unknown as DedicatedWorkerGlobalScope;

function reply(message: Response, transfer: Transferable[] = []): void {
  scope.postMessage(message, transfer);
}

scope.onmessage = async (event: MessageEvent<Request>) => {
  const req = event.data;
  try {
    switch (req.type) {
      case 'load': {
        const result = await session.load(
          req.inputs,
          req.stream
            ? {
                batch: (b) => {
                  const records = packSummaries(b.records);
                  reply({ type: 'batch', id: req.id, ...b, records }, [records.cols.buffer]);
                },
                pause: () => pause(req.pauseMs ?? 0),
                cancelled: () => cancelledLoads.has(req.id),
                shown: () =>
                  new Promise<void>((resolve) => {
                    drawWaits.set(req.id, resolve);
                    setTimeout(resolve, DRAW_WAIT_MS);
                  }).finally(() => drawWaits.delete(req.id)),
              }
            : {},
        );
        cancelledLoads.delete(req.id);
        const records = packSummaries(result.records);
        reply({ type: 'loaded', id: req.id, ...result, records }, [records.cols.buffer]);
        return;
      }
      case 'shown': {
        drawWaits.get(req.load)?.();
        reply({ type: 'ack', id: req.id });
        return;
      }
      case 'cancel': {
        cancelledLoads.add(req.load);
        reply({ type: 'cancelled', id: req.id });
        return;
      }
      case 'filter': {
        const keys = session.filter(req.filter);
        reply({ type: 'filtered', id: req.id, keys, total: session.size }, [keys.buffer]);
        return;
      }
      case 'open': {
        const opened = await session.open(req.fragment);
        const records = packSummaries(opened.records);
        reply({ type: 'loaded', id: req.id, ...opened, records }, [records.cols.buffer]);
        return;
      }
      case 'graph': {
        const { parts, shell } = splitGraph(session.graph(req.expanded), GRAPH_PART);
        for (const part of parts) reply({ type: 'graph-part', id: req.id, ...part });
        reply({ type: 'graph', id: req.id, graph: shell });
        return;
      }
      case 'folds':
        reply({ type: 'folds', id: req.id, folds: session.folds(req.asOf) });
        return;
      case 'report':
        reply({ type: 'report', id: req.id, ...session.report() });
        return;
      case 'share': {
        const shared = await session.share({ ...req.view, selected: null }, req.redact, req.bundle);
        reply({ type: 'shared', id: req.id, ...shared }, shared.bundle ? [shared.bundle.buffer] : []);
        return;
      }
      case 'detail': {
        const detail = session.detail(req.key);
        reply({ type: 'detail', id: req.id, detail });
        return;
      }
      case 'keys': {
        const records = packSummaries(await session.setKeys(req.keys));
        reply({ type: 'keys', id: req.id, records }, [records.cols.buffer]);
        return;
      }
      case 'clear':
        session.clear();
        reply({ type: 'cleared', id: req.id });
        return;
    }
  } catch (e) {
    reply({ type: 'failed', id: req.id, message: (e as Error)?.message ?? String(e) });
  }
};
