// The dialect table at work (dialects.ts): how a record's dialect is told and what it decides, rule
// by rule as the 0.7 port's decoder and validator apply them, the Iggy headers of both generations,
// signatures over the dialect's field order (and over the envelope as received), and what the rest
// of the inspector (bulk reading, comparison, redaction, links) makes of the new fields.
import { describe, expect, it } from 'vitest';
import { concatBytes, fromHex, toCrockford } from '../bytes';
import { readSingle } from '../cbor/reader';
import { keyFor, SEED7, signEnvelope } from '../../../test/support/agdx-gen';
import { inspect, inspectInput } from '../inspect';
import { isValid, verdictFields } from '../verdict';
import { analyzeEnvelope } from './analyze';
import { encodeEnvelope, signingInputSegments } from './canonical';
import { DIALECT_001, DIALECT_07, dialectOf, DIALECTS, LATEST } from './dialects';
import type { Envelope } from './envelope';
import type { Header } from './iggy';
import { applyKeysWith } from './verify';
import { cbor, command, event, id, position, reportOf, rulesOf, session, START, text } from '../../../test/support/dialect-helpers';
import { bodyHasKey } from './shapes';
import { compareRecords } from '../compare/records';
import { redactInput } from '../share/redact';
import { decodePermalink, encodePermalink } from '../share/permalink';
import * as ed from '@noble/ed25519';

const KEYS = [keyFor(SEED7, 'planner')];
const errorsOf = (env: Envelope | Uint8Array) => rulesOf(reportOf(env), 'error');

describe('the tables', () => {
  it('every dialect keeps the fields of the one before it, in their order, and adds to them', () => {
    for (let i = 1; i < DIALECTS.length; i++) {
      const names = DIALECTS[i].fields.map((f) => f.name);
      const before = DIALECTS[i - 1].fields.map((f) => f.name);
      expect(names.filter((n) => before.includes(n))).toEqual(before);
      for (const u of DIALECTS[i - 1].usage) expect(DIALECTS[i].usage).toContain(u);
    }
    expect(LATEST).toBe(DIALECT_07);
  });

  it('0.7: the port field order, cost_micros after the token counts, paused not terminal, session a status operation', () => {
    expect(DIALECT_07.fields.map((f) => f.name).join(' ')).toBe(
      'kind record conversation parent root source target cause cause_at correlation channel idempotency_key deadline_micros sequence last finish_reason task_state operation tool usage metadata must_understand body signature',
    );
    expect(DIALECT_07.usage.at(-1)).toBe('cost_micros');
    expect(DIALECT_07.taskStates[10]).toBe('paused');
    expect(DIALECT_07.terminal.has(10)).toBe(false);
    expect(DIALECT_07.statusOperations).toContain('session');
    expect(DIALECT_001.statusOperations).not.toContain('session');
  });
});

describe('telling the dialect', () => {
  const of = (env: Envelope, headers?: Header[]) =>
    dialectOf(
      env as never,
      bodyHasKey,
      headers?.map((h) => ({ name: h.name, kind: h.kind, text: new TextDecoder().decode(h.value) })),
    );
  it.each([
    ['nothing newer', command(), '0.0.1', []],
    ['parent', command({ parent: id(4) }), '0.7', ['parent']],
    ['root', command({ root: id(5) }), '0.7', ['root']],
    [
      'usage.cost_micros',
      { ...command(), kind: 'response' as const, usage: { input_tokens: 1, output_tokens: 1, cost_micros: 5 } },
      '0.7',
      ['usage.cost_micros'],
    ],
    ['task state paused', { ...command(), kind: 'status' as const, operation: 'task', task_state: 10 }, '0.7', ['task_state']],
    ['a session status', session(2, { actor: 'planner' }, { parent: undefined, root: undefined }), '0.7', ['operation']],
    ['a parked record', event('session_parked', {}), '0.7', ['operation']],
    ['a control command', command({ operation: 'session_cancel' }), '0.7', ['operation']],
    ['a state delta whose body is a StateDelta', event('state_delta', { base_revision: 1, patch: [], op_id: 'x' }), '0.7', ['body']],
  ])('%s', (_, env, dialect, evidence) => {
    const d = of(env as Envelope);
    expect(d.dialect.id).toBe(dialect);
    expect(d.evidence).toEqual(evidence);
  });

  it('a state delta whose body is 0.0.1’s JSON Patch stays 0.0.1, as does a session operation on a command (0.7 gives it no meaning there)', () => {
    expect(of(event('state_delta', new TextEncoder().encode('[{"op":"add","path":"/a","value":1}]'))).dialect.id).toBe('0.0.1');
    expect(of(command({ operation: 'session' })).dialect.id).toBe('0.0.1');
    expect(of(command({ operation: 'constructor' })).dialect.id).toBe('0.0.1');
  });

  it('headers only 0.7 writes: the conversation id as text, agdx.to *, gen_ai.agent.id, agdx.parent_conv, agdx.root_conv', () => {
    expect(of(command(), [text('gen_ai.conversation.id', toCrockford(id(2)))]).evidence).toEqual(['headers.gen_ai.conversation.id']);
    expect(of(command(), [text('agdx.to', '*')]).evidence).toEqual(['headers.agdx.to']);
    expect(of(command(), [text('agdx.to', 'critic')]).dialect.id).toBe('0.0.1');
    expect(of(command(), [text('gen_ai.agent.id', 'planner'), text('agdx.parent_conv', 'x'), text('agdx.root_conv', 'y')]).evidence).toEqual([
      'headers.gen_ai.agent.id',
      'headers.agdx.parent_conv',
      'headers.agdx.root_conv',
    ]);
    const le = { name: 'gen_ai.conversation.id', kind: 'uint128', value: id(2).slice().reverse(), span: null };
    expect(of(command(), [le]).dialect.id).toBe('0.0.1');
  });

  it('a record carries its dialect, evidence and display type in report@1; the dialect decides which rules judge it', () => {
    const r = reportOf(command({ parent: id(4), must_understand: 1 }));
    expect(r).toMatchObject({ agdx_dialect: '0.7', agdx_dialect_evidence: ['parent'], display_type: 'agent.message', valid: true });
    const old = reportOf(command({ must_understand: 1 }));
    expect(old).toMatchObject({ agdx_dialect: '0.0.1', agdx_dialect_evidence: [], valid: false });
    expect(old.findings.find((f) => f.rule === 'agdx/must-understand')?.severity).toBe('error');
    expect(r.findings.find((f) => f.rule === 'agdx/must-understand')?.severity).toBe('warning');
  });
});

describe('the 0.7 rules, as its decoder and validator apply them', () => {
  it('parent and root are 16-byte ids: anything else fails to decode', () => {
    const bad = { kind: 'command', record: id(1), conversation: id(2), parent: 'x', source: 'planner', correlation: id(3), body: new Uint8Array([1]) };
    const r = reportOf(cbor(bad));
    expect(r).toMatchObject({ decoded: false, error: { code: 'agdx/field-type' } });
    expect(reportOf(cbor({ ...bad, parent: new Uint8Array(15) })).error?.message).toBe('parent must be 16 bytes, found 15');
  });

  it('usage.cost_micros is a u64 usage field, and no unknown field', () => {
    const r = reportOf({ ...command(), kind: 'response', usage: { input_tokens: 1200, output_tokens: 256, cost_micros: 12_500 } });
    expect(r.findings).toEqual([]);
    expect(reportOf(cbor({ ...command(), kind: 'response', usage: { input_tokens: 1, output_tokens: 1, cost_micros: -1 } })).error?.code).toBe(
      'agdx/field-type',
    );
  });

  it.each([
    ['an empty source', { source: '' }, 'source: agent id must not be empty'],
    ['a source of 257 bytes', { source: 's'.repeat(257) }, 'source: agent id is 257B, exceeds cap 256B'],
    ['a target with a control character', { target: 'a\u0007' }, 'target: agent id must not contain control characters'],
    ['an empty idempotency key', { idempotency_key: '' }, 'idempotency_key: idempotency key must not be empty'],
    ['an idempotency key of 65 bytes', { idempotency_key: 'k'.repeat(65) }, 'idempotency_key: idempotency key is 65B, exceeds cap 64B'],
  ])('%s: the 0.7 reader refuses it while decoding (0.0.1 reads it and its caps report it)', (_, change, message) => {
    const r = reportOf(command({ parent: id(4), ...change }));
    expect(r).toMatchObject({
      decoded: false,
      error: { code: 'agdx/field-type', message: `${message} (the 0.7 reader refuses it while decoding)` },
      display_type: 'undecodable',
    });
    const old = reportOf(command(change));
    expect(old.decoded).toBe(true);
    expect(rulesOf(old, 'error').some((x) => x.startsWith('agdx/cap/'))).toBe(true);
  });

  it('lineage: root needs parent; neither is the conversation (each its own rule, on its field)', () => {
    expect(errorsOf(command({ root: id(5) }))).toEqual(['agdx/lineage/root-needs-parent']);
    expect(reportOf(command({ parent: id(2) })).findings[0]).toMatchObject({ rule: 'agdx/lineage/self', path: 'parent' });
    expect(reportOf(command({ parent: id(4), root: id(2) })).findings[0]).toMatchObject({ rule: 'agdx/lineage/self', path: 'root' });
    expect(errorsOf(command({ root: id(2) }))).toEqual(['agdx/lineage/root-needs-parent', 'agdx/lineage/self']);
    expect(errorsOf(command({ parent: id(4), root: id(5) }))).toEqual([]);
    expect(errorsOf(command({ parent: id(4), root: id(4) }))).toEqual([]);
  });

  it('a session status needs task_state and a body', () => {
    expect(errorsOf(session(undefined, START))).toEqual(['agdx/matrix/task_state']);
    expect(errorsOf(session(2, undefined))).toEqual(['agdx/matrix/body']);
    expect(reportOf(session(2, undefined)).findings[0].message).toBe(
      'status requires body when operation is session: a session status carries its start, transition or end',
    );
  });

  it('last is set exactly for a terminal state: completed, canceled, failed, rejected; not paused, not an unknown code', () => {
    for (const state of [4, 5, 6, 7]) {
      expect(errorsOf(session(state, { reason: 'r' })), `${state}`).toEqual([]);
      const notLast = { ...session(state, { reason: 'r' }) };
      delete notLast.last;
      expect(errorsOf(notLast), `${state} without last`).toEqual(['agdx/session/last']);
    }
    for (const state of [1, 2, 3, 8, 9, 10, 11]) {
      const body = state <= 2 ? START : { actor: 'planner' };
      expect(errorsOf(session(state, body)), `${state}`).toEqual([]);
      expect(errorsOf(session(state, body, { last: true })), `${state} with last`).toEqual(['agdx/session/last']);
    }
  });

  it('the body by state: submitted a start; working a start with agent or sdk, else a transition; terminal an end; any other a transition', () => {
    expect(reportOf(session(1, { actor: 'planner' })).findings[0]).toMatchObject({
      rule: 'agdx/session/body',
      message: 'missing required field `sdk` in session start',
    });
    expect(errorsOf(session(2, START))).toEqual([]);
    expect(errorsOf(session(2, { actor: 'planner' }))).toEqual([]);
    expect(reportOf(session(2, { sdk: START.sdk })).findings[0]).toMatchObject({
      rule: 'agdx/session/body',
      message: 'missing required field `agent` in session start',
    });
    expect(reportOf(session(2, { actor: '' })).findings[0]).toMatchObject({
      rule: 'agdx/session/body',
      message: 'agent id must not be empty',
      path: 'body.actor',
    });
    expect(reportOf(session(4, { reason: 7 })).findings[0]).toMatchObject({
      rule: 'agdx/session/body',
      message: 'field `reason` in session end must be a string',
    });
    for (const state of [3, 8, 9, 10, 200])
      expect(reportOf(session(state, { actor: 3 })).findings[0], `${state}`).toMatchObject({ rule: 'agdx/session/body', path: 'body.actor' });
    expect(reportOf(session(2, cbor([1]))).findings[0]).toMatchObject({ rule: 'agdx/session/body', message: 'expected a CBOR map for session body' });
    expect(reportOf(session(2, new TextEncoder().encode('{}'))).findings[0]).toMatchObject({ rule: 'agdx/session/body', path: 'body' });
  });

  it("a start's lineage is the envelope's: parent and root both, present or absent alike", () => {
    const lineage = (env: Partial<Envelope>, body: object) => errorsOf(session(1, { agent: 'planner', sdk: START.sdk, ...body }, env));
    expect(lineage({}, { parent: id(4), root: id(5) })).toEqual([]);
    expect(lineage({ parent: id(6) }, { parent: id(4), root: id(5) })).toEqual(['agdx/session/lineage']);
    expect(lineage({ root: id(7) }, { parent: id(4), root: id(5) })).toEqual(['agdx/session/lineage']);
    expect(lineage({ parent: undefined, root: undefined }, { parent: id(4), root: id(5) })).toEqual(['agdx/session/lineage']);
    expect(lineage({}, {})).toEqual(['agdx/session/lineage']);
    expect(lineage({ parent: undefined, root: undefined }, {})).toEqual([]);
    expect(lineage({ root: undefined }, { parent: id(4) })).toEqual([]);
    // A transition names no lineage: nothing to compare.
    expect(errorsOf(session(2, { actor: 'planner' }, { parent: id(6) }))).toEqual([]);
  });

  it('the matrix is otherwise the 0.0.1 one: a task status needs correlation, a session one does not', () => {
    expect(errorsOf({ kind: 'status', record: id(1), conversation: id(2), source: 'planner', operation: 'task', task_state: 10 })).toEqual([
      'agdx/matrix/correlation',
    ]);
    expect(errorsOf(session(10, { actor: 'planner' }))).toEqual([]);
    expect(errorsOf({ ...session(10, { actor: 'p' }), tool: 'x' })).toEqual(['agdx/matrix/tool']);
  });

  it('the fast path and the general decoder judge every 0.7 case alike', () => {
    const cases = [
      command({ parent: id(4) }),
      command({ root: id(5) }),
      command({ parent: id(4), source: '' }),
      session(1, START),
      session(4, { reason: 'x' }, { last: undefined }),
      event('session_parked', { source: { Memory: { id: 'm' } }, role: 'w', request: position(1, 2, 0, 1n) }),
    ];
    for (const env of cases) {
      const bytes = encodeEnvelope(env);
      const fast = inspectInput(0, { name: 'x', bytes }, undefined, false).records[0];
      const full = inspectInput(0, { name: 'x', bytes }, undefined, true).records[0];
      expect(verdictFields(fast.verdict), JSON.stringify(errorsOf(env))).toEqual(verdictFields(full.verdict));
    }
  });
});

describe('Iggy headers of both generations', () => {
  const judge = (env: Envelope, headers: Header[]) => {
    const bytes = encodeEnvelope(env);
    const item = readSingle(bytes);
    if (!item.ok) throw new Error('bad');
    return analyzeEnvelope(bytes, item.value, { headers: [{ name: 'agdx.av', kind: 'uint32', value: Uint8Array.of(1, 0, 0, 0), span: null }, ...headers] });
  };
  const headerFindings = (env: Envelope, headers: Header[]) => judge(env, headers).findings.filter((f) => f.rule.startsWith('agdx/header/'));

  it('gen_ai.conversation.id as text (0.7) or a little-endian uint128 (either dialect); a disagreement names both', () => {
    expect(headerFindings(command(), [text('gen_ai.conversation.id', toCrockford(id(2)))])).toEqual([]);
    expect(headerFindings(command(), [text('gen_ai.conversation.id', toCrockford(id(2)).toLowerCase())])).toEqual([]);
    expect(
      headerFindings(command({ root: undefined }), [
        { name: 'gen_ai.conversation.id', kind: 'uint128', value: id(2).slice().reverse(), span: null },
        text('agdx.to', '*'),
      ]),
    ).toEqual([]);
    const other = headerFindings(command(), [text('gen_ai.conversation.id', toCrockford(id(9)))]);
    expect(other).toMatchObject([
      {
        rule: 'agdx/header/conversation',
        severity: 'error',
        message: `gen_ai.conversation.id names ${toCrockford(id(9))}, the envelope's conversation is ${toCrockford(id(2))}`,
      },
    ]);
    expect(headerFindings(command(), [text('gen_ai.conversation.id', 'nope')])[0].message).toBe(
      'gen_ai.conversation.id "nope" is not a 26-character Crockford id',
    );
  });

  it('agdx.to * is every agent: right without a target, wrong with one', () => {
    expect(headerFindings(command(), [text('agdx.to', '*')])).toEqual([]);
    expect(headerFindings(command({ target: 'critic' }), [text('agdx.to', '*')])).toMatchObject([
      { rule: 'agdx/header/to', severity: 'error', message: 'agdx.to is * (every agent), but the envelope is addressed to "critic"' },
    ]);
    expect(headerFindings(command({ target: 'critic' }), [text('agdx.to', 'critic'), text('gen_ai.agent.id', 'planner')])).toEqual([]);
  });

  it('gen_ai.agent.id is the source', () => {
    expect(headerFindings(command(), [text('gen_ai.agent.id', 'critic')])).toMatchObject([
      { rule: 'agdx/header/agent', severity: 'error', message: 'gen_ai.agent.id "critic" differs from the envelope\'s source "planner"' },
    ]);
  });

  it('agdx.parent_conv and agdx.root_conv are the lineage: another id, one the envelope lacks, or a missing header (a warning)', () => {
    const lineage = [text('agdx.parent_conv', toCrockford(id(4))), text('agdx.root_conv', toCrockford(id(5)))];
    expect(headerFindings(command({ parent: id(4), root: id(5) }), lineage)).toEqual([]);
    expect(headerFindings(command({ parent: id(6), root: id(5) }), lineage)).toMatchObject([
      {
        rule: 'agdx/header/parent_conv',
        severity: 'error',
        message: `agdx.parent_conv names ${toCrockford(id(4))}, the envelope's parent is ${toCrockford(id(6))}`,
      },
    ]);
    expect(headerFindings(command({ parent: id(4) }), lineage)).toMatchObject([
      { rule: 'agdx/header/root_conv', message: `agdx.root_conv names ${toCrockford(id(5))} but the envelope has no root` },
    ]);
    expect(headerFindings(command({ parent: id(4), root: id(5) }), [])).toMatchObject([
      { rule: 'agdx/header/parent_conv', severity: 'warning' },
      { rule: 'agdx/header/root_conv', severity: 'warning' },
    ]);
    expect(headerFindings(command({ parent: id(4) }), [text('agdx.parent_conv', 'x')])[0].message).toBe(
      'agdx.parent_conv "x" is not a 26-character Crockford id',
    );
  });

  it('a 0.0.1 record is judged by the 0.0.1 header rules: its uint128 header and agdx.to as ever', () => {
    const env = command({ target: 'critic' });
    expect(
      headerFindings(env, [{ name: 'gen_ai.conversation.id', kind: 'uint128', value: id(2).slice().reverse(), span: null }, text('agdx.to', 'critic')]),
    ).toEqual([]);
    expect(headerFindings(env, [{ name: 'gen_ai.conversation.id', kind: 'uint128', value: id(2), span: null }])[0].message).toContain('written big-endian');
  });

  it('headers a signed value fixes are covered: the conversation as text, agdx.to *, the agent, the lineage', () => {
    const signed = signEnvelope(command({ parent: id(4), root: id(5) }), SEED7);
    const all = [
      text('gen_ai.conversation.id', toCrockford(id(2))),
      text('agdx.to', '*'),
      text('gen_ai.agent.id', 'planner'),
      text('agdx.parent_conv', toCrockford(id(4))),
      text('agdx.root_conv', toCrockford(id(5))),
    ];
    expect(judge(signed, all).signature.not_covered).toEqual(['headers.agdx.av']);
    expect(judge(signed, [text('gen_ai.agent.id', 'critic'), text('agdx.root_conv', toCrockford(id(9)))]).signature.not_covered).toEqual([
      'headers.agdx.av',
      'headers.gen_ai.agent.id',
      'headers.agdx.root_conv',
    ]);
  });
});

describe('signatures over what was signed', () => {
  it("the signing input is the record's fields in its dialect's order: parent and root are signed, and a change to them breaks it", () => {
    const signed = signEnvelope(command({ parent: id(4), root: id(5) }), SEED7);
    const seg = signingInputSegments(signed).envelope;
    const text = new TextDecoder('latin1').decode(seg);
    expect(text.indexOf('conversation')).toBeLessThan(text.indexOf('parent'));
    expect(text.indexOf('parent')).toBeLessThan(text.indexOf('root'));
    expect(text.indexOf('root')).toBeLessThan(text.indexOf('source'));
    expect(reportOf(signed, KEYS).signature).toMatchObject({ status: 'valid', trusted: true, not_covered: [] });
    expect(reportOf({ ...signed, parent: id(6) }, KEYS).signature.status).toBe('invalid');
  });

  /** A signed envelope with a field no dialect knows, which its writer signed as written: the map with the field, minus the signature. */
  function signedAsWritten(): Uint8Array {
    const body = {
      kind: 'command',
      record: id(1),
      conversation: id(2),
      source: 'planner',
      correlation: id(3),
      approved_by: 'ops',
      body: new Uint8Array([0x7b, 0x7d]),
    };
    const unsigned = cbor(body);
    const message = concatBytes(new TextEncoder().encode('agdx.signature.v1'), unsigned);
    return cbor({ ...body, signature: { scheme: 1, key_id: fromHex(KEYS[0].id)!, bytes: ed.sign(message, SEED7) } });
  }

  it('a field no dialect knows: the envelope as received is tried too, and when it verifies the field counts as covered', () => {
    const r = reportOf(signedAsWritten(), KEYS);
    expect(r.signature).toMatchObject({ status: 'valid', trusted: true, not_covered: [] });
    expect(r.signature.reason).toContain('over the envelope as received, which holds fields no AGDX dialect this inspector knows (approved_by)');
    expect(rulesOf(r)).toContain('agdx/unknown-field');
    // Without the key: unknown, and the field is not covered.
    expect(reportOf(signedAsWritten()).signature).toMatchObject({ status: 'unknown_key', not_covered: ['approved_by'] });
  });

  it('a field appended to a canonically signed record is not covered; the canonical input verifies', () => {
    const signed = encodeEnvelope(signEnvelope(command(), SEED7));
    // The map head of 6 entries becomes 7, and a field goes before the signature.
    const item = readSingle(signed);
    if (!item.ok || item.value.kind !== 'map') throw new Error('bad');
    const sigAt = item.value.entries.at(-1)!.key.start;
    const extra = cbor({ approved_by: 'ops' }).subarray(1);
    const bytes = concatBytes(Uint8Array.of(signed[0] + 1), signed.subarray(1, sigAt), extra, signed.subarray(sigAt));
    const r = reportOf(bytes, KEYS);
    expect(r.signature).toMatchObject({ status: 'valid', not_covered: ['approved_by'] });
    expect(r.signature.reason).not.toContain('as received');
  });

  it('the verifier pool asks the same checks in the same order (the as-received input after the canonical one)', async () => {
    const input = concatBytes(signedAsWritten(), encodeEnvelope(signEnvelope(command({ parent: id(4) }), SEED7)));
    const { records } = inspectInput(0, { name: 'x', bytes: input });
    const asked: number[] = [];
    const pooled = await applyKeysWith(records, KEYS, async (jobs) => {
      asked.push(jobs.length);
      return jobs.map((j) => ed.verify(j.signature, j.message, j.publicKey));
    });
    expect(asked).toEqual([3]);
    expect(pooled.map((r) => r.verdict.signature.status)).toEqual(['valid', 'valid']);
    expect(pooled[0].verdict.signature.not_covered).toEqual([]);
    // The same as verifying in place.
    expect(inspect([{ name: 'x', bytes: input }], { keys: KEYS }).records.map((r) => r.verdict.signature)).toEqual(pooled.map((r) => r.verdict.signature));
  });
});

describe('the new fields elsewhere', () => {
  it('comparison: lineage as ids, and the dialect and display type among the verdict changes', () => {
    const side = (env: Envelope, key: number) => {
      const record = inspectInput(0, { name: `${key}.bin`, bytes: encodeEnvelope(env) }).records[0];
      return { key, record, inputName: `${key}.bin`, valid: isValid(record.verdict), findings: record.verdict.findings, workflow: null };
    };
    const c = compareRecords(side(command({ parent: id(4) }), 0), side(command({ parent: id(6), operation: 'session_cancel' }), 1));
    const parent = c.fields.rows.find((r) => r.path === 'parent');
    expect(parent).toBeDefined();
    expect(JSON.stringify(parent)).toContain(toCrockford(id(6)));
    expect(c.verdicts.changes).toContain('display type agent.message → unauthorized_control');
    const d = compareRecords(side(command(), 0), side(command({ root: id(5), parent: id(4) }), 1));
    expect(d.verdicts.changes).toContain('AGDX dialect 0.0.1 → 0.7');
  });

  it('redaction: a session body keeps its shape (the record stays valid, its lineage kept); a state document loses its values', () => {
    const bytes = concatBytes(
      encodeEnvelope(session(1, { label: 'Secret project', ...START, budget: { tokens: 1000 }, tags: ['client-x'] })),
      encodeEnvelope(event('state_snapshot', { base_revision: 4, document: { card: '4111 1111', balance: 1234 } })),
    );
    const { records } = inspectInput(0, { name: 'x', bytes });
    const out = redactInput(bytes, records);
    expect(out.blanked).toEqual(['2 session, state or context bodies (their values; their shape kept)']);
    expect(new TextDecoder('latin1').decode(out.bytes)).not.toMatch(/Secret|client-x|4111/);
    const again = inspectInput(0, { name: 'x', bytes: out.bytes }).records;
    expect(again.map((r) => isValid(r.verdict))).toEqual([true, true]);
    expect(again[0].verdict.findings).toEqual([]);
    expect(again[1].verdict.findings).toEqual([]);
    expect(again[0].verdict.displayType).toBe('session.submitted');
  });

  it('a permalink carries the records: reopened, they have the same dialect, evidence and display type', async () => {
    const bytes = encodeEnvelope(session(10, { actor: 'planner' }));
    const link = await encodePermalink({
      inputs: [{ name: 'p.bin', bytes }],
      redacted: false,
      view: { selected: null, tab: 'fields', viewport: null, filters: {} },
    });
    const back = await decodePermalink(link);
    if (!back.ok) throw new Error(back.error.message);
    const r = reportOf(back.state.inputs[0].bytes);
    expect(r).toMatchObject({
      agdx_dialect: '0.7',
      agdx_dialect_evidence: ['parent', 'root', 'task_state', 'operation'],
      display_type: 'session.paused',
      valid: true,
    });
  });
});
