// The log's entries (what the graph, streams and folds read of each record) and the analysis over
// them: entries only for records with an envelope, log order carried within an input, times for
// deadline checks, and a key change that renews the verdict part and folds again over the same graph.
import { describe, expect, it } from 'vitest';
import { fromHex } from '../bytes';
import { Conversation, causeAt, crock, hops, id16, makeRecord, text } from '../../../test/support/graph-helpers';
import type { SignatureVerdict } from '../model';
import { logFactsOf, type InspectedRecord } from '../records';
import { analyzeLog, refoldLog } from '../analysis/log';
import { type LogEntry, LogFactsBuilder, withVerdicts } from './entry';
import { logSource } from '../records';

const body = text('{}');
const valid = (signer: string, trusted: boolean): SignatureVerdict => ({
  status: 'valid',
  scheme: 'ed25519',
  key_id: 'a1b2c3d4e5f60718',
  signer,
  trusted,
  context_match: null,
  not_covered: [],
  reason: trusted ? 'registered operator key' : 'an agent key',
});
/** A record with no envelope (one that did not decode), with a log time of its own. */
const failed = (from: InspectedRecord, index: number, logTime: bigint | null): InspectedRecord => ({
  verdict: { ...from.verdict, index, decoded: false, logTimeMicros: logTime },
  data: { ...from.data, envelope: null },
});

describe('log entries', () => {
  it('one per record with an envelope, indexing the load; what the envelope says, ids in Crockford', () => {
    const c = new Conversation();
    c.add({ kind: 'command', record: id16(1), correlation: id16(5), deadline_micros: 9_000, body }, { position: { partition: 2, offset: 7 }, logTime: 100n });
    c.add({ kind: 'chunk', channel: id16(6), correlation: id16(5), sequence: 0, last: true, finish_reason: 'stop', body: text('hi') }, { logTime: 150n });
    c.add({ kind: 'event', record: id16(3), cause: id16(1), cause_at: causeAt(1, 2, 2, 7), metadata: hops('a', 'b', 'a'), body });
    const records = [c.records[0], failed(c.records[0], 1, 500n), ...c.records.slice(1)];
    const facts = logFactsOf(records);
    expect(facts.records).toBe(4);
    expect(facts.entries.map((e) => e.record)).toEqual([0, 2, 3]);
    const [cmd, chunk, event] = facts.entries;
    expect(cmd).toMatchObject({
      kind: 'command',
      recordId: crock(1),
      correlation: crock(5),
      deadline: 9_000n,
      logTime: 100n,
      time: 100n,
      timeSource: 'log',
      logPosition: { partition: 2, offset: 7n },
    });
    expect(chunk).toMatchObject({ kind: 'chunk', recordId: null, channel: crock(6), sequence: 0n, last: true, finishReason: 'stop', body: text('hi') });
    expect(event).toMatchObject({
      cause: crock(1),
      causeAt: { stream: 1, topic: 2, partition: 2, offset: 7n },
      bridgeLoop: ['a'],
      time: null,
      timeSource: null,
    });
    // Only a chunk keeps its body (for its stream's text).
    expect(cmd.body).toBeNull();
  });

  it('log order: the log time carried forward within an input, also from a record without an envelope', () => {
    const c = new Conversation();
    c.add({ kind: 'event', record: id16(1), body }, { logTime: 30n });
    c.add({ kind: 'event', record: id16(2), body });
    const [a, b] = c.records;
    const facts = logFactsOf([a, failed(a, 1, 70n), { verdict: { ...b.verdict, index: 2 }, data: b.data }]);
    expect(facts.entries.map((e) => e.sortKey.split(':').map(Number))).toEqual([
      [30, 0, 0],
      [70, 0, 2],
    ]);
    expect(facts.latestLogTime).toBe(70n);
  });

  it('log order: records before any log time carry 0, and a log time carries within its own input only', () => {
    // The carried times are kept only from the first entry that carries one (Columns.carried).
    const c = new Conversation();
    c.add({ kind: 'event', record: id16(1), body }, { input: 1 });
    c.add({ kind: 'event', record: id16(2), body }, { input: 1 });
    c.add({ kind: 'event', record: id16(3), body }, { input: 0, logTime: 40n });
    c.add({ kind: 'event', record: id16(4), body }, { input: 0 });
    c.add({ kind: 'event', record: id16(5), body }, { input: 1 });
    c.add({ kind: 'event', record: id16(6), body }, { input: 1, logTime: 20n });
    c.add({ kind: 'event', record: id16(7), body }, { input: 1 });
    const facts = logFactsOf(c.records);
    expect(facts.entries.map((e) => e.sortKey.split(':').map(Number))).toEqual([
      [0, 1, 0],
      [0, 1, 1],
      [40, 0, 0],
      [40, 0, 1],
      [0, 1, 2],
      [20, 1, 3],
      [20, 1, 4],
    ]);
    expect(Array.from(facts.inLogOrder(), (e) => e.index + 10 * e.input)).toEqual([10, 11, 12, 13, 14, 0, 1]);
    // Without any log time, every entry carries 0: log order is input, then index.
    const none = new Conversation();
    none.add({ kind: 'event', record: id16(1), body }, { input: 1 });
    none.add({ kind: 'event', record: id16(2), body }, { input: 0 });
    const plain = logFactsOf(none.records);
    expect(plain.entries.map((e) => e.sortKey.split(':').map(Number))).toEqual([
      [0, 1, 0],
      [0, 0, 0],
    ]);
    expect(Array.from(plain.inLogOrder(), (e) => e.input)).toEqual([0, 1]);
  });

  it('the latest time of each input counts log times and ULID times', () => {
    const ulid = fromHex('01903c1faa0000000000000000000002')!;
    const records = [
      makeRecord(0, 0, { kind: 'event', conversation: id16(1), source: 'a', record: id16(1), body }, { logTime: 5n }),
      makeRecord(1, 0, { kind: 'event', conversation: id16(1), source: 'a', record: ulid, body }),
      makeRecord(1, 1, { kind: 'event', conversation: id16(1), source: 'a', record: id16(2), body }, { logTime: 7n }),
    ];
    expect([...logFactsOf(records).latestTimeByInput]).toEqual([
      [0, 5n],
      [1, 0x01903c1faa00n * 1000n],
    ]);
  });
});

describe('entries read in order, made when read', () => {
  /** What an entry says, as plain data (a getter-backed entry compared field by field). */
  const said = (e: LogEntry) => ({
    record: e.record,
    logOrder: e.logOrder,
    sortKey: e.sortKey,
    recordId: e.recordId,
    cause: e.cause,
    kind: e.kind,
    parent: e.parent,
    time: e.time,
    signature: e.signature,
  });

  it('give the list’s entries in record order and in log order, for a log out of order, before and after the list is made', () => {
    // Log times out of record order (an export of two partitions interleaved), a dead letter's payload, a record without an id.
    const c = new Conversation();
    const times = [50n, 10n, 40n, 20n, 30n, 60n];
    times.forEach((t, i) => {
      c.add({ kind: 'event', record: i === 3 ? undefined : id16(i + 1), cause: i > 0 ? id16(i) : undefined, body }, { logTime: t });
    });
    const records = c.records.map((r, i) => (i === 4 ? { verdict: { ...r.verdict, parent: 1 }, data: r.data } : r));
    const fresh = () => logFactsOf(records);
    const list = fresh().entries.map(said);
    const byLog = [...list].sort((x, y) => x.logOrder - y.logOrder);
    expect(byLog.map((e) => e.time)).toEqual([10n, 20n, 30n, 40n, 50n, 60n]);
    expect(list[4].parent).toBe(1);
    expect(list[3].recordId).toBeNull();

    const before = fresh();
    const recordOrder = before.inRecordOrder();
    expect(recordOrder).not.toBeInstanceOf(Array);
    expect(Array.from(recordOrder, said)).toEqual(list);
    expect(Array.from(before.inLogOrder(), said)).toEqual(byLog);
    expect(recordOrder.at(2)).not.toBe(recordOrder.at(2));
    // Positions as a list's `at` reads them.
    expect(recordOrder.at(6)).toBeUndefined();
    expect(said(recordOrder.at(-1)!)).toEqual(list[5]);
    expect(recordOrder.at(-7)).toBeUndefined();

    const after = fresh();
    const made = after.entries;
    expect(after.inRecordOrder()).toBe(made);
    expect(Array.from(after.inLogOrder(), said)).toEqual(byLog);
    expect(after.inLogOrder().at(0)).toBe(made[1]);
  });

  it('a log read in its own order has no rank: log order is record order', () => {
    const c = new Conversation();
    for (let i = 0; i < 5; i++) c.add({ kind: 'event', record: id16(i + 1), body }, { logTime: BigInt(10 * i) });
    const facts = logFactsOf(c.records);
    expect(Array.from(facts.inLogOrder(), said)).toEqual(Array.from(facts.inRecordOrder(), said));
    expect(Array.from(facts.inLogOrder(), (e) => e.logOrder)).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('columns shared with the analysis', () => {
  it("places, times and a report's parts read what the entries say, and a key change's renewed verdicts", () => {
    const c = new Conversation();
    const big = 2n ** 60n + 1n; // a time a double does not hold exactly
    c.add({ kind: 'command', record: id16(1), correlation: id16(9), deadline_micros: 500n, body }, { logTime: 100n });
    c.add({ kind: 'response', record: id16(2), correlation: id16(9), body }, { logTime: big });
    c.add({ kind: 'event', record: id16(3), body }, { logTime: 300n });
    c.add({ kind: 'event', body });
    const records = c.records.map((r, i) => (i === 3 ? { verdict: { ...r.verdict, index: 3, logTimeMicros: null }, data: r.data } : r));
    const facts = logFactsOf(records);
    const list = facts.entries;
    const { places, times } = facts;
    const parts = logFactsOf(records).reportParts();
    expect(parts.length).toBe(list.length);
    list.forEach((e, k) => {
      expect([places.record(k), places.input(k), places.index(k)]).toEqual([e.record, e.input, e.index]);
      expect([times.kind(k), times.time(k), times.timeSource(k), times.deadline(k), times.correlation(k)]).toEqual([
        e.kind,
        e.time,
        e.timeSource,
        e.deadline,
        e.correlation,
      ]);
      const p = parts.at(k)!;
      expect([p.record, p.index, p.kind, p.recordId, p.conversation, p.source, p.target, p.signature, p.logTime]).toEqual([
        e.record,
        e.index,
        e.kind,
        e.recordId,
        e.conversation,
        e.source,
        e.target,
        e.signature,
        e.logTime,
      ]);
    });
    // As numbers: exact where a double holds them, undefined where it does not, null for none.
    // What they say, not only that they agree: the times as given (the last record has none), the command's deadline.
    expect([0, 1, 2, 3].map((k) => times.time(k))).toEqual([100n, big, 300n, null]);
    expect([0, 1, 2, 3].map((k) => times.plainTime(k))).toEqual([100, undefined, 300, null]);
    expect([0, 1].map((k) => times.deadline(k))).toEqual([500n, null]);
    expect([0, 1].map((k) => times.plainDeadline(k))).toEqual([500, null]);
    expect([0, 1, 2, 3].map((k) => times.correlation(k))).toEqual([crock(9), crock(9), null, null]);
    // The places as loaded: one input, its records in order.
    const all = (f: (k: number) => number) => Array.from({ length: places.length }, (_, k) => f(k));
    expect([all((k) => places.record(k)), all((k) => places.input(k)), all((k) => places.index(k))]).toEqual([
      [0, 1, 2, 3],
      [0, 0, 0, 0],
      [0, 1, 2, 3],
    ]);
    // A key change renews entries: a report's parts are the renewed ones.
    expect(parts.at(0)!.signature).not.toEqual(valid('ops', true));
    const renewed = withVerdicts(facts, (r) => ({ signature: valid('ops', true), invalid: r === 2 }));
    expect(renewed.reportParts().at(0)!.signature).toEqual(valid('ops', true));
  });
});

describe('a key change', () => {
  function quarantine(signature: SignatureVerdict) {
    const c = new Conversation();
    c.add({ kind: 'command', record: id16(1), correlation: id16(5), body }, { logTime: 1n });
    c.add({ kind: 'response', record: id16(2), cause: id16(7), correlation: id16(5), body }, { logTime: 2n });
    c.add({ kind: 'status', source: 'ops', record: id16(3), operation: 'quarantine', body: text('agent-a') }, { logTime: 3n, signature });
    c.add({ kind: 'event', record: id16(4), body }, { logTime: 4n });
    return c.records;
  }

  it("renews the entries' verdict part and folds again; the graph is the same object, the findings follow the keys", () => {
    const before = quarantine(valid('ops', false));
    const log = analyzeLog(logFactsOf(before));
    expect(log.findings.get(2)?.map((f) => f.rule)).toEqual(['agdx/fold/unauthorised']);
    // Record 1's cause is not loaded: the graph's info, which no key change touches.
    expect(log.findings.get(1)?.map((f) => f.rule)).toEqual(['agdx/graph/missing-cause']);
    expect(log.compact.missing.map((m) => m.ref)).toEqual([crock(7)]);

    const after = quarantine(valid('ops', true));
    const facts = withVerdicts(log.facts, (i) => ({ signature: after[i].verdict.signature, invalid: false }));
    // Entries whose verdict part did not change are kept as they were.
    expect(facts.entries.filter((e, i) => e === log.facts.entries[i]).map((e) => e.record)).toEqual([0, 1, 3]);
    const again = refoldLog(log, facts);
    expect(again.compact).toBe(log.compact);
    expect(again.findings.get(2)).toBeUndefined();
    expect(again.findings.get(3)?.map((f) => f.rule)).toEqual(['agdx/fold/quarantined']);
    expect(again.folds.quarantine[0].backing).toBe('operator-signed');
    // The same as analysing the new verdicts from the start.
    expect(again.folds).toEqual(analyzeLog(logFactsOf(after)).folds);
  });

  it('refuses facts of another load', () => {
    const log = analyzeLog(logFactsOf(quarantine(valid('ops', true))));
    expect(() => refoldLog(log, logFactsOf(quarantine(valid('ops', true)).slice(1)))).toThrow(TypeError);
  });

  it('copied bodies, shared verdicts and numbers kept small read back as the records have them', () => {
    // Bodies of every size (past a block's end, past the size copied on its own), sequences past 2^53.
    const records = Array.from({ length: 400 }, (_, i) =>
      makeRecord(
        0,
        i,
        {
          kind: 'chunk',
          conversation: id16(1),
          source: 'a',
          channel: id16(2),
          sequence: i === 7 ? 2n ** 60n : i,
          deadline_micros: i === 9 ? 2n ** 62n : 1_700_000_000_000_000 + i,
          body: new Uint8Array(i === 5 ? 5000 : (i * 37) % 1500).fill(i & 0xff),
        },
        // Equal verdicts, each record its own object: sharing is then the builder's doing.
        { signature: valid('ops', true) },
      ),
    );
    expect(records[1].verdict.signature).not.toBe(records[2].verdict.signature);
    const plain = logFactsOf(records);
    const b = new LogFactsBuilder({ copyBodies: true, shareSignatures: true });
    for (const r of records) b.add(logSource(r));
    const packed = b.facts();
    expect(packed.entries).toHaveLength(400);
    packed.entries.forEach((e, k) => {
      const p = plain.entries[k];
      expect(e.body).toEqual(p.body);
      expect(e.sequence).toBe(p.sequence);
      expect(e.deadline).toBe(p.deadline);
      expect(e.signature).toEqual(p.signature);
    });
    expect(packed.entries[7].sequence).toBe(2n ** 60n);
    // Equal verdicts are one object; without shareSignatures each entry keeps its record's own.
    expect(packed.entries[1].signature).toBe(packed.entries[2].signature);
    expect(packed.entries[399].signature).toBe(packed.entries[0].signature);
    expect(plain.entries[1].signature).not.toBe(plain.entries[2].signature);
    expect(plain.entries[1].signature).toBe(records[1].verdict.signature);
    // A shared verdict is a copy frozen all the way down, so the report writer keeps its text
    // (report-json.ts); the records' own verdicts are left as they are.
    const shared = packed.entries[0].signature;
    expect(Object.isFrozen(shared) && Object.isFrozen(shared.not_covered)).toBe(true);
    expect(Object.isFrozen(records[0].verdict.signature)).toBe(false);
  });
});
