// The inspector worker's handler table: one handler per request of the protocol (src/wire/protocol.ts),
// each given its body and a context, returning its reply. `answer` (./answer.ts) runs one request
// through the table and posts what comes of it; a handler's error becomes the one failure reply.
// Kept apart from the worker entry so it can be tested without a Worker.
import type { HandlerContext, Handlers, Loaded, RequestType } from '../wire/protocol';
import { splitGraph } from '../wire/graph-parts';
import { packSummaries, type RecordSummary, type SummaryPack } from '../wire/summary-pack';
import { packTimeline, timelineBuffers } from '../wire/timeline-pack';
import { readText } from '../core/read-text';
import type { InspectorSession, LoadResult } from './session';

/** Nodes (and edges) per message when a graph is sent in parts. */
const GRAPH_PART = 1500;
/** A load waits at most this long for the page to say it drew (a hidden tab draws nothing). */
const DRAW_WAIT_MS = 250;
const pause = (ms = 0) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface HandlerOptions {
  /** Nodes (and edges) per part of a large graph. */
  graphPart?: number;
  /** How long a load waits for the page to draw its first records. */
  drawWaitMs?: number;
}

/** Summaries packed for the crossing, their buffer handed over with the reply. */
function packed<K extends RequestType>(records: ReadonlyArray<RecordSummary>, ctx: HandlerContext<K>): SummaryPack {
  const pack = packSummaries(records);
  ctx.transfer(pack.cols.buffer);
  return pack;
}

function loaded<K extends RequestType>(result: LoadResult & { error?: string | null }, ctx: HandlerContext<K>): Loaded {
  return { ...result, records: packed(result.records, ctx) };
}

/** The handlers over one session; cancels and draw acknowledgements are kept here, by load request id. */
export function inspectorHandlers(session: InspectorSession, { graphPart = GRAPH_PART, drawWaitMs = DRAW_WAIT_MS }: HandlerOptions = {}): Handlers {
  /** Loads asked to stop (by request id): checked between batches. */
  const cancelledLoads = new Set<number>();
  /** Loads waiting for the page to draw their first records, by request id. */
  const drawWaits = new Map<number, () => void>();
  return {
    async load({ inputs, stream, pauseMs }, ctx) {
      const reading = (at: number) => ctx.part({ type: 'reading', at });
      const result = await session.load(
        inputs,
        stream
          ? {
              reading,
              batch: (b) => {
                const records = packSummaries(b.records);
                ctx.part({ type: 'batch', ...b, records }, [records.cols.buffer]);
              },
              pause: () => pause(pauseMs ?? 0),
              cancelled: () => cancelledLoads.has(ctx.id),
              shown: () =>
                new Promise<void>((resolve) => {
                  drawWaits.set(ctx.id, resolve);
                  setTimeout(resolve, drawWaitMs);
                }).finally(() => drawWaits.delete(ctx.id)),
            }
          : { reading },
      );
      cancelledLoads.delete(ctx.id);
      return loaded(result, ctx);
    },
    async open({ fragment }, ctx) {
      return loaded(await session.open(fragment), ctx);
    },
    async shown({ load }) {
      drawWaits.get(load)?.();
      return null;
    },
    async cancel({ load }) {
      cancelledLoads.add(load);
      return null;
    },
    async filter({ filter, order }, ctx) {
      const keys = session.filter(filter, order);
      ctx.transfer(keys.buffer);
      return { keys, total: session.size, rules: filter.rule?.trim() ? session.matchRules(filter.rule) : null };
    },
    async readText({ text }) {
      return readText(text);
    },
    async rules() {
      return session.rulesPresent();
    },
    async detail({ key }) {
      return session.detail(key);
    },
    async keys({ keys }, ctx) {
      return packed(await session.setKeys(keys), ctx);
    },
    async graph({ expanded }, ctx) {
      const { parts, shell } = splitGraph(session.graph(expanded), graphPart);
      for (const part of parts) ctx.part(part);
      return shell;
    },
    async timeline(_, ctx) {
      const pack = packTimeline(session.timeline());
      ctx.transfer(...timelineBuffers(pack));
      return pack;
    },
    async folds({ asOf }) {
      return session.folds(asOf);
    },
    async report() {
      return session.report();
    },
    async share({ view, redact, bundle, unblankable, records }, ctx) {
      const shared = await session.share({ ...view, selected: null }, redact, bundle, unblankable, records);
      if (shared.bundle) ctx.transfer(shared.bundle.buffer);
      return shared;
    },
    async clear() {
      session.clear();
      return null;
    },
    async compare(subject) {
      return session.compare(subject);
    },
    async compareCandidates({ text, near, limit }) {
      return session.compareCandidates(text, near, limit);
    },
  };
}
