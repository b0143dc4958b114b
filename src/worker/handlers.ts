// The inspector worker's handler table: one handler per request of the protocol (src/wire/protocol.ts),
// each given its body and a context, returning its reply. Each part of the session keeps the
// handlers of its own requests beside its code (loading.ts, keys.ts, sharing.ts, views.ts,
// queries.ts); the table is theirs put together, each request in one of them only. `answer`
// (./answer.ts) runs one request through the table and posts what comes of it; a handler's error
// becomes the one failure reply. Kept apart from the worker entry so it can be tested without a Worker.
import type { Handlers } from '../wire/protocol';
import { keysHandlers } from './keys';
import { loadingHandlers } from './loading';
import { queriesHandlers } from './queries';
import type { InspectorSession } from './session';
import { sharingHandlers } from './sharing';
import { viewsHandlers } from './views';

export interface HandlerOptions {
  /** Nodes (and edges) per part of a large graph. */
  graphPart?: number;
  /** How long a load waits for the page to draw its first records. */
  drawWaitMs?: number;
}

/** The handlers over one session (the table's type says every request has one). */
export function inspectorHandlers(session: InspectorSession, { graphPart, drawWaitMs }: HandlerOptions = {}): Handlers {
  return oneHomeEach(
    loadingHandlers(session.loading, { drawWaitMs }),
    keysHandlers(session.keys),
    sharingHandlers(session.sharing),
    viewsHandlers(session.views),
    queriesHandlers(session.queries, { graphPart }),
  );
}

/** Every table of `T` in one: what the type checker holds against Handlers (a request no part answers fails to compile). */
type Joined<T extends readonly object[]> = T extends readonly [infer First, ...infer Rest extends readonly object[]] ? First & Joined<Rest> : unknown;

/** The parts' tables as one; a request two parts both answer is a mistake (the later would win unseen): TypeError. */
function oneHomeEach<T extends readonly object[]>(...tables: T): Joined<T> {
  const table: Record<string, unknown> = {};
  for (const part of tables)
    for (const [type, handler] of Object.entries(part)) {
      if (Object.hasOwn(table, type)) throw new TypeError(`two handlers for request ${type}`);
      table[type] = handler;
    }
  return table as Joined<T>;
}
