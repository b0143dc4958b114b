import * as ed from '@noble/ed25519';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeEnvelope } from '../agdx/canonical';
import type { Envelope, MetaValue } from '../agdx/envelope';
import { signingInput } from '../agdx/verify';
import { concatBytes, fromHex } from '../bytes';
import { CborWriter } from '../cbor/encoder';
import { Conversation, factsOf, hops, id16, makeRecord, text } from '../../../test/support/graph-helpers';
import { inspect } from '../inspect';
import { keyId, type RegisteredKey } from '../keys/keys';
import type { SignatureVerdict } from '../model';
import { logFactsOf, type InspectedRecord } from '../records';
import { analyzeLog, refoldLog } from '../analysis/log';
import { isValid } from '../verdict';
import { decodeCard } from '../agdx/card';
import { FOLD_RULES, foldLog, foldPrepared, logOrderRecords, prepareFold, toReportFolds, type FoldOptions, type FoldResult } from './index';

const root = resolve(__dirname, '../../..');

/** The fold of test records (over their log entries). */
const foldRecords = (records: readonly InspectedRecord[], options?: FoldOptions) => foldLog(factsOf(records), options);
const S = 1_000_000n; // one second in µs

// ── builders ────────────────────────────────────────────────────────────────

interface CapSpec {
  skill: string;
  input?: [string, string];
  output?: [string, string];
  cost?: number;
  latency?: number;
  max?: number;
  health?: number;
  load?: number;
}

/** An AgentCard body, written as serde + ciborium would (declaration order, absent optionals left out). */
function cardBody(spec: { name?: string; version?: string; caps?: CapSpec[]; ttl?: bigint }): Uint8Array {
  const fields = [spec.name !== undefined, spec.version !== undefined, spec.caps !== undefined, spec.ttl !== undefined].filter(Boolean).length;
  const w = new CborWriter().head(5, fields);
  if (spec.name !== undefined) w.text('name').text(spec.name);
  if (spec.version !== undefined) w.text('version').text(spec.version);
  if (spec.caps !== undefined) {
    w.text('capabilities').head(4, spec.caps.length);
    for (const c of spec.caps) {
      const entries: [string, (w: CborWriter) => void][] = [['skill_id', (x) => x.text(c.skill)]];
      if (c.input) entries.push(['input', (x) => x.head(5, 1).text(c.input![0]).text(c.input![1])]);
      if (c.output) entries.push(['output', (x) => x.head(5, 1).text(c.output![0]).text(c.output![1])]);
      if (c.cost !== undefined) entries.push(['cost_class', (x) => x.uint(c.cost!)]);
      if (c.latency !== undefined) entries.push(['latency_class', (x) => x.uint(c.latency!)]);
      if (c.max !== undefined) entries.push(['max_concurrency', (x) => x.uint(c.max!)]);
      if (c.health !== undefined) entries.push(['health', (x) => x.uint(c.health!)]);
      if (c.load !== undefined) entries.push(['load', (x) => x.uint(c.load!)]);
      w.head(5, entries.length);
      for (const [k, put] of entries) put(w.text(k));
    }
  }
  if (spec.ttl !== undefined) w.text('ttl_micros').uint(spec.ttl);
  return w.finish();
}

const verdict = (v: Partial<SignatureVerdict> & Pick<SignatureVerdict, 'status'>): SignatureVerdict => ({
  scheme: v.status === 'unsigned' ? null : 'ed25519',
  key_id: v.status === 'unsigned' ? null : 'a1b2c3d4e5f60718',
  signer: null,
  trusted: false,
  context_match: null,
  not_covered: [],
  reason: '',
  ...v,
});
const OPERATOR = verdict({ status: 'valid', trusted: true, signer: 'ops', reason: 'valid under key a1b2c3d4e5f60718: registered operator key of ops' });
const AGENT_KEY = verdict({
  status: 'valid',
  trusted: false,
  signer: 'planner',
  reason: 'valid under key a1b2c3d4e5f60718: a quarantine must be signed by an operator key; key a1b2c3d4e5f60718 is an agent key of planner',
});

const run = (id: string): Map<string, MetaValue> => new Map([['run', { type: 'text', value: id }]]);
const body = text('{}');
const usage = (input: number, output: number, more: Partial<Envelope['usage']> = {}) => ({ input_tokens: input, output_tokens: output, ...more });

/** Records whose rule fired, as [recordIndex, rule]. */
const fired = (f: FoldResult, rule?: string) => f.findings.filter((x) => !rule || x.finding.rule === rule).map((x) => x.recordIndex);
const agentOf = (f: FoldResult, id: string) => f.agents.find((a) => a.id === id)!;

let nextId = 1;
/** A record id whose ULID time is 0 (no time): the tests give log times explicitly. */
const rid = () => id16(nextId++);

// ── agents: cards and liveness ──────────────────────────────────────────────

describe('agents: the latest card and liveness', () => {
  function expiring() {
    const c = new Conversation();
    const card = cardBody({
      name: 'booker',
      version: '2.1.0',
      caps: [{ skill: 'book', input: ['content_type', 'json'], output: ['schema_id', 'booking.v1'], cost: 2, latency: 1, max: 8, health: 2, load: 250 }],
      ttl: 5n * S,
    });
    c.add({ kind: 'status', source: 'booker', record: rid(), operation: 'card', body: card }, { logTime: 1n * S }); // 0
    c.add({ kind: 'command', source: 'planner', target: 'booker', record: rid(), correlation: rid(), body }, { logTime: 2n * S }); // 1
    c.add({ kind: 'response', source: 'booker', target: 'planner', record: rid(), correlation: rid(), body }, { logTime: 3n * S }); // 2
    c.add({ kind: 'response', source: 'booker', target: 'planner', record: rid(), correlation: rid(), body }, { logTime: 6n * S }); // 3: exactly at expiry
    c.add({ kind: 'event', source: 'booker', record: rid(), body }, { logTime: 7n * S }); // 4: after expiry
    return c;
  }

  it('decodes the card (name, version, capabilities with skill, shapes, classes, concurrency, health, load)', () => {
    const f = foldRecords(expiring().records);
    const booker = agentOf(f, 'booker');
    expect(booker.card).toMatchObject({ recordIndex: 0, time: 1n * S, expiresAt: 6n * S });
    expect(booker.card!.card).toEqual({
      name: 'booker',
      version: '2.1.0',
      ttlMicros: 5n * S,
      capabilities: [
        {
          skillId: 'book',
          input: { kind: 'content_type', value: 'json' },
          output: { kind: 'schema_id', value: 'booking.v1' },
          costClass: 2,
          latencyClass: 1,
          maxConcurrency: 8,
          health: 2,
          healthName: 'degraded',
          load: 250,
        },
      ],
    });
    expect(booker.cardCount).toBe(1);
    expect(booker.ttlMicros).toBe(5n * S);
  });

  it("a card older than its ttl_micros at the log's time means a dead agent; its later records are flagged dead", () => {
    const f = foldRecords(expiring().records);
    expect(f.now).toBe(7n * S);
    const booker = agentOf(f, 'booker');
    expect(booker.alive).toBe(false);
    expect(booker.aliveReason).toMatch(/^dead: its latest card \(record 0, .*\) has ttl_micros 5000000 and expired at 1970-01-01T00:00:06.000Z/);
    // The record at exactly card time + ttl is not older than the ttl; the one after it is.
    expect(fired(f, FOLD_RULES.dead)).toEqual([4]);
    const dead = f.findings.find((x) => x.finding.rule === FOLD_RULES.dead)!.finding;
    expect(dead).toMatchObject({ severity: 'warning', path: 'source' });
    expect(dead.message).toContain('record 0');
    // planner sent no card: liveness unknown, never flagged.
    expect(agentOf(f, 'planner')).toMatchObject({ alive: null, card: null });
    expect(agentOf(f, 'planner').aliveReason).toContain('no card');
  });

  it('asOf before the expiry shows the agent alive', () => {
    const f = foldRecords(expiring().records, { asOf: 2 });
    expect(f.folded).toBe(3);
    expect(f.asOf).toEqual({ position: 2, recordIndex: 2, time: 3n * S });
    expect(agentOf(f, 'booker').alive).toBe(true);
    expect(agentOf(f, 'booker').aliveReason).toMatch(/valid until .*the log's time is 1970-01-01T00:00:03.000Z/);
    expect(f.findings).toEqual([]);
  });

  it('a fresh card revives the agent; a card without ttl_micros never expires; a card that does not decode keeps the previous one', () => {
    const c = expiring();
    c.add({ kind: 'status', source: 'booker', record: rid(), operation: 'card', body: cardBody({ name: 'booker', ttl: 5n * S }) }, { logTime: 8n * S }); // 5
    c.add({ kind: 'event', source: 'booker', record: rid(), body }, { logTime: 9n * S }); // 6
    c.add({ kind: 'status', source: 'planner', record: rid(), operation: 'card', body: cardBody({ name: 'planner' }) }, { logTime: 9n * S }); // 7
    c.add({ kind: 'status', source: 'booker', record: rid(), operation: 'card', body: text('not cbor') }, { logTime: 10n * S }); // 8
    const f = foldRecords(c.records);
    expect(fired(f, FOLD_RULES.dead)).toEqual([4]);
    const booker = agentOf(f, 'booker');
    expect(booker).toMatchObject({ alive: true, cardCount: 3, card: { recordIndex: 5 } });
    expect(booker.cardProblems).toEqual([{ recordIndex: 8, message: expect.stringContaining('not one CBOR item') }]);
    expect(agentOf(f, 'planner')).toMatchObject({ alive: true, ttlMicros: null });
    expect(agentOf(f, 'planner').aliveReason).toContain('no ttl_micros');
  });

  it('without any time (no log time, no ULID record id) liveness cannot be decided', () => {
    const c = new Conversation();
    c.add({ kind: 'status', source: 'booker', record: rid(), operation: 'card', body: cardBody({ ttl: 1n }) });
    c.add({ kind: 'event', source: 'booker', record: rid(), body });
    const f = foldRecords(c.records);
    expect(f.times).toEqual({ log: 0, ulid: 0, none: 2 });
    expect(f.now).toBeNull();
    expect(agentOf(f, 'booker').alive).toBeNull();
    expect(agentOf(f, 'booker').aliveReason).toContain('liveness cannot be decided without a time');
    expect(f.findings).toEqual([]);
  });

  it("a record's time falls back to the record id's ULID time (ms → µs)", () => {
    const c = new Conversation();
    const ulid = fromHex('01903c1faa0000000000000000000002')!;
    c.add({ kind: 'event', record: ulid, body });
    c.add({ kind: 'event', record: ulid, body }, { logTime: 5n });
    c.add({ kind: 'chunk', channel: rid(), correlation: rid(), sequence: 0, body });
    const times = factsOf(c.records).entries.map((e) => ({ time: e.time, source: e.timeSource }));
    expect(times).toEqual([
      { time: 0x01903c1faa00n * 1000n, source: 'ulid' },
      { time: 5n, source: 'log' },
      { time: null, source: null },
    ]);
  });

  it('the real AgentCard fixture decodes', () => {
    const d = decodeCard(new Uint8Array(readFileSync(resolve(root, 'vectors/agdx/laser-wire-0.0.1/agent_card.bin'))));
    expect(d.ok).toBe(true);
    if (!d.ok) return;
    expect(d.card).toMatchObject({ name: 'trip-planner', version: '1.4.2' });
    expect(d.card.capabilities).toHaveLength(2);
    expect(d.card.capabilities[0]).toMatchObject({
      skillId: 'chat',
      input: { kind: 'content_type', value: 'json' },
      output: { kind: 'content_type', value: 'json' },
    });
  });
});

// ── quarantine ──────────────────────────────────────────────────────────────

describe('quarantine: facts, their backing, and records sent while quarantined', () => {
  function quarantined(sig: SignatureVerdict, liftSig: SignatureVerdict = OPERATOR) {
    const c = new Conversation();
    c.add({ kind: 'event', source: 'booker', record: rid(), body }, { logTime: 1n * S }); // 0
    c.add(
      { kind: 'status', source: sig.signer === 'planner' ? 'planner' : 'ops', record: rid(), operation: 'quarantine', body: text('booker') },
      { logTime: 2n * S, signature: sig },
    ); // 1
    c.add({ kind: 'event', source: 'booker', record: rid(), body }, { logTime: 3n * S }); // 2
    c.add({ kind: 'status', source: 'ops', record: rid(), operation: 'unquarantine', body: text('booker') }, { logTime: 4n * S, signature: liftSig }); // 3
    c.add({ kind: 'event', source: 'booker', record: rid(), body }, { logTime: 5n * S }); // 4
    return c;
  }

  it('an operator-signed quarantine, then lifted: records during it are flagged, after it not', () => {
    const f = foldRecords(quarantined(OPERATOR).records);
    expect(f.quarantine.map((q) => [q.recordIndex, q.op, q.target, q.issuer, q.backing, q.applied])).toEqual([
      [1, 'quarantine', 'booker', 'ops', 'operator-signed', true],
      [3, 'unquarantine', 'booker', 'ops', 'operator-signed', true],
    ]);
    expect(f.quarantine[0].signature).toEqual({ status: 'valid', trusted: true, signer: 'ops', keyId: 'a1b2c3d4e5f60718', reason: OPERATOR.reason });
    expect(f.quarantine[0].sentence).toContain('signed by a trusted operator key (valid under key a1b2c3d4e5f60718: registered operator key of ops)');
    expect(fired(f, FOLD_RULES.quarantined)).toEqual([2]);
    const q = f.findings[0].finding;
    expect(q).toMatchObject({ rule: FOLD_RULES.quarantined, severity: 'warning', path: 'source' });
    expect(q.message).toContain('the quarantine of "booker" by "ops" at record 1');
    expect(fired(f, FOLD_RULES.unauthorised)).toEqual([]);
    const booker = agentOf(f, 'booker');
    expect(booker.quarantined).toBe(false);
    expect(booker.quarantineFact?.recordIndex).toBe(3);
    expect(booker.quarantineFacts.map((x) => x.op)).toEqual(['quarantine', 'unquarantine']);
  });

  it('asOf before the quarantine shows the agent not quarantined; during it, quarantined', () => {
    const log = quarantined(OPERATOR).records;
    const before = foldRecords(log, { asOf: 0 });
    expect(agentOf(before, 'booker').quarantined).toBe(false);
    expect(before.quarantine).toEqual([]);
    const during = foldRecords(log, { asOf: 2 });
    expect(agentOf(during, 'booker')).toMatchObject({ quarantined: true, quarantineFact: { recordIndex: 1, op: 'quarantine' } });
    expect(fired(during)).toEqual([2]);
    // One prepared log serves every slider position.
    const prepared = prepareFold(factsOf(log));
    expect([0, 1, 2, 3, 4].map((p) => agentOf(foldPrepared(prepared, { asOf: p }), 'booker').quarantined)).toEqual([false, true, true, false, false]);
    expect(foldRecords(log, { asOf: -1 })).toMatchObject({ folded: 0, agents: [], asOf: { position: -1, recordIndex: -1, time: null } });
    expect(foldRecords(log, { asOf: 99 }).folded).toBe(5);
  });

  it('a quarantine signed by an agent key is flagged agdx/fold/unauthorised (error) and still takes effect', () => {
    const f = foldRecords(quarantined(AGENT_KEY).records);
    expect(f.quarantine[0]).toMatchObject({ backing: 'non-operator-signed', issuer: 'planner', applied: true });
    expect(f.quarantine[0].sentence).toContain('is an agent key of planner');
    expect(fired(f, FOLD_RULES.unauthorised)).toEqual([1]);
    const u = f.findings.find((x) => x.finding.rule === FOLD_RULES.unauthorised)!.finding;
    expect(u).toMatchObject({ severity: 'error', path: 'signature' });
    expect(u.message).toContain('only an operator key may sign a quarantine');
    expect(fired(f, FOLD_RULES.quarantined)).toEqual([2]);
  });

  it("an unsigned quarantine rests on the topic's access control and takes effect, unflagged", () => {
    const f = foldRecords(quarantined(verdict({ status: 'unsigned', reason: 'the record carries no signature' })).records);
    expect(f.quarantine[0].backing).toBe('unsigned');
    expect(f.quarantine[0].sentence).toContain("rests on the registry topic's write access");
    expect(fired(f, FOLD_RULES.unauthorised)).toEqual([]);
    expect(fired(f, FOLD_RULES.quarantined)).toEqual([2]);
  });

  it('an invalid signature is flagged unauthorised; an unknown key is unverified and not flagged', () => {
    const bad = foldRecords(quarantined(verdict({ status: 'invalid', reason: 'the signature does not verify' })).records);
    expect(bad.quarantine[0].backing).toBe('invalid-signature');
    expect(fired(bad, FOLD_RULES.unauthorised)).toEqual([1]);
    const unknown = foldRecords(quarantined(verdict({ status: 'unknown_key', reason: 'no registered key has key id a1b2c3d4e5f60718' })).records);
    expect(unknown.quarantine[0].backing).toBe('unverified');
    expect(fired(unknown, FOLD_RULES.unauthorised)).toEqual([]);
    expect(fired(unknown, FOLD_RULES.quarantined)).toEqual([2]);
  });

  it('a quarantine inside a dead letter changes nothing; one whose body is not UTF-8 names no agent', () => {
    const c = new Conversation();
    c.add({ kind: 'status', source: 'ops', record: rid(), operation: 'quarantine', body: text('booker') }, { logTime: 1n * S, parent: 7 });
    c.add({ kind: 'status', source: 'ops', record: rid(), operation: 'quarantine', body: new Uint8Array([0xff, 0xfe]) }, { logTime: 2n * S });
    c.add({ kind: 'event', source: 'booker', record: rid(), body }, { logTime: 3n * S });
    const f = foldRecords(c.records);
    expect(f.quarantine.map((x) => [x.target, x.applied])).toEqual([
      ['booker', false],
      [null, false],
    ]);
    expect(f.quarantine[0].sentence).toContain('dead letter');
    expect(agentOf(f, 'booker').quarantined).toBe(false);
    expect(f.findings).toEqual([]);
  });

  it('real signatures: an operator key backs a quarantine, an agent key does not (inspect → verify → fold)', () => {
    const seedOps = new Uint8Array(32).fill(7);
    const seedAgent = new Uint8Array(32).fill(9);
    const key = (seed: Uint8Array, agent: string, kind: RegisteredKey['kind']): RegisteredKey => {
      const pub = ed.getPublicKey(seed);
      return { id: keyId(pub), agent, algorithm: 'ed25519', publicKey: pub, kind, notBeforeMicros: null, notAfterMicros: null, revoked: false };
    };
    const sign = (env: Envelope, seed: Uint8Array): Envelope => {
      const unsigned: Envelope = { ...env, signature: { scheme: 1, key_id: fromHex(keyId(ed.getPublicKey(seed)))!, bytes: new Uint8Array(64) } };
      return { ...unsigned, signature: { ...unsigned.signature!, bytes: ed.sign(signingInput(unsigned), seed) } };
    };
    const conv = id16(0xc0);
    const envs: Envelope[] = [
      sign({ kind: 'status', record: id16(1), conversation: conv, source: 'ops', operation: 'quarantine', body: text('booker') }, seedOps),
      { kind: 'event', record: id16(2), conversation: conv, source: 'booker', body },
      sign({ kind: 'status', record: id16(3), conversation: conv, source: 'planner', operation: 'unquarantine', body: text('booker') }, seedAgent),
    ];
    const result = inspect([{ name: 'q.cborseq', bytes: concatBytes(...envs.map((e) => encodeEnvelope(e))) }], {
      keys: [key(seedOps, 'ops', 'operator'), key(seedAgent, 'planner', 'agent')],
    });
    const f = foldRecords(result.records);
    expect(f.quarantine.map((q) => [q.op, q.backing, q.signature.status, q.signature.trusted])).toEqual([
      ['quarantine', 'operator-signed', 'valid', true],
      ['unquarantine', 'non-operator-signed', 'valid', false],
    ]);
    expect(fired(f, FOLD_RULES.quarantined)).toEqual([1]);
    expect(fired(f, FOLD_RULES.unauthorised)).toEqual([2]);
    expect(f.quarantine[1].signature.reason).toContain('must be signed by an operator key');
  });

  it('an operator key under a source that claims another agent backs nothing: the fact is "by ops, claimed as planner"', () => {
    const seedOps = new Uint8Array(32).fill(7);
    const pub = ed.getPublicKey(seedOps);
    const ops: RegisteredKey = {
      id: keyId(pub),
      agent: 'ops',
      algorithm: 'ed25519',
      publicKey: pub,
      kind: 'operator',
      notBeforeMicros: null,
      notAfterMicros: null,
      revoked: false,
    };
    const unsigned: Envelope = {
      kind: 'status',
      record: id16(1),
      conversation: id16(0xc0),
      source: 'planner',
      operation: 'quarantine',
      body: text('booker'),
      signature: { scheme: 1, key_id: fromHex(ops.id)!, bytes: new Uint8Array(64) },
    };
    const signed: Envelope = { ...unsigned, signature: { ...unsigned.signature!, bytes: ed.sign(signingInput(unsigned), seedOps) } };
    const result = inspect([{ name: 'q.cbor', bytes: encodeEnvelope(signed) }], { keys: [ops] });
    expect(result.records[0].verdict.signature).toMatchObject({ status: 'valid', trusted: false, signer: 'ops' });
    const f = foldRecords(result.records);
    expect(f.quarantine[0]).toMatchObject({ backing: 'non-operator-signed', issuer: 'planner', applied: true });
    expect(f.quarantine[0].sentence).toMatch(
      /^Quarantine of "booker" by "ops", claimed as "planner": signed, but not by a key trusted as an operator's \(valid under key fe812c12f3ab4ce6: key fe812c12f3ab4ce6 of ops is registered for "ops", not for the record's source "planner": a quarantine is backed only when its source is the operator key's own agent\)/,
    );
    expect(fired(f, FOLD_RULES.unauthorised)).toEqual([0]);
  });
});

// ── runs ────────────────────────────────────────────────────────────────────

describe('runs: task-state history per metadata run', () => {
  function task(c: Conversation, state: number, t: bigint, extra: Partial<Envelope> = {}) {
    return c.add(
      { kind: 'status', source: 'booker', record: rid(), correlation: id16(0x77), operation: 'task', task_state: state, metadata: run('r-1'), ...extra },
      { logTime: t },
    );
  }

  it('submitted → working → completed: history with times, A2A names, final from last, terminal completed', () => {
    const c = new Conversation();
    task(c, 1, 1n * S);
    c.add({ kind: 'status', source: 'booker', record: rid(), operation: 'progress', metadata: run('r-1') }, { logTime: 2n * S });
    task(c, 2, 3n * S);
    task(c, 4, 4n * S, { last: true });
    const f = foldRecords(c.records);
    expect(f.runs).toHaveLength(1);
    const r = f.runs[0];
    expect(r.history.map((h) => [h.state, h.time, h.recordIndex, h.final])).toEqual([
      ['submitted', 1n * S, 0, false],
      ['working', 3n * S, 2, false],
      ['completed', 4n * S, 3, true],
    ]);
    expect(r).toMatchObject({
      id: 'r-1',
      records: [0, 1, 2, 3],
      current: 'completed',
      terminal: 'completed',
      terminalRecordIndex: 3,
      afterTerminal: 0,
      agents: ['booker'],
      firstTime: 1n * S,
      lastTime: 4n * S,
    });
    expect(f.findings).toEqual([]);
  });

  it('a task state after the terminal one is flagged agdx/fold/after-terminal; the terminal stays', () => {
    const c = new Conversation();
    task(c, 1, 1n * S);
    task(c, 6, 2n * S, { last: true });
    task(c, 2, 3n * S);
    task(c, 4, 4n * S);
    const f = foldRecords(c.records);
    const r = f.runs[0];
    expect(r).toMatchObject({ terminal: 'failed', current: 'failed', terminalRecordIndex: 1, afterTerminal: 2 });
    expect(r.history.map((h) => h.afterTerminal)).toEqual([false, false, true, true]);
    expect(fired(f, FOLD_RULES.afterTerminal)).toEqual([2, 3]);
    const x = f.findings[0].finding;
    expect(x).toMatchObject({ severity: 'warning', path: 'task_state' });
    expect(x.message).toContain('task state working after run "r-1" reached its terminal state failed at record 1');
  });

  it('an unknown task state code passes through as unrecognized-N', () => {
    const c = new Conversation();
    task(c, 42, 1n * S);
    expect(foldRecords(c.records).runs[0].history[0]).toMatchObject({ code: 42, state: 'unrecognized-42', terminal: false });
  });
});

// ── conversations, usage, bridge loops, order ──────────────────────────────

describe('conversations, usage, bridge loops and log order', () => {
  it('usage totals per agent per conversation, records by kind, times, invalid and badly signed', () => {
    const a = new Conversation(id16(0xa));
    const b = new Conversation(id16(0xb));
    a.add({ kind: 'command', source: 'planner', target: 'booker', record: rid(), correlation: rid(), body }, { logTime: 10n });
    a.add(
      { kind: 'response', source: 'booker', target: 'planner', record: rid(), correlation: rid(), body, usage: usage(100, 20, { reasoning_output_tokens: 5 }) },
      { logTime: 20n },
    );
    a.add(
      {
        kind: 'response',
        source: 'booker',
        record: rid(),
        correlation: rid(),
        body,
        usage: usage(1, 2, { cache_read_input_tokens: 30, cache_creation_input_tokens: 4 }),
      },
      { logTime: 30n },
    );
    a.add(
      { kind: 'event', source: 'planner', record: rid(), body, usage: usage(7, 8) },
      { logTime: 40n, valid: false, signature: verdict({ status: 'invalid', reason: 'does not verify' }) },
    );
    b.add({ kind: 'response', source: 'booker', record: rid(), correlation: rid(), body, usage: usage(1000, 1) }, { logTime: 15n, input: 1 });
    const f = foldRecords([...a.records, ...b.records]);
    expect(f.conversations.map((c) => c.id)).toEqual([a.records[0].verdict.conversation, b.records[0].verdict.conversation]);
    const ca = f.conversations[0];
    expect(ca).toMatchObject({
      records: 4,
      agents: ['booker', 'planner'],
      recordsByKind: { command: 1, response: 2, event: 1 },
      firstTime: 10n,
      lastTime: 40n,
      invalid: { count: 1, records: [3] },
      badlySigned: { count: 1, records: [3] },
    });
    expect(Object.fromEntries(ca.usage)).toEqual({
      booker: { input: 101n, output: 22n, reasoning: 5n, cache_read: 30n, cache_creation: 4n, cost_micros: 0n, records: 2 },
      planner: { input: 7n, output: 8n, reasoning: 0n, cache_read: 0n, cache_creation: 0n, cost_micros: 0n, records: 1 },
    });
    expect(ca.usageTotal).toMatchObject({ input: 108n, output: 30n, records: 3 });
    expect(Object.fromEntries(f.conversations[1].usage)).toEqual({
      booker: { input: 1000n, output: 1n, reasoning: 0n, cache_read: 0n, cache_creation: 0n, cost_micros: 0n, records: 1 },
    });
    // Per agent across conversations.
    expect(agentOf(f, 'booker').usage).toMatchObject({ input: 1101n, output: 23n, records: 3 });
  });

  it("a record invalid only through the fold's own error is invalid in its verdict, not in the fold, so refolding is stable", () => {
    const c = new Conversation();
    c.add({ kind: 'status', source: 'planner', record: rid(), operation: 'quarantine', body: text('booker') }, { logTime: 1n, signature: AGENT_KEY });
    const log = analyzeLog(logFactsOf(c.records));
    expect(log.findings.get(0)?.map((f) => f.rule)).toEqual([FOLD_RULES.unauthorised]);
    // The verdict holds the record's own findings; its validity counts the log's too.
    expect(c.records[0].verdict.findings).toEqual([]);
    expect(isValid(c.records[0].verdict, log.findings.get(0))).toBe(false);
    // The fold counts records invalid by their own findings only: folding again gives the same.
    expect(log.folds.conversations[0].invalid.count).toBe(0);
    expect(refoldLog(log, log.facts).folds).toEqual(log.folds);
  });

  it('a record whose bridge_hops repeats an id is counted as a bridge loop', () => {
    const c = new Conversation();
    c.add({ kind: 'event', record: rid(), body, metadata: hops('b1', 'b2') });
    c.add({ kind: 'event', record: rid(), body, metadata: hops('b1', 'b2', 'b1') });
    c.add({ kind: 'event', record: rid(), body, metadata: hops('b3', 'b3', 'b3') });
    const f = foldRecords(c.records);
    expect(f.bridgeLoops).toBe(2);
    expect(f.bridgeLoopRecords).toEqual([1, 2]);
  });

  it('log order: log time, then input, then position; records without an envelope are skipped', () => {
    const records: InspectedRecord[] = [
      makeRecord(0, 0, { kind: 'event', conversation: id16(1), source: 'a', record: rid(), body }, { logTime: 30n }),
      makeRecord(0, 1, { kind: 'event', conversation: id16(1), source: 'a', record: rid(), body }), // carries 30 forward
      makeRecord(1, 0, { kind: 'event', conversation: id16(1), source: 'b', record: rid(), body }, { logTime: 10n }),
      makeRecord(1, 1, { kind: 'event', conversation: id16(1), source: 'b', record: rid(), body }, { logTime: 30n }),
    ];
    records.push({ verdict: { ...records[0].verdict, index: 2 }, data: { ...records[0].data, envelope: null } });
    const f = foldRecords(records);
    expect(logOrderRecords(prepareFold(factsOf(records)))).toEqual([2, 0, 1, 3]);
    expect(f.conversations[0].records).toBe(4);
    expect(Array.from(agentOf(f, 'a').asSource)).toEqual([0, 1]);
    expect(f.agents.map((a) => a.id)).toEqual(['b', 'a']);
  });

  it('folding neither changes the records nor depends on earlier folds', () => {
    const c = new Conversation();
    c.add({ kind: 'status', source: 'ops', record: rid(), operation: 'quarantine', body: text('agent-a') }, { logTime: 1n });
    c.add({ kind: 'event', record: rid(), body }, { logTime: 2n });
    const before = JSON.stringify(c.records, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
    const one = foldRecords(c.records);
    const two = foldRecords(c.records);
    expect(JSON.stringify(c.records, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))).toBe(before);
    expect(toReportFolds(two)).toEqual(toReportFolds(one));
    expect(fired(one, FOLD_RULES.quarantined)).toEqual([1]);
  });
});

// ── report@1 sections ───────────────────────────────────────────────────────

describe('toReportFolds', () => {
  it('is JSON-safe: bigints become decimal strings, record references are indices', () => {
    const c = new Conversation();
    c.add(
      {
        kind: 'status',
        source: 'booker',
        record: rid(),
        operation: 'card',
        body: cardBody({ name: 'booker', caps: [{ skill: 'book', health: 1 }], ttl: 2n ** 60n }),
      },
      { logTime: 1n * S },
    );
    c.add(
      { kind: 'status', source: 'booker', record: rid(), correlation: rid(), operation: 'task', task_state: 2, metadata: run('r'), usage: usage(3, 4) },
      { logTime: 2n * S },
    );
    const rep = toReportFolds(foldRecords(c.records));
    const round = JSON.parse(JSON.stringify(rep));
    expect(round).toEqual(rep);
    expect(rep.agents[0]).toMatchObject({
      id: 'booker',
      card: {
        record: 0,
        time: '1000000',
        ttl_micros: '1152921504606846976',
        expires_at: '1152921504607846976',
        name: 'booker',
        capabilities: [{ skill_id: 'book', health: 1, health_name: 'healthy', input: null }],
      },
      alive: true,
      quarantined: false,
      quarantine: [],
      usage: { input: '3', output: '4', records: 1 },
    });
    expect(rep.runs).toEqual([
      {
        id: 'r',
        records: [1],
        history: [{ state: 'working', code: 2, final: false, terminal: false, time: '2000000', record: 1, source: 'booker', after_terminal: false }],
        state: 'working',
        terminal: null,
        terminal_record: null,
        after_terminal: 0,
        conversations: [c.records[0].verdict.conversation],
        agents: ['booker'],
        first_time: '2000000',
        last_time: '2000000',
      },
    ]);
    expect(rep.conversations[0]).toMatchObject({ records: 2, records_by_kind: { status: 2 }, usage: { booker: { input: '3', output: '4' } }, runs: ['r'] });
  });
});

// ── the real pipeline ───────────────────────────────────────────────────────

describe('over inspect() of vectors/agdx/made/conversation_http_v07.json', () => {
  const bytes = new Uint8Array(readFileSync(resolve(root, 'vectors/agdx/made/conversation_http_v07.json')));
  const result = inspect([{ name: 'conversation_http_v07.json', bytes }]);
  const f = foldRecords(result.records);

  it('agents planner and booker, in log order, with their records', () => {
    expect(f.agents.map((a) => a.id)).toEqual(['planner', 'booker']);
    const planner = agentOf(f, 'planner');
    expect(Array.from(planner.asSource)).toEqual([0]);
    expect(Array.from(planner.asTarget)).toEqual([1, 2, 3, 4, 5, 6, 9]);
    expect(Array.from(agentOf(f, 'booker').asSource)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(f.agents.every((a) => a.card === null && a.alive === null && !a.quarantined)).toBe(true);
    expect(f.times).toEqual({ log: 10, ulid: 0, none: 0 });
    expect(f.now).toBe(1717171717009000n);
  });

  it('run run-7 with a working state', () => {
    expect(f.runs).toHaveLength(1);
    expect(f.runs[0]).toMatchObject({ id: 'run-7', records: [8], current: 'working', terminal: null, afterTerminal: 0, agents: ['booker'] });
    expect(f.runs[0].history).toEqual([
      { code: 2, state: 'working', final: false, terminal: false, time: 1717171717008000n, recordIndex: 8, source: 'booker', afterTerminal: false },
    ]);
  });

  it('one conversation: its agents, kinds, times, and no usage on any record', () => {
    expect(f.conversations).toHaveLength(1);
    const c = f.conversations[0];
    expect(c).toMatchObject({
      id: result.records[0].verdict.conversation,
      agents: ['booker', 'planner'],
      recordsByKind: { command: 1, chunk: 5, response: 1, event: 1, status: 1, error: 1 },
      firstTime: 1717171717000000n,
      lastTime: 1717171717009000n,
      invalid: { count: 0, records: [] },
      badlySigned: { count: 0, records: [] },
      runs: ['run-7'],
    });
    expect(c.usage.size).toBe(0);
    expect(c.usageTotal).toEqual({ input: 0n, output: 0n, reasoning: 0n, cache_read: 0n, cache_creation: 0n, cost_micros: 0n, records: 0 });
    expect(f.findings).toEqual([]);
    expect(f.bridgeLoops).toBe(0);
    expect(toReportFolds(f).conversations[0].usage_total).toEqual({
      input: '0',
      output: '0',
      reasoning: '0',
      cache_read: '0',
      cache_creation: '0',
      cost_micros: '0',
      records: 0,
    });
  });
});

// ── the time slider's budget ────────────────────────────────────────────────

describe('performance', () => {
  it('folds 10,000 records fast enough for a slider (a generous bound; see the report for measured times)', () => {
    const records: InspectedRecord[] = [];
    const card = cardBody({ name: 'w', caps: [{ skill: 's' }], ttl: 50n * S });
    for (let i = 0; i < 10_000; i++) {
      const agentNo = i % 50;
      const t = BigInt(i) * 1000n;
      const spec: Envelope =
        i % 500 === agentNo
          ? { kind: 'status', conversation: id16(i % 20), source: `agent-${agentNo}`, record: id16(i + 1), operation: 'card', body: card }
          : i % 97 === 0
            ? {
                kind: 'status',
                conversation: id16(i % 20),
                source: 'ops',
                record: id16(i + 1),
                operation: i % 194 === 0 ? 'quarantine' : 'unquarantine',
                body: text(`agent-${(i / 97) % 50}`),
              }
            : {
                kind: 'status',
                conversation: id16(i % 20),
                source: `agent-${agentNo}`,
                record: id16(i + 1),
                correlation: id16(1),
                operation: 'task',
                task_state: (i % 9) + 1,
                metadata: run(`run-${i % 300}`),
                usage: { input_tokens: 10, output_tokens: 5 },
              };
      records.push(makeRecord(0, i, spec, { logTime: t }));
    }
    const prepared = prepareFold(factsOf(records));
    // How fast is for the benchmark to say; here only that it folds the whole log.
    const f = foldPrepared(prepared, { asOf: 9_999 });
    expect(f.folded).toBe(10_000);
    expect(f.agents.length).toBe(51);
  });
});
