// Builds the sample conversation tree of the laser-sdk 0.7 dialect with the project's own encoder
// (test/support/session-writer.ts): two sessions, "booker"'s spawned by "planner"'s, a pause with
// parked work unparked after the resume, a budget, a failed tool call, state and context events.
// Writes vectors/agdx/sessions/sessions_tree_http_v07.json and its copy in public/samples/.
// Run: npx tsx scripts/make-sessions.ts   (deterministic; the output is committed).
import { writeFileSync } from 'node:fs';
import type { Envelope } from '../src/core/agdx/envelope';
import {
  cborBody,
  endBody,
  iggyExport,
  parkingBody,
  positionBytes,
  sessionId,
  sessionStatus,
  startBody,
  transitionBody,
  usage,
  type SessionRecord,
} from '../test/support/session-writer';

const te = new TextEncoder();
const json = (v: unknown) => te.encode(JSON.stringify(v));
const START_MS = 1764633600000; // 2025-12-02T00:00:00Z
const s = 1_000_000; // µs
let n = 0;
/** A record id: a ULID of its time, then a counter. */
const rec = (at: number) => sessionId(0x5e0000 + ++n, START_MS + Math.floor(at / 1000));
const planning = sessionId(0xa1, START_MS);
const booking = sessionId(0xb1, START_MS + 4000);
const callModel = sessionId(0xc1, START_MS + 2000);
const callTool = sessionId(0xc2, START_MS + 6000);
const retryTool = sessionId(0xc3, START_MS + 14000);
const bookingModel = sessionId(0xc4, START_MS + 16000);
const handoff = sessionId(0xc5, START_MS + 4000);
const lineage = { parent: planning, root: planning };
const topic = { stream: 1, topic: 2, partition: 1 };

const records: SessionRecord[] = [];
const add = (at: number, env: Omit<Envelope, 'record'>) => {
  records.push({ at, env: { ...env, record: rec(at) } as Envelope });
  return records.length - 1;
};
const status = (at: number, conv: Uint8Array, source: string, state: number, body: Uint8Array, extra: Partial<Envelope> = {}) =>
  add(at, { ...sessionStatus(conv, new Uint8Array(), source, state, body), ...extra });

// planner's session: submitted with a budget, started.
status(
  0,
  planning,
  'planner',
  1,
  startBody({ label: 'Trip planning', namespace: 'travel', agent: 'planner', budget: { tokens: 20000n, cost_micros: 60000n }, tags: ['demo'] }),
);
status(1 * s, planning, 'planner', 2, startBody({ agent: 'planner' }));
const ask = add(2 * s, {
  kind: 'command',
  conversation: planning,
  source: 'planner',
  correlation: callModel,
  operation: 'chat',
  body: json({ prompt: 'Plan a trip to Lisbon' }),
});
const answer = add(3 * s, {
  kind: 'response',
  conversation: planning,
  source: 'planner',
  correlation: callModel,
  cause: records[ask].env.record,
  operation: 'chat',
  finish_reason: 'stop',
  usage: usage(1200, 300, 4200),
  body: json({ text: 'Book flights, then a hotel.' }),
});
add(3.5 * s, {
  kind: 'event',
  conversation: planning,
  source: 'planner',
  operation: 'context_assembled',
  body: cborBody({
    policy: 'recent',
    policy_version: '1',
    fragments: [
      { Message: { at: { Message: { ...topic, offset: BigInt(ask), generation: 3n } }, tokens: 12, bytes: 48 } },
      { Message: { at: { Message: { ...topic, offset: BigInt(answer), generation: 3n } }, tokens: 9, bytes: 36 } },
    ],
    tokens: 21n,
    bytes: 84n,
    frontier: [[2, 1, BigInt(answer)]],
    correlation: callModel,
  }),
});
add(4 * s, {
  kind: 'command',
  conversation: planning,
  source: 'planner',
  target: 'booker',
  correlation: handoff,
  operation: 'invoke_agent',
  body: json({ task: 'book flights' }),
});

// booker's session, spawned by planner's: started, a tool call that fails, a pause.
status(
  4.5 * s,
  booking,
  'booker',
  1,
  startBody({ label: 'Book flights', namespace: 'travel', agent: 'booker', ...lineage, budget: { tokens: 5000n } }),
  lineage,
);
status(5 * s, booking, 'booker', 2, startBody({ agent: 'booker', ...lineage }), lineage);
add(5.5 * s, {
  kind: 'event',
  conversation: booking,
  ...lineage,
  source: 'booker',
  operation: 'state_snapshot',
  body: cborBody({ base_revision: 1n, document: { step: 'search', flights: [] } }),
});
add(6 * s, {
  kind: 'command',
  conversation: booking,
  ...lineage,
  source: 'booker',
  correlation: callTool,
  operation: 'execute_tool',
  tool: 'flights.search',
  body: json({ to: 'LIS' }),
});
add(7 * s, {
  kind: 'error',
  conversation: booking,
  ...lineage,
  source: 'booker',
  correlation: callTool,
  operation: 'execute_tool',
  tool: 'flights.search',
  body: cborBody({ code: 6, message: 'flights.search timed out', retryable: true }),
});
const pause = status(8 * s, booking, 'booker', 10, transitionBody('booker'), lineage);
// Work that arrives while booker's session is paused is parked, and unparked after the resume.
const held = add(9 * s, {
  kind: 'command',
  conversation: booking,
  ...lineage,
  source: 'planner',
  target: 'booker',
  correlation: sessionId(0xc6, START_MS + 9000),
  operation: 'chat',
  body: json({ note: 'window seat' }),
});
const parking = parkingBody({ ...topic, offset: held, generation: 3 }, 'booker', positionBytes({ ...topic, offset: pause }));
add(10 * s, { kind: 'event', conversation: booking, ...lineage, source: 'booker', operation: 'session_parked', body: parking });
status(12 * s, booking, 'booker', 2, transitionBody('booker'), lineage);
add(13 * s, { kind: 'event', conversation: booking, ...lineage, source: 'booker', operation: 'session_unparked', body: parking });
add(14 * s, {
  kind: 'command',
  conversation: booking,
  ...lineage,
  source: 'booker',
  correlation: retryTool,
  operation: 'execute_tool',
  tool: 'flights.search',
  body: json({ to: 'LIS' }),
});
add(15 * s, {
  kind: 'response',
  conversation: booking,
  ...lineage,
  source: 'booker',
  correlation: retryTool,
  operation: 'execute_tool',
  tool: 'flights.search',
  body: json({ flights: ['TP1351'] }),
});
add(15.5 * s, {
  kind: 'event',
  conversation: booking,
  ...lineage,
  source: 'booker',
  operation: 'state_delta',
  body: cborBody({
    base_revision: 1n,
    patch: [
      { op: 'replace', path: '/step', value: 'book' },
      { op: 'add', path: '/flights/-', value: 'TP1351' },
    ],
    op_id: 'booker-1',
  }),
});
add(16 * s, {
  kind: 'command',
  conversation: booking,
  ...lineage,
  source: 'booker',
  correlation: bookingModel,
  operation: 'chat',
  body: json({ prompt: 'Confirm TP1351' }),
});
add(17 * s, {
  kind: 'response',
  conversation: booking,
  ...lineage,
  source: 'booker',
  correlation: bookingModel,
  operation: 'chat',
  finish_reason: 'stop',
  usage: usage(900, 200, 2100),
  body: json({ text: 'Booked TP1351.' }),
});
status(18 * s, booking, 'booker', 4, endBody('booked'), lineage);

// planner hears back and ends its session.
add(19 * s, {
  kind: 'response',
  conversation: planning,
  source: 'booker',
  target: 'planner',
  correlation: handoff,
  operation: 'invoke_agent',
  body: json({ booked: 'TP1351' }),
});
status(20 * s, planning, 'planner', 4, endBody('done'));

const text = iggyExport(records, { start: START_MS * 1000, firstOffset: 0, partition: topic.partition });
writeFileSync('vectors/agdx/sessions/sessions_tree_http_v07.json', text);
writeFileSync('public/samples/sessions_tree_http_v07.json', text);
console.log(`wrote ${records.length} records`);
