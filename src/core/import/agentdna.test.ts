// The AgentDNA importer: every AgentDNA vector's reading is golden; the shapes it recognises (an
// IntentWorkflow, a bare envelope, a card, a card history or an array of workflows) and those it
// leaves alone; cards and their histories; and a history read in parts gives what the whole gives.
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { signedBytes } from '../agentdna/hash';
import type { WorkflowReport } from '../agentdna/model';
import { fromHex, toBase64, toHex, utf8Encode } from '../bytes';
import { inspectInput, inspectInputBatches } from '../inspect';
import { readJson, type JsonValue } from '../json/lossless';
import { recordViews, type InspectedRecord } from '../records';
import { isValid } from '../verdict';
import { agentdna, agentdnaShape, readAgentDna, readAgentDnaParts, type AgentDnaPart, type AgentDnaResult } from './agentdna';
import { FIXTURE_FORMATS, fixturesOf, flat, golden, sourceOf, utf8, vector, type FlatRecord } from '../../../test/support/import-helpers';

describe('fixtures', () => {
  it.each(fixturesOf(agentdna))('%s', (file) => {
    const bytes = vector(file);
    expect(`agentdna-${agentdna.detect(sourceOf(bytes))?.shape}`).toBe(FIXTURE_FORMATS[file]);
    expect(golden(file, bytes)).toMatchSnapshot();
  });

  it('a card state whose data string nests too deeply is json/invalid, the only JSON code report.md has', () => {
    const deep = `{"type": "user_card", "x": ${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const [{ verdict: r }] = inspectInput(0, { name: 'cards.json', bytes: utf8(JSON.stringify([{ data: deep }])) }).records;
    expect(r.decoded).toBe(false);
    expect(r.error).toMatchObject({ code: 'json/invalid' });
    expect(r.error!.message).toMatch(/^the state's data is not JSON: /);
  });
});

// ---------------------------------------------------------------------------------------------
// Read directly, with the synthetic vectors' keys
// ---------------------------------------------------------------------------------------------

const VECTORS = new URL('../../../vectors/agentdna/', import.meta.url);
const bytesOf = (rel: string) => new Uint8Array(readFileSync(new URL(rel, VECTORS)));
const jsonOf = (rel: string) => JSON.parse(readFileSync(new URL(rel, VECTORS), 'utf8'));

function parse(bytes: Uint8Array): JsonValue {
  const r = readJson(bytes);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}
function read(bytes: Uint8Array, extraKeys?: Map<string, Uint8Array[]>): Omit<AgentDnaResult, 'records'> & { records: FlatRecord[] } {
  const r = readAgentDna(0, bytes, parse(bytes), { extraKeys });
  return { ...r, records: r.records.map((x) => flat(x)) };
}
function readText(text: string) {
  return read(utf8Encode(text));
}
const rules = (r: FlatRecord) => r.findings.map((f) => f.rule);
const slice = (bytes: Uint8Array, span: [number, number] | null) => (span ? new TextDecoder().decode(bytes.subarray(span[0], span[1])) : null);

const keys = jsonOf('synthetic/synthetic_keys.json') as Record<string, { private_key_hex: string; did: string }>;
const synthetic = (name: string) => bytesOf(`synthetic/synthetic_${name}.serialized.json`);
/** The hash of the synthetic workflows' root envelope. */
const ROOT_HASH = '5e6c188d81c650d88310b0d8d549c320bf8e200c4feee89b405f59e9bc1f1978';

// ---------------------------------------------------------------------------------------------
// Documents built here, signed with the synthetic keys
// ---------------------------------------------------------------------------------------------

type Obj = Record<string, unknown>;
function sign(keyName: string, message: string): string {
  const sk = fromHex(keys[keyName].private_key_hex)!;
  return toHex(secp256k1.sign(signedBytes(message, 'truncate'), sk, { prehash: false, lowS: false, format: 'der' }));
}
/** Builds a signed envelope through the module itself (hash, message), as AgentDNA's build() does. */
function build(keyName: string, fields: Obj, parents: Obj[] = []): Obj {
  const draft = { from: keys[keyName].did, ...fields, parent_envelope: parents.length ? parents : null };
  const { workflows } = readText(JSON.stringify(draft));
  const e = workflows[0].envelopes[0];
  return { ...draft, hash: e.content_hash, signature: sign(keyName, e.message ?? e.content_hash!) };
}

describe('shapes and edge cases', () => {
  it('a bare envelope is an agentdna.envelope record with its own workflow report', () => {
    const doc = JSON.parse(new TextDecoder().decode(synthetic('valid_single_root'))).envelope;
    const bytes = utf8Encode(JSON.stringify(doc));
    expect(agentdnaShape(parse(bytes))).toBe('envelope');
    const { records, workflows } = read(bytes);
    expect(records[0].format).toBe('agentdna.envelope');
    expect(records[0].id).toBe(ROOT_HASH);
    expect(records[0].valid).toBe(true);
    expect(workflows[0].modes).toEqual({ light: 1000, heavy: 1000, boundary: 1000 });
    expect(workflows[0].mode_details.boundary.notChecked).toMatch(/also the root/);
    expect(records[0].tree[0].path).toBe('');
  });

  it('a payload of content blocks is hashed as JSON and verifies', () => {
    const e = build('agentdna-test-worker-1', { payload: [{ type: 'text', text: 'hi' }], epoch: 1 });
    const { records, workflows } = readText(JSON.stringify(e));
    expect(workflows[0].envelopes[0].content_json).toBe(
      `{"epoch":1,"from_":"${keys['agentdna-test-worker-1'].did}","payload":[{"text":"hi","type":"text"}],"run_id":"","status_code":1000,"to":""}`,
    );
    expect(workflows[0].envelopes[0].signature).toBe('valid');
    expect(records[0].body?.rendering).toBe('json');
  });

  it('floats keep their Python form: epoch 1.0 is hashed as 1.0, not 1', () => {
    const e = build('agentdna-test-worker-1', { payload: 'x', epoch: 7 });
    const text = JSON.stringify(e).replace('"epoch":7', '"epoch":7.0');
    const { workflows } = readText(text);
    expect(workflows[0].envelopes[0].content_json).toContain('"epoch":7.0');
    expect(workflows[0].envelopes[0].hash_ok).toBe(false);
  });

  it('a parent without a hash makes the message impossible: agentdna/parent-hash, and AgentDNA raises', () => {
    const root = build('agentdna-test-user', { payload: 'hello', epoch: 1 });
    delete root.hash;
    const child = build('agentdna-test-orchestrator', { payload: 'next', epoch: 2 }, [{ ...root, hash: 'placeholder' }]);
    child.parent_envelope = [root];
    const bytes = utf8Encode(JSON.stringify({ id: 'Qm', type: 'intent_workflow', version: '2.0', info: {}, envelope: child }));
    const { records, workflows } = read(bytes);
    const f = records[0].findings.find((x) => x.rule === 'agentdna/parent-hash')!;
    expect(f.severity).toBe('error');
    expect(f.message).toMatch(/envelope\.parent_envelope\[0\] has no hash/);
    expect(workflows[0].envelopes[0].message).toBeNull();
    expect(workflows[0].envelopes[0].signature).toBe('invalid');
    expect(workflows[0].mode_details.light.raised).toBe(true);
    expect(workflows[0].modes.light).toBe(2001);
  });

  it('a signed chain of two verifies; a high-S signature is accepted', () => {
    const root = build('agentdna-test-user', { payload: 'q', epoch: 10, to: keys['agentdna-test-worker-2'].did });
    const tip = build('agentdna-test-worker-2', { payload: 'a', epoch: 11, status_code: 1000, run_id: 'r1' }, [root]);
    const { records, workflows } = readText(JSON.stringify({ id: 'Qm1', type: 'intent_workflow', version: '2.0', info: { k: 1 }, envelope: tip }));
    expect(workflows[0].modes).toEqual({ light: 1000, heavy: 1000, boundary: 1000 });
    expect(records[0].valid).toBe(true);
    expect(workflows[0].envelopes[0].combined_json).toBe(`{"content_hash":"${workflows[0].envelopes[0].content_hash}","parents":["${root.hash}"]}`);
  });

  it('a much older document (object actors, a single parent object, no hash) is shown and marked unverifiable', () => {
    const old = {
      type: 'intent_workflow',
      version: '1.0',
      envelope: {
        from: { id: 'agent-1', type: 'agent' },
        to: { id: 'user-1', type: 'user' },
        payload: 'done',
        epoch: 5,
        signature: '3006020101020101',
        parent_envelope: { from: { id: 'user-1', type: 'user' }, payload: 'do it', epoch: 4, signature: '' },
      },
    };
    const bytes = utf8Encode(JSON.stringify(old));
    const { records, workflows } = read(bytes);
    const r = records[0];
    expect(r.decoded).toBe(true);
    expect(r.valid).toBe(false);
    const legacy = r.findings.filter((f) => f.rule === 'agentdna/legacy');
    expect(legacy.length).toBeGreaterThanOrEqual(2);
    expect(legacy.map((f) => f.message).join(' ')).toMatch(/object \(1\.0 actors\)/);
    expect(legacy.map((f) => f.message).join(' ')).toMatch(/single object/);
    expect(r.findings.find((f) => f.rule === 'agentdna/hash')!.message).toMatch(/no hash/);
    expect(workflows[0].envelopes).toHaveLength(2);
    expect(workflows[0].legacy).toBe(true);
    expect(r.source).toBeNull();
  });

  it('a workflow whose envelope is not an object is a decode error, not a throw', () => {
    const { records, workflows } = readText('{"type":"intent_workflow","version":"2.0","id":"x","envelope":null}');
    expect(records[0].decoded).toBe(false);
    expect(records[0].error?.code).toBe('agentdna/shape');
    expect(workflows).toEqual([]);
  });

  it('duplicate keys: Python keeps the last one, and the inspector says so', () => {
    const e = build('agentdna-test-worker-1', { payload: 'real', epoch: 3 });
    const text = JSON.stringify(e).replace('"payload":"real"', '"payload":"decoy","payload":"real"');
    const { records, workflows } = readText(text);
    expect(workflows[0].envelopes[0].signature).toBe('valid');
    expect(workflows[0].envelopes[0].hash_ok).toBe(true);
    expect(rules(records[0])).toContain('agentdna/duplicate-key');
  });

  it('other JSON (AGDX envelope views, plain objects) is not AgentDNA', () => {
    expect(agentdnaShape(parse(utf8Encode('{"kind":"command","conversation":"01J","source":"a"}')))).toBeNull();
    expect(agentdnaShape(parse(utf8Encode('[1,2]')))).toBeNull();
    expect(agentdnaShape(parse(utf8Encode('"x"')))).toBeNull();
    const { records } = readText('{"hello":1}');
    expect(records[0].format).toBe('unknown');
    expect(records[0].error?.code).toBe('agentdna/shape');
  });

  it('never throws for random JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (v) => {
        const bytes = utf8Encode(JSON.stringify(v) ?? 'null');
        const root = parse(bytes);
        agentdnaShape(root);
        const r = readAgentDna(0, bytes, root);
        expect(r.records.length).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
    // envelope-shaped random documents
    const field = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.constant(null), fc.boolean(), fc.array(fc.string(), { maxLength: 2 }));
    const envelope = fc.letrec((tie) => ({
      env: fc.record(
        {
          from: field,
          payload: field,
          epoch: field,
          status_code: field,
          hash: field,
          signature: field,
          to: field,
          parent_envelope: fc.oneof(fc.constant(null), field, fc.array(tie('env'), { maxLength: 2 }), tie('env')),
        },
        { requiredKeys: [] },
      ),
    })).env;
    fc.assert(
      fc.property(envelope, (e) => {
        const bytes = utf8Encode(JSON.stringify({ type: 'intent_workflow', envelope: e }));
        const r = readAgentDna(0, bytes, parse(bytes));
        expect(r.records).toHaveLength(1);
      }),
      { numRuns: 200 },
    );
  });
});

describe('cards', () => {
  const agentDid = keys['agentdna-test-worker-1'].did;
  const userDid = keys['agentdna-test-user'].did;
  const b64 = (s: string) => toBase64(utf8Encode(s));

  it('a user card and an agent card with a base64 policy', () => {
    const user = readText(JSON.stringify({ type: 'user_card', id: userDid }));
    expect(agentdnaShape(parse(utf8Encode(JSON.stringify({ type: 'user_card', id: userDid }))))).toBe('card');
    expect(user.records[0].format).toBe('agentdna.card');
    expect(user.records[0].kind).toBe('user_card');
    expect(user.records[0].source).toBe(userDid);
    expect(user.records[0].id).toMatch(/^Qm/);
    expect(user.records[0].valid).toBe(true);

    const policy = '# Policy\nallow: read\n';
    const text = JSON.stringify({ type: 'actor_card', id: agentDid, policy: b64(policy) });
    const agent = readText(text);
    const r = agent.records[0];
    expect(r.kind).toBe('actor_card');
    expect(r.body?.text).toContain('allow: read');
    expect(slice(utf8Encode(text), r.body!.span)).toBe(`"${b64(policy)}"`);
    expect(r.tree.find((n) => n.label === 'policy')!.hint).toMatch(/base64 of a 21-byte policy document/);
  });

  it('a history of card states gives one record per version with the policy diff', () => {
    const states = [
      { type: 'actor_card', id: agentDid, policy: b64('allow: read\ndeny: write\n') },
      { type: 'actor_card', id: agentDid, metadata: {}, policy: b64('allow: read\nallow: write\n') },
      { type: 'actor_card', id: agentDid, metadata: {}, policy: b64('allow: read\nallow: write\n') },
    ];
    const text = JSON.stringify(states);
    expect(agentdnaShape(parse(utf8Encode(text)))).toBe('cards');
    const { records } = readText(text);
    expect(records.map((r) => r.index)).toEqual([0, 1, 2]);
    expect(records[0].summary).toMatch(/v1: first version/);
    expect(records[1].summary).toMatch(/v2: policy \+1 −1 lines/);
    expect(records[1].body?.text).toContain('-deny: write');
    expect(records[1].body?.text).toContain('+allow: write');
    expect(records[2].summary).toMatch(/unchanged/);
  });

  it('a history of one-line JSON policies is compared structurally: the permissions added and removed, the values changed', () => {
    const policy = (p: unknown) => b64(JSON.stringify(p));
    const states = [
      { type: 'actor_card', id: agentDid, policy: policy({ allow: ['read', 'write'], max_tokens: 1000 }) },
      { type: 'actor_card', id: agentDid, policy: policy({ allow: ['read', 'admin'], max_tokens: 2000 }) },
    ];
    const { records } = readText(JSON.stringify(states));
    expect(records[1].summary).toMatch(/v2: policy: 1 added, 1 removed, 1 changed$/);
    expect(records[1].summary).not.toMatch(/lines/);
    const body = records[1].body!.text;
    expect(body).toContain('1 entry added, 1 removed, 1 value changed (compared as JSON) since version 1');
    expect(body).toContain('removed  allow[1]: "write"');
    expect(body).toContain('added    allow[1]: "admin"');
    expect(body).toContain('changed  max_tokens: 1000 → 2000');
  });

  it('states as the provenance layer returns them ({data: "<JSON>"}), including a workflow provenance card', () => {
    const wf = new TextDecoder().decode(synthetic('valid_single_root'));
    const states = [{ data: JSON.stringify({ type: 'user_card', id: userDid }) }, { data: wf }];
    const bytes = utf8Encode(JSON.stringify(states));
    expect(agentdnaShape(parse(bytes))).toBe('cards');
    const { records, workflows } = read(bytes);
    expect(records).toHaveLength(2);
    expect(records[0].kind).toBe('user_card');
    expect(records[0].viewOrigin).toBe('decoded-text');
    const card = records[1];
    expect(card.format).toBe('agentdna.card');
    expect(card.kind).toBe('workflow');
    expect(card.id).toBe(ROOT_HASH);
    expect(card.viewOrigin).toBe('decoded-text');
    expect(slice(card.view, card.span)).toBe(wf);
    expect(card.inputSpan).not.toBeNull();
    expect(workflows).toHaveLength(1);
    expect(workflows[0].record).toBe(1);
    expect(workflows[0].modes).toEqual({ light: 1000, heavy: 1000, boundary: 1000 });
  });

  it('older user_nft / agent_nft shapes are read and marked legacy', () => {
    const { records } = readText(
      JSON.stringify([
        { type: 'user_nft', user_did: userDid, metadata: { name: 'n' } },
        { type: 'agent_nft', agent_did: agentDid, agent_metadata: {}, policy: b64('p') },
      ]),
    );
    expect(records.map((r) => r.kind)).toEqual(['user_nft', 'agent_nft']);
    expect(records.map((r) => r.source)).toEqual([userDid, agentDid]);
    expect(records.every((r) => r.findings.some((f) => f.rule === 'agentdna/legacy'))).toBe(true);
  });

  it('a policy that is not base64 is an error on the card', () => {
    const { records } = readText(JSON.stringify({ type: 'actor_card', id: agentDid, policy: '***' }));
    expect(records[0].findings.map((f) => f.rule)).toEqual(['agentdna/card-policy']);
    expect(records[0].valid).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// A card history or an array of workflows, in parts
// ---------------------------------------------------------------------------------------------

const dir = resolve(__dirname, '../../../vectors/agentdna/synthetic');
const workflowTexts = readdirSync(dir)
  .filter((f) => f.endsWith('.serialized.json'))
  .sort()
  .map((f) => readFileSync(resolve(dir, f), 'utf8').trim());
const text = new TextEncoder().encode(`[\n${workflowTexts.join(',\n')}\n]`);
const root = () => {
  const parsed = readJson(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
};
/** Workflows of parts that each index their own records, put back in the input's numbering. */
function rebased(parts: Array<{ records: InspectedRecord[]; workflows: WorkflowReport[] }>): WorkflowReport[] {
  let base = 0;
  return parts.flatMap((p) => {
    const out = p.workflows.map((w) => ({ ...w, record: w.record + base }));
    base += p.records.length;
    return out;
  });
}

/** What a record's verdict says. */
const said = ({ verdict: r }: InspectedRecord) => ({
  index: r.index,
  kind: r.kind,
  format: r.format,
  valid: isValid(r),
  signature: r.signature,
  findings: r.findings.map((f) => f.rule),
  span: r.inputSpan,
});

describe('AgentDNA workflows in parts', () => {
  it('has several workflows to split', () => {
    expect(workflowTexts.length).toBeGreaterThanOrEqual(4);
  });

  it('gives the same records and workflows in parts of 2 as whole', () => {
    const whole = readAgentDna(0, text, root());
    const parts = [...readAgentDnaParts(0, text, root(), undefined, { partSize: 2, partMs: Infinity })].filter((p): p is AgentDnaPart => !('wait' in p));
    expect(parts.length).toBe(Math.ceil(workflowTexts.length / 2));
    const records = parts.flatMap((p) => p.records);
    expect(records.map(said)).toEqual(whole.records.map(said));
    // Each part's workflows index its own records.
    expect(rebased(parts)).toEqual(whole.workflows);
    // Progress only moves forward, and the last part ends with the document.
    const ends = parts.map((p) => p.end);
    expect(ends).toEqual([...ends].sort((a, b) => a - b));
    expect(ends[ends.length - 1]).toBe(root().end);
  });

  it('streams from inspectInputBatches, the summary on the last batch only', () => {
    const whole = inspectInput(0, { name: 'w.json', bytes: text }, undefined, false);
    const batches = [...inspectInputBatches(0, { name: 'w.json', bytes: text }, undefined, 2)];
    expect(batches.length).toBeGreaterThan(1);
    expect(batches.slice(0, -1).every((b) => b.input === null)).toBe(true);
    expect(batches[batches.length - 1].input).toEqual(whole.input);
    expect(batches.flatMap((b) => b.records).map(said)).toEqual(whole.records.map(said));
    expect(rebased(batches)).toEqual(whole.workflows);
  });

  it('refuses a part size below one', () => {
    expect(() => readAgentDnaParts(0, text, root(), undefined, { partSize: 0 }).next()).toThrow(TypeError);
  });
});

describe('views of workflows read in bulk', () => {
  it('are built when the record is opened, from its span, and are those a read with views makes (a workflow, a bare envelope, a workflow in a state string)', () => {
    const fanin = vector('agentdna/synthetic/synthetic_valid_fanin_dag.serialized.json');
    const parsed = readJson(fanin);
    if (!parsed.ok || parsed.value.type !== 'object') throw new Error('vector');
    const envelope = parsed.value.entries.find((e) => e.key === 'envelope')!.value;
    const bare = fanin.slice(envelope.start, envelope.end);
    const state = utf8(JSON.stringify([{ data: new TextDecoder().decode(fanin) }, { data: JSON.parse(new TextDecoder().decode(fanin)) }]));
    for (const bytes of [fanin, bare, state]) {
      const root = readJson(bytes);
      if (!root.ok) throw new Error('vector');
      const eager = readAgentDna(0, bytes, root.value);
      const lazy = readAgentDna(0, bytes, root.value, { detail: false });
      expect(lazy.records.length).toBeGreaterThan(0);
      for (const r of lazy.records) expect(r.data.views).toBeTypeOf('function');
      expect(lazy.records.map((r) => r.verdict)).toEqual(eager.records.map((r) => r.verdict));
      expect(lazy.workflows).toEqual(eager.workflows);
      expect(lazy.records.map(recordViews)).toEqual(eager.records.map(recordViews));
      expect(lazy.records.map((r) => recordViews(r).tree.length)).not.toContain(0);
    }
  });
});
