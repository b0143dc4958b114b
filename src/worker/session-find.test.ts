// Finding records in the worker session (issue 18, items 5 and 7): the rule ids present with their
// counts, the rule filter by id, start and word, "any problem", and a record's cause, cause_at and
// correlation resolved to the records they name.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { otherRegistry, tamperedSignedCommand } from '../../e2e/crafted';
import { InspectorSession } from './session';
import { inspectorHandlers } from './handlers';

const root = resolve(__dirname, '../..');
const read = (p: string) => new Uint8Array(readFileSync(resolve(root, p)));
/** The samples a first visit loads, in their order (public/samples/index.json). */
const SAMPLES: string[] = JSON.parse(readFileSync(resolve(root, 'public/samples/index.json'), 'utf8')).map((s: { file: string }) => s.file);

async function loaded(paths: string[]): Promise<InspectorSession> {
  const session = new InspectorSession();
  await session.load(paths.map((p) => ({ name: p.split('/').pop()!, data: new Blob([read(p)]) })));
  return session;
}
const samples = () => loaded(SAMPLES.map((f) => `public/samples/${f}`));
/** A record's place in words, to compare keys by what they are. */
const where = (s: InspectorSession, keys: Int32Array) => [...keys].map((k) => `${s.detail(k)!.inputName}#${s.detail(k)!.summary.index}`);

describe('the rule filter in the session', () => {
  it('offers the rule ids the samples carry, with counts, and the records with any problem', async () => {
    const s = await samples();
    const present = s.rulesPresent();
    expect(present.rules.map((r) => [r.id, r.records, r.severity])).toEqual([
      ['agdx/dead-letter', 1, 'info'],
      // The samples' answers carry ULID times three weeks after their commands' deadlines.
      ['agdx/deadline/missed', 2, 'warning'],
      ['agdx/deadline/unanswered', 2, 'info'],
      // The laser fixtures all reuse the record id 01J0Y1…0001: eight records repeat it (issue 26).
      ['agdx/graph/duplicate-id', 8, 'warning'],
      ['agdx/graph/missing-cause', 1, 'info'],
      // The conversation's stream: sequence 0, then 6 (a gap), then 7 after the end.
      ['agdx/graph/stream-after-end', 1, 'warning'],
      ['agdx/graph/stream-gap', 1, 'warning'],
      ['agdx/matrix/correlation', 1, 'error'],
      ['agdx/matrix/operation', 1, 'error'],
      // The AgentDNA workflow: one of its envelopes reports a failed tool call.
      ['agentdna/status-code', 1, 'warning'],
      ['cbor/truncated', 1, 'error'],
    ]);
    expect(present.rules.every((r) => r.title && r.title.length > 0)).toBe(true);
    // The two invalid records, the truncated one, the two late answers, the workflow, the stream's two
    // chunks and the records repeating an id (a warning each); not the dead letter nor the unanswered
    // commands (their findings are info).
    expect(present.problems).toBe(12);
  });

  it('"agdx/matrix" and "agdx/matrix/" find the invalid samples; an exact id finds its own', async () => {
    const s = await samples();
    const invalid = ['conversation.cborseq#5', 'agent_invalid_status_bad_operation.bin#0'];
    expect(where(s, s.filter({ rule: 'agdx/matrix' }))).toEqual(invalid);
    expect(where(s, s.filter({ rule: 'agdx/matrix/' }))).toEqual(invalid);
    expect(where(s, s.filter({ rule: ' AGDX/Matrix ' }))).toEqual(invalid);
    expect(s.matchRules('agdx/matrix')).toEqual(['agdx/matrix/correlation', 'agdx/matrix/operation']);
    expect(where(s, s.filter({ rule: 'agdx/matrix/operation' }))).toEqual(['agent_invalid_status_bad_operation.bin#0']);
    // A word inside ids; a decode error's code counts as a rule.
    expect(where(s, s.filter({ rule: 'trunc' }))).toEqual(['conversation.cborseq#6']);
    // Words that mean no id present: nothing, and no id matched.
    expect(s.filter({ rule: 'must' })).toHaveLength(0);
    expect(s.matchRules('must')).toEqual([]);
  });

  it('"problem" keeps records not decoded or with any error or warning; it combines with the other fields', async () => {
    const s = await samples();
    expect(where(s, s.filter({ validity: 'problem' }))).toEqual([
      'conversation.cborseq#2',
      'conversation.cborseq#3',
      'conversation.cborseq#4',
      'conversation.cborseq#5',
      'conversation.cborseq#6',
      'record_http_v07.json#0',
      'agent_record.bin#0',
      'signed_command.bin#0',
      'agentdna_workflow.json#0',
      'agent_error.bin#0',
      'agent_status_card.bin#0',
      'agent_invalid_status_bad_operation.bin#0',
    ]);
    expect(where(s, s.filter({ validity: 'problem', kind: 'command' }))).toEqual([
      'conversation.cborseq#5',
      'record_http_v07.json#0',
      'agent_record.bin#0',
      'signed_command.bin#0',
    ]);
  });

  it('a warning is a problem: the log-level cause-mismatch of the Iggy conversation', async () => {
    const s = await loaded(['vectors/agdx/made/conversation_http_v07.json']);
    const rule = (id: string, severity: string) => ({ id, records: 1, severity, title: expect.any(String) });
    expect(s.rulesPresent()).toEqual({
      rules: [
        rule('agdx/graph/cause-mismatch', 'warning'),
        // Its event's cause is absent, and its stream has a duplicate, a gap and a terminal after the gap.
        rule('agdx/graph/missing-cause', 'info'),
        rule('agdx/graph/stream-after-end', 'warning'),
        rule('agdx/graph/stream-duplicate', 'warning'),
        rule('agdx/graph/stream-gap', 'warning'),
      ],
      problems: 4,
    });
    expect(where(s, s.filter({ rule: 'mismatch' }))).toEqual(['conversation_http_v07.json#9']);
    expect(where(s, s.filter({ validity: 'problem' }))).toHaveLength(4);
    expect(where(s, s.filter({ validity: 'problem' }))).toContain('conversation_http_v07.json#9');
  });

  it('the counts follow the load: a second load adds its rules, a clear empties them', async () => {
    const s = await loaded(['vectors/agdx/made/conversation_http_v07.json']);
    const first = s.rulesPresent().rules.map((r) => r.id);
    expect(first).toContain('agdx/graph/cause-mismatch');
    await s.load([{ name: 'bad.bin', data: new Blob([read('public/samples/agent_invalid_status_bad_operation.bin')]) }]);
    // It repeats the first input's record id too.
    expect(s.rulesPresent().rules.map((r) => r.id)).toEqual([...first, 'agdx/graph/duplicate-id', 'agdx/matrix/operation'].sort());
    s.clear();
    expect(s.rulesPresent()).toEqual({ rules: [], problems: 0 });
    expect(s.filter({ rule: 'agdx/' })).toHaveLength(0);
  });

  it('the filter reply names the rule ids the words matched; the rules request answers the counts', async () => {
    const session = new InspectorSession();
    const handlers = inspectorHandlers(session);
    const ctx = { id: 1, part: () => {}, transfer: () => {} };
    await handlers.load({ inputs: SAMPLES.map((f) => ({ name: f, data: new Blob([read(`public/samples/${f}`)]) })) }, ctx);
    const reply = await handlers.filter({ filter: { rule: 'agdx/matrix' } }, ctx);
    expect(reply.rules).toEqual(['agdx/matrix/correlation', 'agdx/matrix/operation']);
    expect(reply.keys).toHaveLength(2);
    expect((await handlers.filter({ filter: { validity: 'valid' } }, ctx)).rules).toBeNull();
    expect((await handlers.rules({}, ctx)).problems).toBe(12);
  });
});

describe("a record's links in the session", () => {
  it('the response of the conversation sample: cause names the command, cause_at no loaded record, correlation the command', async () => {
    const s = await samples();
    const keyOf = (input: string, index: number) => {
      for (let k = 0; k < s.size; k++) if (s.detail(k)!.inputName === input && s.detail(k)!.summary.index === index) return k;
      throw new Error(`no ${input}#${index}`);
    };
    const response = keyOf('conversation.cborseq', 4);
    const command = keyOf('conversation.cborseq', 0);
    const links = s.detail(response)!.links;
    expect(links.map((l) => l.field)).toEqual(['cause', 'cause_at', 'correlation']);
    const [cause, at, corr] = links;
    expect(cause.target).toEqual({ key: command, label: expect.stringMatching(/^command 01J0Y1…\w+ · record #0$/) });
    expect(at).toMatchObject({ ref: 'stream 1, topic 2, partition 3, offset 41', target: null });
    // The samples load records with log positions, so cause_at was looked for: its parent is a ghost.
    expect(at.note).toBe('no loaded record is at this log position');
    expect(corr.target?.key).toBe(command);
    // The command's correlation lists what answers it: the chunk stream (by its first chunk) and the response.
    const [cmdCorr] = s.detail(command)!.links;
    expect(cmdCorr).toMatchObject({ field: 'correlation', target: null, answerCount: 2 });
    expect(cmdCorr.answers.map((a) => a.key)).toEqual([command + 1, response]);
    expect(cmdCorr.answers[0].label).toMatch(/^chunk · record #1$/);
  });

  it('a link to a record in another input names that input; one in its own input says only its place', async () => {
    const s = await loaded(['agent_response.bin', 'agent_record.bin'].map((f) => `vectors/agdx/laser-wire-0.0.1/${f}`));
    const cause = s.detail(0)!.links.find((l) => l.field === 'cause')!;
    expect(cause.target).toEqual({ key: 1, label: expect.stringMatching(/^command 01J0Y1…\w+ · agent_record\.bin #0$/) });
  });

  it('a record without an envelope has no links', async () => {
    const s = await samples();
    const unreadable = [...Array(s.size).keys()].find((k) => !s.detail(k)!.summary.decoded)!;
    expect(s.detail(unreadable)!.links).toEqual([]);
  });
});

describe('"Any problem" is the one verdict model\'s (core/verdict.ts hasProblem)', () => {
  it('a record whose signature does not hold is a problem, whatever its fields say', async () => {
    const session = new InspectorSession();
    await session.setKeys(otherRegistry());
    await session.load([{ name: 'tampered.bin', data: new Blob([tamperedSignedCommand() as Uint8Array<ArrayBuffer>]) }]);
    expect(session.detail(0)!.summary).toMatchObject({ valid: true, signature: 'invalid', errors: 0 });
    expect(where(session, session.filter({ validity: 'problem' }))).toEqual(['tampered.bin#0']);
    expect(session.rulesPresent().problems).toBe(1);
  });
});
