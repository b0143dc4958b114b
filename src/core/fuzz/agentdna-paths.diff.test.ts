// The two ways a document is read give the same report@1, byte for byte, and the same views:
// - whole, as inspect() reads: every view built while reading, every signature checked in place,
//   the pure SHA-256;
// - in bulk, as the page reads: batches of a few records, a workflow array's signature checks
//   answered by a pool (quick checks against proven keys, their candidate lists completed later),
//   each envelope's hashes made once for the check sent ahead and the verdict, views built from
//   the record's span when it is opened, and node:crypto's SHA-256 (the command line's).
// Over every file of vectors/ and over generated documents: any shape, and really signed workflow
// arrays (valid, tampered, duplicate keys, unknown fields, big integers, floats such as 1.0, 1e400
// and -0.0, unicode escapes, lone surrogates, a parent repeated: fan-in).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { installSha256Text, type Sha256Text } from '../agentdna/hash';
import type { WorkflowReport } from '../agentdna/model';
import { completeWorkflow, installSecpWasm } from '../agentdna/signature';
import { runSignatureJob, SignatureResults, type SignatureJob } from '../agentdna/signature-jobs';
import { secpWasmForTests } from '../../../test/support/secp';
import { publicKeyOf } from '../agentdna/ecdsa';
import { fromHex } from '../bytes';
import { vector, vectorFiles } from '../../../test/support/import-helpers';
import { inspect, inspectInputBatches, type InputFile } from '../inspect';
import type { RegistryEntry } from '../keys/keys';
import { analyzeRecords, recordViews, type InputResult, type InspectedRecord } from '../records';
import { buildReport } from '../report';
import { readAgentDna } from '../import/agentdna';
import { readJson } from '../json/lossless';
import { documentText, keys, sign, SIGNERS } from '../../../test/support/agentdna-arbitraries';
import { hostileString, params, TIMEOUT, utf8 } from '../../../test/support/fuzz';

beforeAll(() => installSecpWasm(secpWasmForTests()));
afterAll(() => {
  installSecpWasm(null);
  installSha256Text(null);
});

/** A pool on the next turn of the event loop, its answers through a structured clone, as a verifier worker's. */
async function pool(jobs: SignatureJob[]) {
  await new Promise((r) => setTimeout(r, 0));
  return structuredClone(jobs.map(runSignatureJob));
}

interface Reading {
  report: string;
  views: string;
}

const viewsOf = (records: readonly InspectedRecord[]) => JSON.stringify(records.map(recordViews));

function whole(files: InputFile[], registry?: RegistryEntry[]): Reading {
  installSha256Text(null);
  const r = inspect(files, { keys: registry });
  return { report: JSON.stringify(buildReport(r)), views: viewsOf(r.records) };
}

// A native hash as the command line installs one (src/cli/hash.ts); written here, since the core
// imports nothing from the CLI.
const nodeSha256Hex: Sha256Text = (text) => createHash('sha256').update(text, 'utf8').digest('hex');

async function bulk(files: InputFile[], registry?: RegistryEntry[]): Promise<Reading> {
  installSha256Text(nodeSha256Hex);
  try {
    const inputs: InputResult[] = [];
    const records: InspectedRecord[] = [];
    const workflows: WorkflowReport[] = [];
    for (const [i, file] of files.entries()) {
      for (const b of inspectInputBatches(i, file, registry, 3, { signatures: () => new SignatureResults(pool) })) {
        if (b.wait) {
          await b.wait;
          continue;
        }
        for (const w of b.workflows) workflows.push({ ...completeWorkflow(w), record: w.record + records.length });
        for (const r of b.records) records.push(r);
        if (b.input) inputs.push(b.input);
      }
    }
    return { report: JSON.stringify(buildReport({ inputs, records, workflows, log: analyzeRecords(records) })), views: viewsOf(records) };
  } finally {
    installSha256Text(null);
  }
}

async function expectSame(files: InputFile[], registry?: RegistryEntry[]): Promise<void> {
  const a = whole(files, registry);
  const b = await bulk(files, registry);
  expect(b.report).toBe(a.report);
  expect(b.views).toBe(a.views);
}

// A key file entry for a DID (report.md key files), so views built later use the keys the read had.
const KEYED: RegistryEntry[] = [
  {
    id: 'k',
    agent: keys[SIGNERS[0]].did,
    algorithm: 'secp256k1',
    publicKey: publicKeyOf(fromHex(keys[SIGNERS[0]].private_key_hex)!),
    kind: 'agent',
    notBeforeMicros: null,
    notAfterMicros: null,
    revoked: false,
  },
];

describe('reading whole and reading in bulk', () => {
  const files = vectorFiles();

  it('every file of vectors/ read together, and each AgentDNA vector alone: the same report@1 and the same views', { timeout: TIMEOUT }, async () => {
    expect(files.length).toBeGreaterThan(100);
    await expectSame(
      files.map((f) => ({ name: f, bytes: vector(f) })),
      KEYED,
    );
    const agentdna = files.filter((f) => f.startsWith('agentdna/'));
    expect(agentdna.length).toBeGreaterThan(10);
    for (const f of agentdna) await expectSame([{ name: f, bytes: vector(f) }]);
  });

  it('any AgentDNA-shaped document', { timeout: TIMEOUT }, async () => {
    await fc.assert(
      fc.asyncProperty(documentText, fc.boolean(), async (text, keyed) => {
        await expectSame([{ name: 'doc.json', bytes: utf8(text) }], keyed ? KEYED : undefined);
      }),
      params('agentdna-paths-any', 0.05),
    );
  });

  it('arrays of really signed workflows, valid and tampered', { timeout: TIMEOUT }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(signedWorkflow, { minLength: 1, maxLength: 4 }), fc.boolean(), fc.boolean(), async (workflows, array, keyed) => {
        const text = workflows.length === 1 && !array ? workflows[0] : `[${workflows.join(',\n')}]`;
        await expectSame([{ name: 'signed.json', bytes: utf8(text) }], keyed ? KEYED : undefined);
      }),
      params('agentdna-paths-signed', 0.01, 15),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Really signed workflows, written as text (so numbers keep any form JSON allows)
// ---------------------------------------------------------------------------------------------

/** An envelope's members as JSON text, its hash and signature made by reading its draft as the inspector does. */
function signedMembers(keyName: string, fields: ReadonlyArray<readonly [string, string]>, parents: readonly string[]): string[] {
  const members = [
    `"from":${JSON.stringify(keys[keyName].did)}`,
    ...fields.map(([k, v]) => `${JSON.stringify(k)}:${v}`),
    `"parent_envelope":${parents.length ? `[${parents.join(',')}]` : 'null'}`,
  ];
  const draft = utf8(`{${members.join(',')}}`);
  const parsed = readJson(draft);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const e = readAgentDna(0, draft, parsed.value).workflows[0].envelopes[0];
  return [...members, `"hash":${JSON.stringify(e.content_hash)}`, `"signature":${JSON.stringify(sign(keyName, e.message ?? e.content_hash!))}`];
}

const numberText = fc.oneof(
  fc.integer({ min: 0, max: 2 ** 40 }).map(String),
  fc.constantFrom('18446744073709551616', '-18446744073709551617', '1.0', '-0.0', '-0', '1e400', '-1e400', '1782668300.5', '1E2', '5e-324', '0.1'),
);
const payloadText = fc.oneof(
  hostileString.map((s) => JSON.stringify(s)),
  fc.constantFrom(
    '"caf\\u00e9 \\ud83d\\ude00"',
    '"\\ud800 lone"',
    '"\\udc00"',
    '"\\u0000\\u001f\\""',
    '[{"type":"text","text":"x","n":1.0,"m":1e400}]',
    '{"a":1,"a":2.50}',
    '{"\\ud800":1,"\\ue000":2,"\\ud83d\\ude00":3}',
  ),
);

const envelopeFields = fc.record({
  payload: payloadText,
  epoch: numberText,
  status_code: fc.option(fc.constantFrom('1000', '2001', '1000.0', '18446744073709551616'), { nil: undefined }),
  run_id: fc.option(fc.constantFrom('""', '"run-1"', '"\\u00e9"'), { nil: undefined }),
});

type Tamper = 'none' | 'payload' | 'hash' | 'no-signature' | 'duplicate-key' | 'unknown-field' | 'escaped' | 'spaced';

const signedWorkflow: fc.Arbitrary<string> = fc
  .record({
    steps: fc.array(fc.record({ signer: fc.constantFrom(...SIGNERS), fields: envelopeFields, fanIn: fc.boolean() }), { minLength: 1, maxLength: 3 }),
    tamper: fc.constantFrom<Tamper>('none', 'payload', 'hash', 'no-signature', 'duplicate-key', 'unknown-field', 'escaped', 'spaced'),
    legacy: fc.boolean(),
  })
  .map(({ steps, tamper, legacy }) => {
    let parents: string[] = [];
    let tip: string[] = [];
    for (const s of steps) {
      const fields: [string, string][] = [
        ['payload', s.fields.payload],
        ['epoch', s.fields.epoch],
      ];
      if (s.fields.status_code !== undefined) fields.push(['status_code', s.fields.status_code]);
      if (s.fields.run_id !== undefined) fields.push(['run_id', s.fields.run_id]);
      tip = signedMembers(s.signer, fields, parents);
      // Fan-in: the same parent twice.
      parents = s.fanIn ? [`{${tip.join(',')}}`, `{${tip.join(',')}}`] : [`{${tip.join(',')}}`];
    }
    let members = tip;
    if (tamper === 'payload') members = members.map((m) => (m.startsWith('"payload":') ? '"payload":"tampered"' : m));
    if (tamper === 'hash') members = members.map((m) => (m.startsWith('"hash":') ? `"hash":"${'0'.repeat(64)}"` : m));
    if (tamper === 'no-signature') members = members.filter((m) => !m.startsWith('"signature":'));
    if (tamper === 'duplicate-key') members = ['"epoch":0', '"hash":1.0', ...members];
    if (tamper === 'unknown-field') members = [...members, '"note":1e400', '"from":"someone else"'];
    let envelope = `{${members.join(',')}}`;
    if (tamper === 'escaped') envelope = envelope.replace(/"from":"b/, '"from":"\\u0062');
    if (tamper === 'spaced') envelope = envelope.replace(/,"/g, ' ,\n  "').replace(/":/g, '" : ');
    const head = legacy ? '"type":"intent_workflow","version":"1.0","remarks":"old"' : '"id":"Qm","type":"intent_workflow","version":"2.0","info":{}';
    return `{${head},"envelope":${envelope}}`;
  });
