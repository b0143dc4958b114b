// Arbitrary AgentDNA documents for property tests (the fuzz tests and the differential test of the
// two ways a document is read): envelope-shaped objects with any field values, workflows, cards and
// card histories; and envelopes really signed with the synthetic vectors' public test keys.
import { readFileSync } from 'node:fs';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import fc from 'fast-check';
import { signedBytes } from '../../src/core/agentdna/hash';
import { fromHex, toHex } from '../../src/core/bytes';
import { readAgentDna } from '../../src/core/import/agentdna';
import { readJson } from '../../src/core/json/lossless';
import { hostileString, utf8 } from './fuzz';

const SYN = new URL('../../vectors/agentdna/synthetic/', import.meta.url);
export const keys = JSON.parse(readFileSync(new URL('synthetic_keys.json', SYN), 'utf8')) as Record<string, { private_key_hex: string; did: string }>;
export const SIGNERS = Object.keys(keys);
export const VALID = ['synthetic_valid_fanin_dag.serialized.json', 'synthetic_valid_single_root.serialized.json'].map(
  (f) => new Uint8Array(readFileSync(new URL(f, SYN))),
);

/** A JSON text for any value AgentDNA fields may hold: strings, every number form, nested payloads. */
export const fieldValue: fc.Arbitrary<string> = fc.oneof(
  hostileString.map((s) => JSON.stringify(s)),
  fc.constantFrom(
    '"\\ud800"',
    '1',
    '1.0',
    '-0',
    '1e400',
    '18446744073709551616',
    '0',
    'true',
    'false',
    'null',
    '[]',
    '{}',
    '""',
    '"bafybmi"',
    '[{"type":"text","text":"<script>alert(1)</script>"}]',
    '{"__proto__":{"x":1}}',
  ),
  fc.json({ maxDepth: 2 }),
);

const hexish = fc.oneof(
  fc.uint8Array({ maxLength: 72 }).map(toHex),
  fc.constantFrom('', '00', '3006020101020101', '3006020100020100', 'zz', '30 06 02 01 01 02 01 01', '3080020101020101'),
  fc.tuple(fc.bigInt({ min: 0n, max: 2n ** 256n }), fc.bigInt({ min: 0n, max: 2n ** 256n })).map(([r, s]) => derOf(r, s)),
);

function derInt(n: bigint): string {
  let h = n.toString(16);
  if (h.length % 2) h = '0' + h;
  if (parseInt(h.slice(0, 2), 16) & 0x80) h = '00' + h;
  return `02${(h.length / 2).toString(16).padStart(2, '0')}${h}`;
}
function derOf(r: bigint, s: bigint): string {
  const body = derInt(r) + derInt(s);
  return `30${(body.length / 2).toString(16).padStart(2, '0')}${body}`;
}

/** An envelope-shaped JSON object with any field values, and parents of the same kind. */
export const envelopeText: fc.Arbitrary<string> = fc.letrec<{ env: string }>((tie) => ({
  env: fc
    .record(
      {
        from: fc.oneof(fc.constantFrom(...SIGNERS.map((k) => JSON.stringify(keys[k].did))), fieldValue),
        from_: fieldValue,
        payload: fieldValue,
        epoch: fc.oneof(fc.integer().map(String), fieldValue),
        status_code: fc.oneof(fc.constantFrom('1000', '2001', '4001', '-1', '1000.0'), fieldValue),
        run_id: fieldValue,
        to: fieldValue,
        hash: fc.oneof(
          fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => JSON.stringify(toHex(b))),
          fieldValue,
        ),
        signature: fc.oneof(
          hexish.map((h) => JSON.stringify(h)),
          fieldValue,
        ),
        parent_envelope: fc.oneof(
          { depthSize: 'small', maxDepth: 3 },
          fc.constantFrom('null', '[]', '[null, false, 0, ""]', '[1]', '"x"'),
          fc.array(tie('env'), { maxLength: 3 }).map((p) => `[${p.join(',')}]`),
          tie('env'),
        ),
        extra: fc.tuple(fc.constantFrom('__proto__', 'constructor', 'x', 'from'), fieldValue),
      },
      { requiredKeys: [] },
    )
    .map((e) => {
      const parts: string[] = [];
      for (const [k, v] of Object.entries(e)) {
        if (k === 'extra') parts.push(`${JSON.stringify((v as [string, string])[0])}:${(v as [string, string])[1]}`);
        else parts.push(`${JSON.stringify(k)}:${v}`);
      }
      return `{${parts.join(',')}}`;
    }),
})).env;

export const documentText: fc.Arbitrary<string> = fc.oneof(
  envelopeText.map((env) => `{"id":"Qm","type":"intent_workflow","version":"2.0","info":{},"envelope":${env}}`),
  envelopeText,
  fc.tuple(fieldValue, envelopeText).map(([v, env]) => `{"type":"intent_workflow","version":${v},"remarks":${v},"envelope":${env}}`),
  fc.constantFrom('{"type":"intent_workflow","envelope":null}', '{"type":"intent_workflow","envelope":[]}', '{"type":"intent_workflow"}'),
  // Cards, states and card histories.
  fc
    .array(
      fc.oneof(
        fc
          .tuple(fc.constantFrom('user_card', 'actor_card', 'user', 'agent', 'user_nft', 'agent_nft', 'other'), fieldValue, fieldValue)
          .map(([t, id, policy]) => `{"type":"${t}","id":${id},"policy":${policy},"metadata":${id}}`),
        fc.tuple(fieldValue, fieldValue).map(([id, p]) => `{"agent_did":${id},"agent_metadata":{},"policy":${p}}`),
        fieldValue.map((v) => `{"data":${JSON.stringify(`{"type":"user_card","id":${v}}`)}}`),
        fieldValue.map((v) => `{"data":${JSON.stringify(`{"type":`)}, "x":${v}}`),
        envelopeText.map((env) => `{"data":{"type":"intent_workflow","envelope":${env}}}`),
      ),
      { minLength: 1, maxLength: 4 },
    )
    .map((items) => (items.length === 1 ? items[0] : `[${items.join(',')}]`)),
);

export type Obj = Record<string, unknown>;

export function sign(keyName: string, message: string): string {
  return toHex(secp256k1.sign(signedBytes(message, 'truncate'), fromHex(keys[keyName].private_key_hex)!, { prehash: false, lowS: false, format: 'der' }));
}

/** Builds a signed envelope, taking the hash and message from the inspector itself (as AgentDNA's build). */
export function build(keyName: string, fields: Obj, parents: Obj[]): Obj {
  const draft = { from: keys[keyName].did, ...fields, parent_envelope: parents.length ? parents : null };
  const bytes = utf8(JSON.stringify(draft));
  const parsed = readJson(bytes);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const e = readAgentDna(0, bytes, parsed.value).workflows[0].envelopes[0];
  return { ...draft, hash: e.content_hash, signature: sign(keyName, e.message ?? e.content_hash!) };
}
