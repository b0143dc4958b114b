// The worker's handler table, driven as the worker entry drives it (answer → post), without a Worker.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { GraphRender } from '../wire/graph';
import { joinGraph } from '../wire/graph-parts';
import type { Handlers, Loaded, Part, RecordDetail, Reply, RequestType, WireMessage, WireRequest } from '../wire/protocol';
import { unpackSummaries, type SummaryPack } from '../wire/summary-pack';
import { DEADLINE, MARK, readDeadline, readMark, rows, timelineBuffers } from '../wire/timeline-pack';
import { answer } from './answer';
import { inspectorHandlers } from './handlers';
import { InspectorSession } from './session';

const root = resolve(__dirname, '../..');
const vectorBlob = (p: string) => new Blob([new Uint8Array(readFileSync(resolve(root, 'vectors', p)))]);
const small = () => [
  { name: 'signed_command.bin', data: vectorBlob('agdx/made/signed_command.bin') },
  { name: 'agent_command.bin', data: vectorBlob('agdx/laser-wire-0.0.1/agent_command.bin') },
];

type Posted = { message: WireMessage; transfer: Transferable[] };

/** Answers one request; what it posted, in order. */
function ask(handlers: Handlers, req: WireRequest, posted: Posted[] = []): Promise<Posted[]> {
  return answer(handlers, req, (message, transfer) => posted.push({ message, transfer })).then(() => posted);
}

/** The reply a request ended with (the last message posted). */
function replyOf<K extends RequestType>(_type: K, posted: Posted[]): Reply<K> {
  const last = posted.at(-1)!.message;
  if (last.kind !== 'reply') throw new Error(`expected a reply, got ${JSON.stringify(last)}`);
  return last.reply as Reply<K>;
}

/** The parts posted ahead of the reply, each with what it handed over. */
function partsOf<K extends RequestType>(_type: K, posted: Posted[]): Array<{ part: Part<K>; transfer: Transferable[] }> {
  return posted.flatMap((p) => (p.message.kind === 'part' ? [{ part: p.message.part as Part<K>, transfer: p.transfer }] : []));
}

describe('the worker handler table', () => {
  it('a streamed load: the input it reads and each batch as parts, then the reply; summaries are handed over, not copied', async () => {
    const { agdxSequence } = await import('../../test/support/generate');
    const handlers = inspectorHandlers(new InspectorSession(), { drawWaitMs: 0 });
    const inputs = [{ name: 'big.cborseq', data: new Blob([agdxSequence(4500, { signedEvery: 1_000_000 }).slice()]) }, ...small()];
    const posted = await ask(handlers, { id: 7, type: 'load', body: { inputs, stream: true } });
    expect(posted.every((p) => p.message.id === 7)).toBe(true);
    const parts = partsOf('load', posted);
    expect(parts).toHaveLength(posted.length - 1);
    expect(parts.flatMap(({ part }) => (part.type === 'reading' ? [part.at] : []))).toEqual([0, 1, 2]);
    const batches = parts.flatMap(({ part, transfer }) => (part.type === 'batch' ? [{ part, transfer }] : []));
    expect(batches.length).toBeGreaterThan(2);
    for (const { part, transfer } of batches) expect(transfer).toEqual([part.records.cols.buffer]);
    expect(batches.reduce((n, { part }) => n + part.records.count, 0)).toBe(4502);
    const reply = replyOf('load', posted);
    expect(reply.cancelled).toBe(false);
    // Streamed inputs come with their batches; the reply brings what was not sent in one.
    expect([...new Set(batches.flatMap(({ part }) => part.inputs.map((i) => i.name)))]).toEqual(['big.cborseq', 'signed_command.bin', 'agent_command.bin']);
    expect(posted.at(-1)!.transfer).toEqual([reply.records.cols.buffer]);
  });

  it('a streamed load sends the re-judged summaries of records it already sent as verdicts parts, not in its reply; applied in order they are what the whole load gives', async () => {
    const { agdxSequence } = await import('../../test/support/generate');
    // Causes named before their records: the load's end changes many earlier verdicts.
    const bytes = agdxSequence(4500, { signedEvery: 1_000_000 });
    const inputs = () => [{ name: 'big.cborseq', data: new Blob([bytes.slice()]) }];
    const posted = await ask(inspectorHandlers(new InspectorSession(), { drawWaitMs: 0 }), { id: 1, type: 'load', body: { inputs: inputs(), stream: true } });
    const byKey = new Map<number, unknown>();
    const batched = new Set<number>();
    let verdicts = 0;
    for (const { part, transfer } of partsOf('load', posted)) {
      if (part.type === 'reading') continue;
      expect(transfer).toEqual([part.records.cols.buffer]);
      for (const r of unpackSummaries(part.records)) {
        if (part.type === 'batch') batched.add(r.key);
        else {
          expect(batched.has(r.key)).toBe(true);
          verdicts++;
        }
        byKey.set(r.key, r);
      }
    }
    expect(verdicts).toBeGreaterThan(0);
    expect(replyOf('load', posted).records.count).toBe(0);
    const whole = replyOf('load', await ask(inspectorHandlers(new InspectorSession()), { id: 1, type: 'load', body: { inputs: inputs() } }));
    expect([...byKey.values()].sort((a, b) => (a as { key: number }).key - (b as { key: number }).key)).toEqual(unpackSummaries(whole.records));
  });

  it('a load waits for the page to draw its first records (shown), and stops between batches when cancelled', async () => {
    const { agdxSequence } = await import('../../test/support/generate');
    // A draw wait far longer than the test: only `shown` can release it.
    const handlers = inspectorHandlers(new InspectorSession(), { drawWaitMs: 60_000 });
    const inputs = [{ name: 'big.cborseq', data: new Blob([agdxSequence(9000, { signedEvery: 1_000_000 }).slice()]) }];
    const posted: Posted[] = [];
    const loading = ask(handlers, { id: 1, type: 'load', body: { inputs, stream: true } }, posted);
    await vi.waitFor(() => expect(partsOf('load', posted).some(({ part }) => part.type === 'batch')).toBe(true));
    expect(await ask(handlers, { id: 2, type: 'cancel', body: { load: 1 } })).toEqual([{ message: { id: 2, kind: 'reply', reply: null }, transfer: [] }]);
    expect(posted.some((p) => p.message.kind === 'reply')).toBe(false);
    await ask(handlers, { id: 3, type: 'shown', body: { load: 1 } });
    const reply: Loaded = replyOf('load', await loading);
    expect(reply.cancelled).toBe(true);
    const read = partsOf('load', posted).reduce((n, { part }) => n + (part.type === 'batch' ? part.records.count : 0), 0);
    expect(read).toBeGreaterThan(0);
    expect(read).toBeLessThan(9000);
  });

  it('a large graph comes in parts, then its shell; joined, it is the graph the session drew', async () => {
    const session = new InspectorSession();
    const handlers = inspectorHandlers(session, { graphPart: 1 });
    await ask(handlers, { id: 1, type: 'load', body: { inputs: small() } });
    const posted = await ask(handlers, { id: 2, type: 'graph', body: { expanded: [] } });
    const parts = partsOf('graph', posted).map(({ part }) => part);
    expect(parts.length).toBeGreaterThan(1);
    const shell: GraphRender = replyOf('graph', posted);
    expect(shell.nodes).toEqual([]);
    const whole = session.graph([]);
    const joined = joinGraph(parts, shell);
    expect(joined.nodes).toEqual(whole.nodes);
    expect(joined.edges).toEqual(whole.edges);
  });

  it('the timeline: packed, its buffers handed over, its marks drawn with the verdicts the page has', async () => {
    const handlers = inspectorHandlers(new InspectorSession());
    await ask(handlers, {
      id: 1,
      type: 'load',
      body: { inputs: [{ name: 'deadlines.cborseq', data: vectorBlob('agdx/made/deadlines.cborseq') }, ...small()] },
    });
    const posted = await ask(handlers, { id: 2, type: 'timeline', body: {} });
    const pack = replyOf('timeline', posted);
    expect(posted.at(-1)!.transfer).toEqual(timelineBuffers(pack));
    expect(rows(pack.marks, MARK.STRIDE)).toBe(14);
    // The two commands' ULID times are weeks after the conversation's.
    expect(pack.lanes).toEqual(['planner', 'pricer', 'booker', 'mailer', 'source-agent']);
    // The missed deadline, with its answer.
    const missed = Array.from({ length: rows(pack.deadlines, DEADLINE.STRIDE) }, (_, i) => readDeadline(pack, i)).filter((d) => d.state === 'missed');
    expect(missed).toEqual([expect.objectContaining({ command: 0, answer: 7, missedBy: 2_500_000 })]);
    // signed_command.bin: signed by a key the (empty) registry does not hold.
    const marks = Array.from({ length: 14 }, (_, i) => readMark(pack, i));
    expect(marks.find((m) => m.record === 12)!.verdict).toBe('unknown-key');
  });

  it('replies typed by the map: a filter hands its keys over, a detail comes whole, keys re-verify', async () => {
    const handlers = inspectorHandlers(new InspectorSession());
    await ask(handlers, { id: 1, type: 'load', body: { inputs: small() } });
    const filtered = await ask(handlers, { id: 2, type: 'filter', body: { filter: { validity: 'valid' } } });
    const { keys, total } = replyOf('filter', filtered);
    expect(total).toBe(2);
    expect(filtered.at(-1)!.transfer).toEqual([keys.buffer]);
    const detail = replyOf('detail', await ask(handlers, { id: 3, type: 'detail', body: { key: 0 } })) as RecordDetail;
    expect(detail.key).toBe(0);
    expect(replyOf('detail', await ask(handlers, { id: 4, type: 'detail', body: { key: 99 } }))).toBeNull();
    const changed: SummaryPack = replyOf('keys', await ask(handlers, { id: 5, type: 'keys', body: { keys: [] } }));
    expect(unpackSummaries(changed)).toEqual([]);
  });

  it('a handler that throws answers with the one failure reply, and so does a request with no handler', async () => {
    const handlers: Handlers = {
      ...inspectorHandlers(new InspectorSession()),
      report: async () => {
        throw new Error('no report today');
      },
    };
    expect(await ask(handlers, { id: 4, type: 'report', body: {} })).toEqual([
      { message: { id: 4, kind: 'failed', message: 'no report today' }, transfer: [] },
    ]);
    const unknown = { id: 5, type: 'frobnicate', body: {} } as unknown as WireRequest;
    expect(await ask(handlers, unknown)).toEqual([{ message: { id: 5, kind: 'failed', message: 'no handler for request frobnicate' }, transfer: [] }]);
    const inherited = { id: 6, type: 'toString', body: {} } as unknown as WireRequest;
    expect((await ask(handlers, inherited))[0].message.kind).toBe('failed');
  });
});
