// Runs one request of a request→reply map (src/wire/protocol.ts: the inspector's Protocol, the
// verifier pool's VerifyProtocol) through its handler and posts what comes of it: its parts as they
// come, then its reply, or the one failure (the handler's error, or a request no handler takes).
import type { ContextOf, HandlerOf, HandlersOf, MessageOf, RequestMap, RequestOf } from '../wire/protocol';

/** Where messages go (a worker's postMessage). */
export type PostOf<M extends RequestMap<M>> = (message: MessageOf<M>, transfer: Transferable[]) => void;

export async function answer<M extends RequestMap<M>>(handlers: HandlersOf<M>, req: RequestOf<M>, post: PostOf<M>): Promise<void> {
  const { id } = req;
  const transfers: Transferable[] = [];
  const ctx: ContextOf<M, keyof M> = {
    id,
    part: (part, transfer = []) => post({ id, kind: 'part', part } as MessageOf<M>, transfer),
    transfer: (...buffers) => void transfers.push(...buffers),
  };
  try {
    if (!Object.hasOwn(handlers, req.type)) throw new TypeError(`no handler for request ${String(req.type)}`);
    // The map types each handler; here, one request of any type meets its own handler.
    const handler = handlers[req.type] as HandlerOf<M, keyof M>;
    const reply = await handler(req.body as never, ctx);
    post({ id, kind: 'reply', reply } as MessageOf<M>, transfers);
  } catch (e) {
    post({ id, kind: 'failed', message: (e as Error)?.message ?? String(e) }, []);
  }
}
