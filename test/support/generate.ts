// Deterministic inputs for the benchmark, the unit tests and Playwright (large files, workflow arrays):
// no randomness but a seeded generator, so every run reads and measures the same bytes.
import * as ed from '@noble/ed25519';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { encodeEnvelope } from '../../src/core/agdx/canonical';
import { didOf } from '../../src/core/agentdna/did';
import { contentHash, signedBytes, signedMessage } from '../../src/core/agentdna/hash';
import { fromHex, joinBytes, toHex } from '../../src/core/bytes';
import type { Envelope, Kind } from '../../src/core/agdx/envelope';
import { signingInput } from '../../src/core/agdx/verify';
import { keyId } from '../../src/core/keys/keys';
import { CborWriter } from '../../src/core/cbor/encoder';

ed.hashes.sha512 = sha512;

/** mulberry32: a tiny seeded PRNG. */
export function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const BENCH_SEED = new Uint8Array(32).fill(0x42);
export const BENCH_PUBLIC_KEY = ed.getPublicKey(BENCH_SEED);

function id(n: number, salt: number): Uint8Array {
  const b = new Uint8Array(16);
  const dv = new DataView(b.buffer);
  // A ULID-like id: 48 bits of milliseconds, then a counter.
  const ms = 1_717_171_717_000 + n;
  dv.setUint16(0, Math.floor(ms / 2 ** 32));
  dv.setUint32(2, ms >>> 0);
  dv.setUint32(8, salt);
  dv.setUint32(12, n);
  return b;
}

const te = new TextEncoder();

/**
 * `count` envelopes of mixed kinds in conversations of `perConversation`, a fifth of them signed,
 * concatenated as one CBOR sequence. Causes link each record to the one before it in its conversation.
 * With `dialect: '0.7'`, the same mix as laser-sdk 0.7 writes it: every record in a child session
 * (parent and root), responses with usage.cost_micros, half the statuses session statuses (a
 * SessionStart, a transition, paused, a SessionEnd that ends it) and the events state deltas and
 * context manifests with their bodies; without it the bytes are those of every earlier run.
 */
export function agdxSequence(
  count: number,
  options: {
    signedEvery?: number;
    perConversation?: number;
    seed?: number;
    dialect?: '0.0.1' | '0.7';
    /** The first record's number (ids, conversations, times): a later part of a larger log. */
    first?: number;
    /** Signs with BENCH_SEED's key (default noble's ed.sign; the bench hands a native one: the same bytes, Ed25519 being deterministic). */
    sign?: (message: Uint8Array) => Uint8Array;
  } = {},
): Uint8Array {
  const is07 = options.dialect === '0.7';
  const sign = options.sign ?? ((message: Uint8Array) => ed.sign(message, BENCH_SEED));
  const first = options.first ?? 0;
  const rnd = prng(options.seed ?? 7);
  const signedEvery = options.signedEvery ?? 5;
  const perConversation = options.perConversation ?? 50;
  const keyIdBytes = fromHex(keyId(BENCH_PUBLIC_KEY))!;
  const parts: Uint8Array[] = [];
  let previous: Uint8Array | null = null;
  for (let n = first; n < first + count; n++) {
    const conv = Math.floor(n / perConversation);
    if (n % perConversation === 0) previous = null;
    const kinds: Kind[] = ['command', 'response', 'event', 'status', 'error', 'chunk'];
    const kind = kinds[Math.floor(rnd() * kinds.length)];
    const record = id(n, 1);
    const env: Envelope = { kind, conversation: id(conv, 2), source: `agent-${conv % 97}`, target: `agent-${(conv + 1) % 97}` };
    if (kind !== 'chunk') env.record = record;
    if (previous && kind !== 'chunk') env.cause = previous;
    if (is07) {
      env.parent = id(conv, 6);
      env.root = id(conv % 7, 7);
    }
    if (kind === 'command' || kind === 'response' || kind === 'error' || kind === 'chunk') env.correlation = id(conv, 3);
    if (kind === 'command') {
      env.operation = 'chat';
      env.deadline_micros = 1_717_171_777_000_000 + n;
      env.metadata = new Map([['priority', { type: 'text', value: rnd() < 0.5 ? 'high' : 'low' }]]);
    }
    if (kind === 'response') env.usage = { input_tokens: Math.floor(rnd() * 2000), output_tokens: Math.floor(rnd() * 500) };
    if (kind === 'response' && is07) env.usage!.cost_micros = Math.floor(rnd() * 50_000);
    if (kind === 'status') {
      env.operation = 'task';
      env.correlation = id(conv, 3);
      env.task_state = 1 + Math.floor(rnd() * 6);
    }
    let body07: Uint8Array | null = null;
    if (is07 && kind === 'status' && rnd() < 0.5) {
      // A session status: submitted with its start, working or paused with a transition, or its end.
      const r = rnd();
      env.operation = 'session';
      env.task_state = r < 0.4 ? 1 : r < 0.7 ? 2 : r < 0.9 ? 10 : 4;
      if (env.task_state === 4) env.last = true;
      body07 =
        env.task_state === 1
          ? cborMap([
              ['agent', env.source],
              ['sdk', { language: 'typescript', version: '0.7.0' }],
              ['parent', env.parent!],
              ['root', env.root!],
              ['tags', ['bench']],
            ])
          : env.task_state === 4
            ? cborMap([['reason', 'done']])
            : cborMap([['actor', env.source]]);
    }
    if (is07 && kind === 'event') {
      if (rnd() < 0.5) {
        env.operation = 'state_delta';
        body07 = cborMap([
          ['base_revision', n],
          ['patch', [{ op: 'add', path: '/step', value: n % perConversation }]],
          ['op_id', `patch-${n}`],
        ]);
      } else {
        env.operation = 'context_assembled';
        body07 = cborMap([
          ['policy', 'recent'],
          ['policy_version', '1'],
          ['fragments', [{ Message: { at: { Message: { stream: 1, topic: 2, partition: 0, offset: n, generation: 3 } }, tokens: 12, bytes: 48 } }]],
          ['tokens', 12],
          ['bytes', 48],
          ['frontier', [[2, 0, n]]],
        ]);
      }
    }
    if (kind === 'chunk') {
      env.channel = id(conv, 4);
      env.sequence = n % perConversation;
      if (env.sequence === 0) env.operation = 'chat';
    }
    env.body =
      body07 ??
      (kind === 'error'
        ? Uint8Array.from([0xa2, 0x64, 0x63, 0x6f, 0x64, 0x65, 0x06, 0x69, 0x72, 0x65, 0x74, 0x72, 0x79, 0x61, 0x62, 0x6c, 0x65, 0xf4])
        : te.encode(JSON.stringify({ n, text: 'lorem ipsum dolor sit amet'.slice(0, 5 + Math.floor(rnd() * 20)) })));
    if (n % signedEvery === 0) {
      env.signature = { scheme: 1, key_id: keyIdBytes, bytes: new Uint8Array(64) };
      env.signature.bytes = sign(signingInput(env));
    }
    const bytes = encodeEnvelope(env);
    parts.push(bytes);
    if (env.record) previous = env.record;
  }
  return joinBytes(parts);
}

/** A CBOR map of text keys (values: text, unsigned integers, byte strings, nested maps or lists): for the 0.7 bodies. */
function cborMap(entries: [string, unknown][]): Uint8Array {
  const w = new CborWriter();
  const value = (v: unknown): void => {
    if (typeof v === 'string') w.text(v);
    else if (typeof v === 'number' || typeof v === 'bigint') w.uint(v);
    else if (v instanceof Uint8Array) w.bytes(v);
    else if (Array.isArray(v)) {
      w.head(4, v.length);
      for (const x of v) value(x);
    } else {
      const e = Object.entries(v as object);
      w.head(5, e.length);
      for (const [k, x] of e) {
        w.text(k);
        value(x);
      }
    }
  };
  w.head(5, entries.length);
  for (const [k, v] of entries) {
    w.text(k);
    value(v);
  }
  return w.finish();
}

/** The agents that sign the generated AgentDNA workflows: deterministic keys and their Rubix DIDs. */
export const AGENTDNA_AGENTS = 50;
let agents: { secretKey: Uint8Array; did: string }[] | null = null;
export function agentdnaAgents(): { secretKey: Uint8Array; did: string }[] {
  agents ??= Array.from({ length: AGENTDNA_AGENTS }, (_, i) => {
    const secretKey = sha256(te.encode(`envelope-inspector bench agent ${i}`));
    return { secretKey, did: didOf(secp256k1.getPublicKey(secretKey, false))! };
  });
  return agents;
}

/** Generated files this large are kept in bench/tmp (signing takes about half a millisecond a signature). */
const CACHE_FROM_SIGNATURES = 5000;
/** Bumped whenever the generator's output changes, so a stale file is never read. */
const AGENTDNA_FORMAT = 2;

/**
 * `count` AgentDNA IntentWorkflows (one per line of a JSON array), each a chain of `depth` envelopes
 * (the tip, its parent, …) signed as AgentDNA signs: content hashes as it computes them, the signed
 * message over the parents' hashes, ECDSA secp256k1 over its first 32 ASCII bytes with s left as
 * it comes (about half high-S), by AGENTDNA_AGENTS deterministic agents whose DIDs are derived
 * from their keys, so every signature verifies offline. Large outputs are cached on disk, keyed by
 * the parameters.
 */
export function agentdnaWorkflows(count: number, depth = 5, seed = 11): string {
  const cache =
    count * depth >= CACHE_FROM_SIGNATURES
      ? new URL(`../../bench/tmp/agentdna-workflows-v${AGENTDNA_FORMAT}-${count}x${depth}-seed${seed}.json`, import.meta.url)
      : null;
  if (cache && existsSync(cache)) return readFileSync(cache, 'utf8');
  const rnd = prng(seed);
  const signers = agentdnaAgents();
  const workflows: string[] = [];
  for (let w = 0; w < count; w++) {
    let parent: Record<string, unknown> | null = null;
    for (let d = 0; d < depth; d++) {
      const signer = signers[(w * depth + d) % signers.length];
      const env: Record<string, unknown> = {
        from: signer.did,
        payload: JSON.stringify({ step: d, note: 'summarise — café ✓'.slice(0, 8 + Math.floor(rnd() * 10)) }),
        epoch: 1_782_668_300 + w * 10 + d,
        status_code: 1000,
        run_id: '',
        to: signers[(w * depth + d + 1) % signers.length].did,
      };
      const hash = contentHash({
        from: env.from as string,
        payload: env.payload as string,
        epoch: BigInt(env.epoch as number),
        status_code: 1000n,
        run_id: '',
        to: env.to as string,
      })!;
      const message = signedMessage(hash, parent ? [parent.hash] : []);
      if (!message.ok) throw new Error(message.reason);
      const der = secp256k1.sign(signedBytes(message.message, 'truncate'), signer.secretKey, { prehash: false, lowS: false, format: 'der' });
      Object.assign(env, { hash, signature: toHex(der), parent_envelope: parent ? [parent] : [] });
      parent = env;
    }
    workflows.push(JSON.stringify({ id: `Qm${w}`, type: 'intent_workflow', version: '2.0', info: {}, envelope: parent }));
  }
  const text = `[${workflows.join(',\n')}]`;
  if (cache) {
    mkdirSync(new URL('../../bench/tmp/', import.meta.url), { recursive: true });
    writeFileSync(cache, text);
  }
  return text;
}
