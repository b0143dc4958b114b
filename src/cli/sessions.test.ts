// The session fold through the command line: `inspect --json` over the sample conversation tree
// (its sessions, none of the lifecycle findings) and over logs crafted to break each lifecycle rule
// (one test per rule: the finding on the record it concerns, and only there).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Envelope } from '../core/agdx/envelope';
import {
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
} from '../../test/support/session-writer';
import { SESSION_RULES } from '../core/folds/model';
import type { Report } from '../core/report';
import { run, type CliIo } from './main';

const root = resolve(__dirname, '../..');
const te = new TextEncoder();

async function inspect(files: Record<string, Uint8Array>): Promise<{ code: number; report: Report }> {
  let out = '';
  const io: CliIo = {
    readFile: async (p) => files[p] ?? new Uint8Array(readFileSync(resolve(root, p))),
    readStdin: async () => new Uint8Array(),
    stdout: (t) => (out += t),
    stderr: () => {},
  };
  const code = await run(['inspect', '--json', ...Object.keys(files)], io);
  return { code, report: JSON.parse(out) as Report };
}

const SAMPLE = 'vectors/agdx/sessions/sessions_tree_http_v07.json';
const sessionRules: readonly string[] = Object.values(SESSION_RULES);
const sessionFindings = (r: Report) =>
  r.records.flatMap((x, i) => x.findings.filter((f) => sessionRules.includes(f.rule)).map((f) => ({ record: i, rule: f.rule, path: f.path })));

/** A crafted log: one session (conversation 0xA1) written with the project's encoder, as an Iggy 0.7 export. */
function crafted(build: (conv: Uint8Array, add: (env: Omit<Envelope, 'record' | 'conversation'>) => number) => void): Record<string, Uint8Array> {
  const conv = sessionId(0xa1, 1764633600000);
  const records: SessionRecord[] = [];
  build(conv, (env) => {
    const n = records.length;
    records.push({ at: n * 1_000_000, env: { ...env, conversation: conv, record: sessionId(0x100 + n, 1764633600000 + n * 1000) } as Envelope });
    return n;
  });
  return { 'crafted.json': te.encode(iggyExport(records, { start: 1764633600000000 })) };
}
const status = (conv: Uint8Array, state: number, body: Uint8Array) => {
  const { record: _r, conversation: _c, ...rest } = sessionStatus(conv, new Uint8Array(), 'planner', state, body);
  return rest;
};
const started = (conv: Uint8Array, budget?: { tokens?: bigint; cost_micros?: bigint }) => status(conv, 2, startBody({ agent: 'planner', budget }));

describe('inspect --json over the sample conversation tree', () => {
  it('lists both sessions with their states in order, the parent, budget and cost, and no lifecycle finding', async () => {
    const { code, report } = await inspect({ [SAMPLE]: new Uint8Array(readFileSync(resolve(root, SAMPLE))) });
    expect(code).toBe(0);
    const [planner, booker] = report.sessions;
    expect(planner).toMatchObject({ label: 'Trip planning', agent: 'planner', parent: null, terminal: 'completed', end: { reason: 'done' } });
    expect(planner.budget).toEqual({ tokens: '20000', cost_micros: '60000' });
    expect(planner.usage.cost_micros).toBe('4200');
    expect(booker.history.map((h) => h.state)).toEqual(['submitted', 'working', 'paused', 'working', 'completed']);
    expect(booker.parent).toBe(planner.conversation);
    expect(booker.root).toBe(planner.conversation);
    expect(booker.parked).toHaveLength(1);
    expect(booker.parked[0]).toMatchObject({ role: 'booker', parked_record: 13, unparked_record: 15, source_record: 12 });
    expect(sessionFindings(report)).toEqual([]);
    expect(report.conversations.find((c) => c.id === planner.conversation)!.usage_total.cost_micros).toBe('4200');
  });
});

describe('inspect --json over a log crafted to break each lifecycle rule', () => {
  it(`${SESSION_RULES.transition}: a resume of a session that was never paused`, async () => {
    const files = crafted((conv, add) => {
      add(status(conv, 1, startBody({ agent: 'planner' })));
      add(status(conv, 2, transitionBody('planner')));
      add(status(conv, 2, transitionBody('planner')));
    });
    const { report } = await inspect(files);
    expect(sessionFindings(report)).toEqual([{ record: 2, rule: SESSION_RULES.transition, path: 'task_state' }]);
    expect(report.sessions[0].history.map((h) => h.disallowed)).toEqual([false, false, true]);
  });

  it(`${SESSION_RULES.afterEnd}: a tool call after the session completed`, async () => {
    const files = crafted((conv, add) => {
      add(started(conv));
      add(status(conv, 4, endBody('done')));
      add({ kind: 'command', source: 'planner', correlation: sessionId(0xc1), operation: 'execute_tool', tool: 'search', body: te.encode('{}') });
    });
    const { report } = await inspect(files);
    expect(sessionFindings(report)).toEqual([{ record: 2, rule: SESSION_RULES.afterEnd, path: 'conversation' }]);
    expect(report.sessions[0]).toMatchObject({ state: 'completed', terminal: 'completed' });
  });

  it(`${SESSION_RULES.neverUnparked}: work parked while paused, and the session canceled without unparking it`, async () => {
    const files = crafted((conv, add) => {
      add(started(conv));
      const pause = add(status(conv, 10, transitionBody('planner')));
      const held = add({ kind: 'command', source: 'critic', target: 'planner', correlation: sessionId(0xc2), operation: 'chat', body: te.encode('{}') });
      const at = { stream: 1, topic: 2, partition: 1 };
      add({
        kind: 'event',
        source: 'planner',
        operation: 'session_parked',
        body: parkingBody({ ...at, offset: held, generation: 3 }, 'planner', positionBytes({ ...at, offset: pause })),
      });
      add(status(conv, 5, endBody('canceled by operator')));
    });
    const { report } = await inspect(files);
    expect(sessionFindings(report)).toEqual([{ record: 3, rule: SESSION_RULES.neverUnparked, path: 'body.source' }]);
    expect(report.sessions[0].parked).toMatchObject([{ parked_record: 3, unparked_record: null, source_record: 2 }]);
  });

  it(`${SESSION_RULES.overBudget}: a model response whose tokens pass the session's budget`, async () => {
    const files = crafted((conv, add) => {
      add(started(conv, { tokens: 1000n }));
      add({ kind: 'response', source: 'planner', correlation: sessionId(0xc3), operation: 'chat', usage: usage(600, 100, 10), body: te.encode('{}') });
      add({ kind: 'response', source: 'planner', correlation: sessionId(0xc4), operation: 'chat', usage: usage(300, 100, 10), body: te.encode('{}') });
      add({ kind: 'response', source: 'planner', correlation: sessionId(0xc5), operation: 'chat', usage: usage(300, 100, 10), body: te.encode('{}') });
    });
    const { report } = await inspect(files);
    expect(sessionFindings(report)).toEqual([{ record: 2, rule: SESSION_RULES.overBudget, path: 'usage' }]);
    expect(report.sessions[0].over_budget).toEqual({ record: 2, dimension: 'tokens', ceiling: '1000', spent: '1100' });
    expect(report.sessions[0].tokens).toBe('1500');
  });
});
