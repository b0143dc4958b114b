import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { run, type CliIo } from '../cli/main';
import { parseKeys } from '../core/keys/keys';
import type { WorkflowReport } from '../core/agentdna/model';
import type { Report } from '../core/report';
import { InspectorSession } from './session';
import type { RecordSummary } from '../wire/summary-pack';

const root = resolve(__dirname, '../..');
const files = [
  'vectors/agdx/made/signed_command.bin',
  'vectors/agdx/made/signed_by_other_agent.bin',
  'vectors/agdx/made/signed_context_mismatch_http_v07.json',
  'vectors/agdx/laser-wire-0.0.1/agent_command_signed.bin',
  'vectors/agdx/laser-wire-0.0.1/agent_command.bin',
  'vectors/agdx/laser-wire-0.0.1/agent_dead_letter.bin',
];
const keysPath = 'vectors/agdx/made/keys.json';
const read = (p: string) => new Uint8Array(readFileSync(resolve(root, p)));

async function cliReport(args: string[]): Promise<Report> {
  let out = '';
  const io: CliIo = { readFile: async (p) => read(p), readStdin: async () => new Uint8Array(), stdout: (t) => (out += t), stderr: () => {} };
  await run(args, io);
  return JSON.parse(out);
}

describe('the app (worker session) and the CLI agree', () => {
  it('gives the same signature verdicts for the same files and keys', async () => {
    const session = new InspectorSession();
    await session.setKeys(parseKeys(read(keysPath)).keys);
    const { records } = await session.load(files.map((f) => ({ name: f, data: new Blob([read(f)]) })));
    const report = await cliReport(['inspect', '--json', '--keys', keysPath, ...files]);
    expect(records.map((r) => [r.signature, r.trusted, r.valid, r.decoded])).toEqual(
      report.records.map((r) => [r.signature.status, r.signature.trusted, r.valid, r.decoded]),
    );
    expect(records.map((r) => r.signature)).toEqual(['valid', 'valid', 'valid', 'unknown_key', 'unsigned', 'unsigned', 'unsigned']);
    expect(records.map((r) => r.trusted)).toEqual([true, false, false, false, false, false, false]);
  });

  it('re-verifies loaded records when the keys change, and reports what changed', async () => {
    const session = new InspectorSession();
    await session.load([{ name: 'signed', data: new Blob([read('vectors/agdx/made/signed_command.bin')]) }]);
    expect(session.detail(0)!.signature.status).toBe('unknown_key');
    const changed = await session.setKeys(parseKeys(read(keysPath)).keys);
    expect(changed.map((c) => [c.key, c.signature, c.trusted])).toEqual([[0, 'valid', true]]);
    const detail = session.detail(0)!;
    expect(new TextDecoder().decode(detail.signing!.domain)).toBe('agdx.signature.v1');
    expect((await session.setKeys([])).map((c) => c.signature)).toEqual(['unknown_key']);
  });
});

describe("the inputs' digests", () => {
  it('are the SHA-256 the command line reports (WebCrypto in the session, the pure hash in the CLI)', async () => {
    const session = new InspectorSession();
    const { inputs } = await session.load(files.map((f) => ({ name: f, data: new Blob([read(f)]) })));
    const report = await cliReport(['inspect', '--json', ...files]);
    expect(inputs.map((i) => i.sha256)).toEqual(report.inputs.map((i) => i.sha256));
    expect(inputs.every((i) => /^[0-9a-f]{64}$/.test(i.sha256))).toBe(true);
  });
});

describe('AgentDNA trust in the session', () => {
  const fanin = 'vectors/agentdna/synthetic/synthetic_valid_fanin_dag.serialized.json';
  const synthetic = JSON.parse(new TextDecoder().decode(read('vectors/agentdna/synthetic/synthetic_keys.json'))) as Record<
    string,
    { did: string; private_key_hex: string; public_key_uncompressed_hex: string }
  >;
  const dids = (revoked: boolean) =>
    parseKeys(JSON.stringify({ keys: Object.entries(synthetic).map(([name, k]) => ({ agent: name, did: k.did, revoked })) })).keys;

  it('revoking a DID re-checks an already loaded AgentDNA record, its envelopes and the report', async () => {
    const session = new InspectorSession();
    await session.setKeys(dids(false));
    const { records } = await session.load([{ name: 'wf.json', data: new Blob([read(fanin)]) }]);
    expect(records.map((r) => [r.signature, r.trusted])).toEqual([['valid', true]]);
    expect(session.detail(0)!.workflow!.envelopes.every((e) => e.trusted)).toBe(true);

    const changed = await session.setKeys(dids(true));
    expect(changed.map((c) => [c.key, c.signature, c.trusted])).toEqual([[0, 'valid', false]]);
    const detail = session.detail(0)!;
    expect(detail.signature.trusted).toBe(false);
    expect(detail.signature.reason).toContain('is revoked in your registry');
    expect(detail.workflow!.envelopes.some((e) => e.trusted)).toBe(false);
    const report = JSON.parse(session.report().json) as Report;
    expect(report.records[0].signature.trusted).toBe(false);
    expect((report.workflows[0] as { envelopes: { trusted: boolean }[] }).envelopes.some((e) => e.trusted)).toBe(false);

    expect((await session.setKeys(dids(false))).map((c) => c.trusted)).toEqual([true]);
    expect((await session.setKeys([])).map((c) => c.trusted)).toEqual([false]);
    expect(session.detail(0)!.signature.reason).toMatch(/^signature valid · key bound to DID · DID not in your registry/);
  });

  it('the registry applies while a large file streams in too', async () => {
    const session = new InspectorSession();
    await session.setKeys(dids(false));
    const sent: boolean[] = [];
    await session.load([{ name: 'wf.json', data: new Blob([read(fanin)]) }], { batch: (b) => sent.push(...b.records.map((r) => r.trusted)) });
    expect(sent).toEqual([true]);
  });

  it('a key file key added or removed re-verifies the AgentDNA signatures that rest on it', async () => {
    const OTHER = 'did:example:older-account';
    const worker = synthetic['agentdna-test-worker-1'];
    const { secp256k1 } = await import('@noble/curves/secp256k1.js');
    const { signedBytes } = await import('../core/agentdna/hash');
    const { inspect } = await import('../core/inspect');
    const { fromHex, toHex, utf8Encode } = await import('../core/bytes');
    const draft = { from: OTHER, payload: 'x', epoch: 1782668300, parent_envelope: null };
    const first = inspect([{ name: 'e.json', bytes: utf8Encode(JSON.stringify(draft)) }]).workflows[0].envelopes[0];
    const signature = toHex(
      secp256k1.sign(signedBytes(first.message!, 'truncate'), fromHex(worker.private_key_hex)!, { prehash: false, lowS: false, format: 'der' }),
    );
    const bytes = utf8Encode(JSON.stringify({ ...draft, hash: first.content_hash, signature }));

    const session = new InspectorSession();
    const loaded = await session.load([{ name: 'e.json', data: new Blob([bytes.slice()]) }]);
    expect(loaded.records.map((r) => [r.signature, r.valid])).toEqual([['invalid', false]]);
    const key = parseKeys(JSON.stringify({ keys: [{ agent: OTHER, public_key: worker.public_key_uncompressed_hex }] })).keys;
    const changed = await session.setKeys(key);
    expect(changed.map((c) => [c.key, c.signature, c.valid, c.trusted])).toEqual([[0, 'valid', true, true]]);
    expect(session.detail(0)!.workflow!.envelopes[0].key_source).toBe('key-file');
    expect(session.detail(0)!.findings.some((f) => f.rule === 'agentdna/signature')).toBe(false);
    const removed = await session.setKeys([]);
    expect(removed.map((c) => [c.signature, c.valid, c.trusted])).toEqual([['invalid', false, false]]);
  });
});

describe('sharing from the worker', () => {
  const load = async (session: InspectorSession, ...paths: string[]) =>
    session.load(paths.map((p) => ({ name: p.split('/').pop()!, data: new Blob([read(p)]) })));

  it('a link reopens the same inputs and selection in a new session', async () => {
    const a = new InspectorSession();
    await load(a, 'vectors/agdx/made/conversation.cborseq', 'vectors/agdx/iggy/record_http_v07.json');
    const shared = await a.share({ selectedKey: 4, selected: null, tab: 'graph', viewport: { x: 1, y: 2, zoom: 0.5 }, filters: {} }, false, true);
    const b = new InspectorSession();
    const opened = await b.open(shared.fragment);
    expect(opened.error).toBeNull();
    expect(opened.view).toMatchObject({ selectedKey: 4, tab: 'graph', viewport: { x: 1, y: 2, zoom: 0.5 }, redacted: false });
    expect(opened.records.map((r) => [r.kind, r.valid])).toEqual(
      (await load(new InspectorSession(), 'vectors/agdx/made/conversation.cborseq', 'vectors/agdx/iggy/record_http_v07.json')).records.map((r) => [
        r.kind,
        r.valid,
      ]),
    );
    // The bundle carries the same.
    const c = new InspectorSession();
    const fromBundle = await c.load([{ name: 'x.eibundle', data: new Blob([shared.bundle!.slice()]) }]);
    expect(fromBundle.view?.selectedKey).toBe(4);
    expect(fromBundle.records).toHaveLength(opened.records.length);
  });

  it('a view past what a link or bundle may hold (8 MiB) gives no link, and a problem naming the size', async () => {
    const a = new InspectorSession();
    await a.load([{ name: 'big.bin', data: new Blob([new Uint8Array(9 * 1024 * 1024).fill(0xff)]) }]);
    const shared = await a.share({ selectedKey: null, selected: null, tab: 'records', viewport: null, filters: {} }, false, true);
    expect(shared).toMatchObject({ fragment: '', bundle: null });
    expect(shared.problems).toHaveLength(1);
    expect(shared.problems[0]).toMatch(/9\.0 MiB; a link or bundle holds at most 8 MiB/);
  });

  it('redaction blanks every body, keeps offsets, and says the signature cannot be re-checked', async () => {
    const a = new InspectorSession();
    await a.setKeys(parseKeys(read(keysPath)).keys);
    await load(a, 'vectors/agdx/made/signed_command.bin', 'vectors/agdx/made/conversation_http_v07.json', 'vectors/agdx/made/command.hex.txt');
    const shared = await a.share({ selectedKey: 0, selected: null, tab: 'records', viewport: null, filters: {} }, true, false);
    expect(shared.problems).toEqual([]);
    const b = new InspectorSession();
    await b.setKeys(parseKeys(read(keysPath)).keys);
    const opened = await b.open(shared.fragment);
    expect(opened.view?.redacted).toBe(true);
    const signed = b.detail(0)!;
    expect(signed.body?.text).not.toContain('plan the trip');
    expect(signed.signature.reason).toContain('redacted');
    expect(opened.records[0].redacted).toBe(true);
    // Every record still decodes at the same offsets; no body text survives.
    const original = await load(
      new InspectorSession(),
      'vectors/agdx/made/signed_command.bin',
      'vectors/agdx/made/conversation_http_v07.json',
      'vectors/agdx/made/command.hex.txt',
    );
    expect(opened.records.map((r) => [r.kind, r.decoded])).toEqual(original.records.map((r) => [r.kind, r.decoded]));
    let bodies = 0;
    for (let key = 0; key < opened.records.length; key++) {
      const d = b.detail(key)!;
      // Every record that had a body still has one (blanked, not dropped), and no word of it survives.
      expect(!!d.body, `record ${key}`).toBe(!!a.detail(key)!.body);
      if (!d.body) continue;
      bodies++;
      expect(d.body.text, `record ${key}`).not.toMatch(/[A-Za-z]{3,}/);
    }
    expect(bodies).toBeGreaterThan(0);
  });
});

describe('the hostile corpus through the worker session', () => {
  it('loads, opens every record, draws both graphs, folds and reports without an exception', async () => {
    const { readdirSync, statSync } = await import('node:fs');
    const dir = resolve(root, 'vectors/hostile');
    const files = readdirSync(dir).filter((f) => statSync(resolve(dir, f)).isFile() && f !== 'ORIGIN.md');
    const session = new InspectorSession();
    const loaded = await session.load(files.map((f) => ({ name: f, data: new Blob([read(`vectors/hostile/${f}`)]) })));
    expect(loaded.inputs).toHaveLength(files.length);
    for (let key = 0; key < session.size; key++) {
      const d = session.detail(key)!;
      expect(d).not.toBeNull();
      if (!d.summary.decoded) expect(d.error?.code ?? d.summary.errorCode).toMatch(/^[a-z]+\/[a-z0-9-]+/);
    }
    expect(() => session.graph([])).not.toThrow();
    expect(() => session.folds(null)).not.toThrow();
    expect(() => session.folds(0)).not.toThrow();
    expect(() => JSON.parse(session.report().json)).not.toThrow();
    for (const kind of ['command', 'error', 'unknown']) expect(() => session.filter({ kind, rule: 'agdx/', source: '<script>' })).not.toThrow();
  }, 60_000);
});

describe('verification on a pool', () => {
  it('gives the same verdicts through verifyMany as in place, asking each check once', async () => {
    const keys = parseKeys(read(keysPath)).keys;
    let calls = 0;
    const { nobleVerify } = await import('../core/agdx/verify');
    const pooled = new InspectorSession(async (jobs) => {
      calls += jobs.length;
      return jobs.map((j) => nobleVerify(j.signature, j.message, j.publicKey));
    });
    await pooled.setKeys(keys);
    const inputs = files.map((f) => ({ name: f, data: new Blob([read(f)]) }));
    const batches: number[] = [];
    await pooled.load(inputs, { batch: (b) => batches.push(...b.records.map((r) => r.key)) });
    const plain = new InspectorSession();
    await plain.setKeys(keys);
    const expected = await plain.load(inputs);
    for (let key = 0; key < expected.records.length; key++) {
      expect(pooled.detail(key)!.signature).toEqual(plain.detail(key)!.signature);
    }
    expect(calls).toBe(3);
    expect(batches.length).toBe(expected.records.length);
  });
});

describe('AgentDNA signature checks on a pool', () => {
  it('a streamed workflow array: the same records, workflows and report as checking in place, each check asked once', async () => {
    const { agentdnaWorkflows } = await import('../../test/support/generate');
    const { runSignatureJob } = await import('../core/agentdna/signature-jobs');
    const bytes = new TextEncoder().encode(agentdnaWorkflows(120, 5));
    let asked = 0;
    const pooled = new InspectorSession(undefined, async (jobs) => {
      asked += jobs.length;
      await new Promise((r) => setTimeout(r, 0));
      return structuredClone(jobs.map(runSignatureJob));
    });
    const sent: RecordSummary[] = [];
    await pooled.load([{ name: 'w.json', data: new Blob([bytes]) }], { batch: (b) => sent.push(...b.records), pause: () => Promise.resolve() });
    const plain = new InspectorSession();
    const expected = await plain.load([{ name: 'w.json', data: new Blob([bytes]) }]);
    expect(asked).toBe(120 * 5);
    expect(sent.map(({ key, signature, valid, summary }) => ({ key, signature, valid, summary }))).toEqual(
      expected.records.map(({ key, signature, valid, summary }) => ({ key, signature, valid, summary })),
    );
    expect(sent.every((r) => r.signature === 'valid')).toBe(true);
    for (const key of [0, 57, 119]) expect(pooled.detail(key)!.workflow).toEqual(plain.detail(key)!.workflow);
    expect(JSON.parse(pooled.report().json).workflows).toEqual(JSON.parse(plain.report().json).workflows);
  });
});

describe('AgentDNA quick checks on a pool (libsecp256k1)', () => {
  it('lists of candidate keys are completed in new workflows (a detail, the report, the background), never in those handed out; a key change keeps not_covered', async () => {
    const { agentdnaWorkflows } = await import('../../test/support/generate');
    const { runSignatureJob } = await import('../core/agentdna/signature-jobs');
    const { installSecpWasm, isRecoveredPending, resetSignatureCaches } = await import('../core/agentdna/signature');
    const { secpWasmForTests } = await import('../../test/support/secp');
    const bytes = new TextEncoder().encode(agentdnaWorkflows(60, 5));
    installSecpWasm(secpWasmForTests());
    resetSignatureCaches();
    try {
      // The background's full checks wait at a gate, so what was handed out before can be looked at.
      let open!: () => void;
      const gate = new Promise<void>((r) => (open = r));
      let full = 0;
      const pooled = new InspectorSession(undefined, async (jobs) => {
        if (jobs.some((j) => j.full)) {
          full += jobs.length;
          await gate;
        }
        await new Promise((r) => setTimeout(r, 0));
        return structuredClone(jobs.map(runSignatureJob));
      });
      // The workflows as the session holds them now (session-state.ts), and loading's background completion.
      const held = {
        get workflows(): WorkflowReport[] {
          return pooled.state.workflows;
        },
        get background(): Promise<void> {
          return (pooled.loading as unknown as { background: Promise<void> }).background;
        },
      };
      await pooled.load([{ name: 'w.json', data: new Blob([bytes]) }], { batch: () => {}, pause: () => Promise.resolve() });
      const plain = new InspectorSession();
      await plain.load([{ name: 'w.json', data: new Blob([bytes]) }]);
      const before = held.workflows;
      const pending = before.flatMap((w) => w.envelopes.map((e) => e.recovered)).filter(isRecoveredPending);
      expect(pending.length).toBeGreaterThan(200);
      const snapshot = structuredClone(before);
      // A detail completes its record's workflow now, in a new workflow.
      const opened = before.findIndex((w) => w.envelopes.some((e) => isRecoveredPending(e.recovered)));
      expect(pooled.detail(opened)!.workflow).toEqual(plain.detail(opened)!.workflow);
      expect(held.workflows[opened]).not.toBe(before[opened]);
      expect(held.workflows[opened].envelopes.some((e) => isRecoveredPending(e.recovered))).toBe(false);
      // A key change re-applies trust to the workflows as they stand: not_covered kept, lists still shared.
      // Every signer of the first workflow (a chain is as trusted as its least trusted signer).
      const dids = [...new Set(before[0].envelopes.map((e) => e.from!))];
      const keys = parseKeys(new TextEncoder().encode(JSON.stringify({ keys: dids.map((did, i) => ({ agent: `bench-${i}`, did, kind: 'agent' })) }))).keys;
      await pooled.setKeys(keys);
      await plain.setKeys(keys);
      for (const key of [0, 1, 2]) expect(pooled.detail(key)!.signature).toEqual(plain.detail(key)!.signature);
      expect(plain.detail(0)!.signature.not_covered.length).toBeGreaterThan(0);
      expect(pooled.detail(0)!.signature.trusted).toBe(true);
      open();
      await held.background;
      expect(full).toBeGreaterThan(0);
      expect(held.workflows.flatMap((w) => w.envelopes.map((e) => e.recovered)).filter(isRecoveredPending)).toEqual([]);
      expect(held.workflows).toEqual(JSON.parse(JSON.stringify(plain.state.workflows)));
      // Nothing handed out before was changed.
      expect(before).toEqual(snapshot);
      expect(JSON.parse(pooled.report().json)).toEqual(JSON.parse(plain.report().json));
    } finally {
      installSecpWasm(null);
      resetSignatureCaches();
    }
  });
});

describe('item bombs through the page path', () => {
  it('a 16-million-item CBOR array and an indefinite map past the cap are refused with cbor/too-many-items', async () => {
    const array = new Uint8Array(5 + 16_777_216);
    array.set([0x9a, 0x01, 0x00, 0x00, 0x00]);
    const map = new Uint8Array(2 + 2 * 65_536);
    map[0] = 0xbf;
    map[map.length - 1] = 0xff;
    const session = new InspectorSession();
    const { inputs, records } = await session.load([
      { name: 'array.cbor', data: new Blob([array]) },
      { name: 'map.cbor', data: new Blob([map]) },
    ]);
    expect(records.map((r) => [r.decoded, r.errorCode])).toEqual([
      [false, 'cbor/too-many-items'],
      [false, 'cbor/too-many-items'],
    ]);
    expect(inputs.map((i) => i.format)).toEqual(['cbor', 'cbor']);
  });
});

describe('CBOR that is not a map through the page path', () => {
  it('is an agdx/not-a-map record whose detail shows the item in diagnostic notation', async () => {
    const session = new InspectorSession();
    const sent: string[] = [];
    await session.load([{ name: 'array.cbor', data: new Blob([Uint8Array.of(0x83, 0x01, 0x62, 0x68, 0x69, 0xf6)]) }], {
      batch: (b) => sent.push(...b.records.map((r) => r.errorCode ?? '')),
    });
    expect(sent).toEqual(['agdx/not-a-map']);
    const detail = session.detail(0)!;
    expect(detail.error).toMatchObject({ code: 'agdx/not-a-map', offset: 0 });
    expect(detail.body).toMatchObject({ rendering: 'cbor', text: '[1, "hi", null]' });
  });
});

describe('streaming a large input', () => {
  it('reads no further than the first batch until the page says it drew it, once per load', async () => {
    const { agdxSequence } = await import('../../test/support/generate');
    const session = new InspectorSession();
    const batches: number[] = [];
    let release!: () => void;
    let asked = 0;
    const drawn = new Promise<void>((r) => (release = r));
    const big = () => new Blob([agdxSequence(5000, { signedEvery: 1_000_000 }).slice()]);
    const loading = session.load(
      [
        { name: 'big.cborseq', data: big() },
        { name: 'big2.cborseq', data: big() },
      ],
      {
        batch: (b) => batches.push(b.records.length),
        pause: () => new Promise((r) => setTimeout(r, 0)),
        shown: () => {
          asked++;
          return drawn;
        },
      },
    );
    await vi.waitFor(() => expect(asked).toBe(1));
    // The loop is parked: a few turns of the event loop bring no second batch.
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
    expect(batches).toEqual([2000]);
    release();
    const result = await loading;
    // The second input streams on without asking again.
    expect(asked).toBe(1);
    expect(batches.reduce((a, b) => a + b, 0)).toBe(10_000);
    expect(result.cancelled).toBe(false);
  });
});

describe('loads asked at once', () => {
  it('run one after the other: each input keeps its records together', async () => {
    const { agdxSequence } = await import('../../test/support/generate');
    const session = new InspectorSession();
    const hooks = { batch: () => {}, pause: () => new Promise<void>((r) => setTimeout(r, 0)) };
    const [a, b] = await Promise.all([
      session.load([{ name: 'a.cborseq', data: new Blob([agdxSequence(4500, { signedEvery: 1_000_000 }).slice()]) }], hooks),
      session.load([{ name: 'b.bin', data: new Blob([read('vectors/agdx/laser-wire-0.0.1/agent_command.bin')]) }], hooks),
    ]);
    expect(a.cancelled || b.cancelled).toBe(false);
    const report = session.report();
    const inputs = (JSON.parse(report.json) as Report).records.map((r) => r.input);
    // Every record of the first input comes before the second input's one.
    expect(inputs.slice(0, 4500).every((i) => i === 0)).toBe(true);
    expect(inputs.slice(4500)).toEqual([1]);
  });
});

describe("a record's readable body (core/bodies/readable.ts) in its detail", () => {
  it('resolves its pointers over the load and labels them as the record links are', async () => {
    const session = new InspectorSession();
    const path = 'vectors/agdx/sessions/sessions_tree_http_v07.json';
    const { records } = await session.load([{ name: path, data: new Blob([read(path)]) }]);
    const key = (operation: string) => records.findIndex((r) => r.operation === operation);
    const delta = session.detail(key('state_delta'))!.readableBody!;
    expect(delta.after?.status).toBe('applied');
    expect(delta.after?.status === 'applied' && delta.after.snapshot).toEqual({
      record: key('state_snapshot'),
      label: expect.stringMatching(/^event \S+ · record #8$/),
    });
    const manifest = session.detail(key('context_assembled'))!.readableBody!;
    expect(manifest.fragments!.map((f) => f.points?.record)).toEqual([2, 3]);
    expect(session.detail(key('chat'))!.readableBody).toBeNull();
  });
});
