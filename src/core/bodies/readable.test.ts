// The readable bodies (readable.ts) over the laser-sdk 0.7 vectors, the sample conversation tree
// and logs made here to break the way from a snapshot to a delta: each session body's labelled
// values, a delta's operations and the state it makes, a snapshot's tree, a manifest's fragments,
// and every pointer resolved to the record at its position when the load has it.
import { describe, expect, it } from 'vitest';
import type { Envelope } from '../agdx/envelope';
import { cborBody, iggyExport, sessionId, type SessionRecord } from '../../../test/support/session-writer';
import type { CborValue } from '../cbor/encoder';
import { inspect, type InputFile } from '../inspect';
import { recordsByPosition } from '../log/positions';
import type { FieldNode } from '../model';
import type { InspectResult } from '../records';
import { vector } from '../../../test/support/import-helpers';
import { readableBodyOf, stateTree, type BodyLog, type ReadableBody } from './readable';

/** The load's records as readable.ts reads them: labels are `#key`. */
function bodyLog(result: InspectResult): BodyLog {
  const entries = result.log.facts.entries;
  return { entries, envelopeOf: (k) => result.records[k]?.data.envelope ?? null, labelOf: (k) => `#${k}`, recordAt: recordsByPosition(entries) };
}

function load(...files: InputFile[]) {
  const result = inspect(files);
  const log = bodyLog(result);
  const at = (operation: string, nth = 0) => {
    const keys = result.records.flatMap((r, k) => (r.data.envelope?.operation === operation ? [k] : []));
    if (keys[nth] === undefined) throw new Error(`no record ${nth} with operation ${operation}`);
    return keys[nth];
  };
  const body = (key: number): ReadableBody => {
    const b = readableBodyOf(result.records[key], key, log);
    if (!b) throw new Error(`record ${key} has no readable body`);
    return b;
  };
  return { result, at, body };
}

const SAMPLE: InputFile = { name: 'sessions_tree_http_v07.json', bytes: vector('agdx/sessions/sessions_tree_http_v07.json') };
const VECTORS: InputFile = { name: 'iggy_export.json', bytes: vector('agdx/laser-sdk-ts-0.7.0/iggy_export.json') };

/** A tree as `label: display` lines, children indented. */
const lines = (nodes: readonly FieldNode[], indent = ''): string[] =>
  nodes.flatMap((n) => [`${indent}${n.label}: ${n.display}`, ...lines(n.children ?? [], `${indent}  `)]);

const fieldsOf = (b: ReadableBody) => Object.fromEntries(b.fields.map((f) => [f.label, f.value]));

describe('session bodies', () => {
  const { at, body, result } = load(VECTORS);
  const statusIn = (state: number) => result.records.findIndex((r) => r.data.envelope?.operation === 'session' && r.data.envelope.task_state === state);

  it('a SessionStart: every field it has, labelled', () => {
    const b = body(statusIn(1));
    expect(b.title).toBe('SessionStart (submitted)');
    expect(fieldsOf(b)).toEqual({
      Label: 'Research',
      Namespace: 'agents',
      Agent: 'planner',
      SDK: 'typescript 0.7.0',
      'Parent conversation': '00000000000000000000000004',
      'Root conversation': '00000000000000000000000005',
      'Idle timeout': '300 s',
      'Budget: tokens': '1000',
      'Budget: cost': '50000 µ',
      Tags: 'demo',
    });
  });
  it('a SessionTransition: its actor, and the control record it acknowledges (not in this log)', () => {
    const b = body(statusIn(10));
    expect(b.title).toBe('SessionTransition (paused)');
    expect(b.fields).toEqual([
      { label: 'Actor', value: 'planner' },
      { label: 'Acknowledges the control record at', value: 'stream 1, topic 2, partition 0, offset 9', points: null },
    ]);
  });
  it('a SessionEnd: its reason and error', () => {
    expect(fieldsOf(body(statusIn(6)))).toEqual({ Reason: 'tool failure', Error: 'tool_failure', 'Error message': 'search timed out', Retryable: 'no' });
    expect(body(statusIn(4)).title).toBe('SessionEnd (completed)');
  });
  it('a SessionParking: role, the parked record and the request (neither in this log)', () => {
    const b = body(at('session_parked'));
    expect(b.fields).toEqual([
      { label: 'Role', value: 'worker' },
      { label: 'Parked record', value: 'log record at stream 1, topic 2, partition 0, offset 41 (topic generation 3)', points: null },
      { label: 'Parked by the request at', value: 'stream 1, topic 2, partition 0, offset 7', points: null },
    ]);
  });
  it('no readable body for a body that is not its shape (a parking that points at a memory)', () => {
    const k = at('session_parked', 1);
    expect(readableBodyOf(result.records[k], k, bodyLog(result))).toBeNull();
  });

  it('in the sample, the parked record and the pause it was parked by are the records at those positions', () => {
    const sample = load(SAMPLE);
    const parked = sample.at('session_parked');
    const b = sample.body(parked);
    expect(b.fields[1].points).toEqual({ record: parked - 1, label: `#${parked - 1}` });
    const pause = sample.result.records.findIndex((r) => r.data.envelope?.task_state === 10);
    expect(b.fields[2].points).toEqual({ record: pause, label: `#${pause}` });
  });
});

describe('state', () => {
  it("a StateDelta lists its operations and shows the state after it, from the conversation's last snapshot", () => {
    const { at, body } = load(SAMPLE);
    const b = body(at('state_delta'));
    expect(fieldsOf(b)).toEqual({ 'Base revision': '1', 'Operation id': 'booker-1' });
    expect(b.operations).toEqual([
      { op: 'replace', path: '/step', value: '"book"' },
      { op: 'add', path: '/flights/-', value: '"TP1351"' },
    ]);
    const after = b.after!;
    if (after.status !== 'applied') throw new Error(`expected the delta to apply: ${JSON.stringify(after)}`);
    expect(after.snapshot.record).toBe(at('state_snapshot'));
    expect(after.steps).toEqual([{ record: { record: at('state_delta'), label: `#${at('state_delta')}` }, failure: null }]);
    expect(after.note).toBeNull();
    expect(lines(after.document)).toEqual(['state (revision 2): {2 members}', '  step: "book"', '  flights: [1 item]', '    [0]: "TP1351"']);
  });
  it('a delta with no snapshot before it in its conversation says so (the 0.7 vectors: the delta comes first)', () => {
    const { at, body } = load(VECTORS);
    const b = body(at('state_delta'));
    expect(b.operations).toEqual([{ op: 'add', path: '/step', value: '2' }]);
    expect(b.after).toEqual({ status: 'no-snapshot', reason: 'no StateSnapshot of this conversation comes before this delta in the log' });
  });
  it('a StateSnapshot: its revision and its document as a tree', () => {
    const { at, body } = load(VECTORS);
    const b = body(at('state_snapshot'));
    expect(fieldsOf(b)).toEqual({ Revision: '4' });
    expect(lines(b.document!)).toEqual(['document: {2 members}', '  goal: "ship"', '  step: 2']);
  });
  it("a state tree's paths are JSON Pointers, and a large document is cut short, saying how much is not shown", () => {
    const tree = stateTree(Object.assign(Object.create(null), { 'a/b': Array.from({ length: 3000 }, (_, i) => i) }));
    const list = tree[0].children![0];
    expect(list.path).toBe('state/a~1b');
    expect(list.children!.length).toBe(1999);
    expect(list.children!.at(-1)!.display).toBe('1002 more items not shown');
  });

  describe('the way from the snapshot', () => {
    const conversation = sessionId(0xd1, 1764633600000);
    const lineage = { parent: sessionId(0xd0, 1764633600000), root: sessionId(0xd0, 1764633600000) };
    let n = 0;
    const event = (operation: string, body: CborValue | Uint8Array): SessionRecord => ({
      at: ++n * 1000,
      env: {
        kind: 'event',
        record: sessionId(0xe0 + n, 1764633600000 + n),
        conversation,
        ...lineage,
        source: 'booker',
        operation,
        body: body instanceof Uint8Array ? body : cborBody(body),
      } as Envelope,
    });
    const delta = (base: bigint, patch: CborValue[], op_id = `d${base}`) => event('state_delta', { base_revision: base, patch, op_id });
    const logOf = (...records: SessionRecord[]) =>
      load({ name: 'made.json', bytes: new TextEncoder().encode(iggyExport(records, { start: 1764633600000000 })) });

    it('applies every delta between the snapshot and this one, in log order, and the latest snapshot only', () => {
      const { at, body } = logOf(
        event('state_snapshot', { base_revision: 0n, document: { old: true } }),
        event('state_snapshot', { base_revision: 5n, document: { n: 1 } }),
        delta(5n, [{ op: 'replace', path: '/n', value: 2 }]),
        delta(6n, [{ op: 'copy', from: '/n', path: '/m' }]),
      );
      const after = body(at('state_delta', 1)).after!;
      if (after.status !== 'applied') throw new Error(JSON.stringify(after));
      expect(after.snapshot.record).toBe(1);
      expect(after.steps.map((s) => s.record.record)).toEqual([2, 3]);
      expect(lines(after.document)).toEqual(['state (revision 7): {2 members}', '  n: 2', '  m: 2']);
    });
    it('a delta that does not apply stops the way, saying which operation failed and why (never a throw)', () => {
      const { at, body } = logOf(
        event('state_snapshot', { base_revision: 1n, document: { a: 1 } }),
        delta(1n, [
          { op: 'add', path: '/b', value: 1 },
          { op: 'remove', path: '/missing' },
        ]),
        delta(2n, [{ op: 'add', path: '/c', value: 3 }]),
      );
      expect(body(at('state_delta', 1)).after).toEqual({
        status: 'failed',
        snapshot: { record: 0, label: '#0' },
        steps: [{ record: { record: 1, label: '#1' }, failure: 'operation 2 (remove /missing) failed: /missing: no member "missing"' }],
        reason: 'operation 2 (remove /missing) failed: /missing: no member "missing"',
      });
      const own = body(at('state_delta', 0)).after;
      expect(own?.status === 'failed' && own.steps.length).toBe(1);
    });
    it('a delta in between whose body is not a StateDelta stops the way too', () => {
      const { at, body } = logOf(
        event('state_snapshot', { base_revision: 1n, document: { a: 1 } }),
        event('state_delta', { base_revision: 1n, op_id: 'no patch' }),
        delta(2n, [{ op: 'add', path: '/c', value: 3 }]),
      );
      const after = body(at('state_delta', 1)).after;
      expect(after?.status === 'failed' && after.reason).toMatch(/^its body is not a StateDelta: missing required field `patch`/);
    });
    it('a delta made against another revision than the one reached is applied, and said', () => {
      const { at, body } = logOf(event('state_snapshot', { base_revision: 4n, document: {} }), delta(9n, [{ op: 'add', path: '/x', value: 1 }]));
      const after = body(at('state_delta')).after;
      expect(after?.status === 'applied' && after.note).toBe('record #1 was made against revision 9, the state was at 4');
    });
  });
});

describe('context', () => {
  it('a ContextManifest: its fragments with their token counts, each message linked to the record at its position', () => {
    const { at, body } = load(SAMPLE);
    const b = body(at('context_assembled'));
    expect(fieldsOf(b)).toMatchObject({ Policy: 'recent 1', Tokens: '21', Bytes: '84' });
    expect(b.fragments!.map((f) => [f.kind, f.tokens, f.bytes, f.points?.record])).toEqual([
      ['message', 12, 48, at('chat', 0)],
      ['message', 9, 36, at('chat', 1)],
    ]);
  });
  it('fragments not in the log point at nothing; a memory is no pointer', () => {
    const { at, body } = load(VECTORS);
    expect(body(at('context_assembled')).fragments).toEqual([
      { kind: 'message', what: 'log record at stream 1, topic 2, partition 0, offset 41 (topic generation 3)', tokens: 12, bytes: 48, points: null },
      { kind: 'memory', what: 'memory 01KWM3K3XEP3NP5TN850J17YBP, version 2', tokens: 5, bytes: 20 },
    ]);
  });
  it('a ContextCompaction and a ContextRetrieval', () => {
    const { at, body } = load(VECTORS);
    const c = body(at('context_compacted'));
    expect(c.fields).toEqual([
      { label: 'Summary', value: 'log record at stream 1, topic 2, partition 0, offset 42 (topic generation 3)', points: null },
      { label: 'Summarizer', value: 'summarizer 1.0.0' },
      { label: 'Covers', value: 'topic 2 partition 0 offsets 0–40' },
    ]);
    const r = body(at('context_retrieved'));
    expect(fieldsOf(r)).toEqual({ Query: 'rollout plan' });
    expect(r.fragments).toEqual([{ kind: 'item', what: '01KWM3K3XEP3NP5TN850J17YBP', tokens: null, bytes: null, score: 0.5 }]);
  });
});
