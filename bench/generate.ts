// Deterministic inputs for the benchmark (and the large-file Playwright test): no randomness but a
// seeded generator, so every run measures the same bytes.
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import { encodeEnvelope } from '../src/core/agdx/canonical';
import { concatBytes, fromHex } from '../src/core/bytes';
import type { Envelope, Kind } from '../src/core/agdx/envelope';
import { signingInput } from '../src/core/agdx/verify';
import { keyId } from '../src/core/keys/keys';

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
 */
export function agdxSequence(count: number, options: { signedEvery?: number; perConversation?: number; seed?: number } = {}): Uint8Array {
  const rnd = prng(options.seed ?? 7);
  const signedEvery = options.signedEvery ?? 5;
  const perConversation = options.perConversation ?? 50;
  const keyIdBytes = fromHex(keyId(BENCH_PUBLIC_KEY))!;
  const parts: Uint8Array[] = [];
  let previous: Uint8Array | null = null;
  for (let n = 0; n < count; n++) {
    const conv = Math.floor(n / perConversation);
    if (n % perConversation === 0) previous = null;
    const kinds: Kind[] = ['command', 'response', 'event', 'status', 'error', 'chunk'];
    const kind = kinds[Math.floor(rnd() * kinds.length)];
    const record = id(n, 1);
    const env: Envelope = { kind, conversation: id(conv, 2), source: `agent-${conv % 97}`, target: `agent-${(conv + 1) % 97}` };
    if (kind !== 'chunk') env.record = record;
    if (previous && kind !== 'chunk') env.cause = previous;
    if (kind === 'command' || kind === 'response' || kind === 'error' || kind === 'chunk') env.correlation = id(conv, 3);
    if (kind === 'command') {
      env.operation = 'chat';
      env.deadline_micros = 1_717_171_777_000_000 + n;
      env.metadata = new Map([['priority', { type: 'text', value: rnd() < 0.5 ? 'high' : 'low' }]]);
    }
    if (kind === 'response') env.usage = { input_tokens: Math.floor(rnd() * 2000), output_tokens: Math.floor(rnd() * 500) };
    if (kind === 'status') {
      env.operation = 'task';
      env.correlation = id(conv, 3);
      env.task_state = 1 + Math.floor(rnd() * 6);
    }
    if (kind === 'chunk') {
      env.channel = id(conv, 4);
      env.sequence = n % perConversation;
      if (env.sequence === 0) env.operation = 'chat';
    }
    env.body = kind === 'error' ? Uint8Array.from([0xa2, 0x64, 0x63, 0x6f, 0x64, 0x65, 0x06, 0x69, 0x72, 0x65, 0x74, 0x72, 0x79, 0x61, 0x62, 0x6c, 0x65, 0xf4]) : te.encode(JSON.stringify({ n, text: 'lorem ipsum dolor sit amet'.slice(0, 5 + Math.floor(rnd() * 20)) }));
    if (n % signedEvery === 0) {
      env.signature = { scheme: 1, key_id: keyIdBytes, bytes: new Uint8Array(64) };
      env.signature.bytes = ed.sign(signingInput(env), BENCH_SEED);
    }
    const bytes = encodeEnvelope(env);
    parts.push(bytes);
    if (env.record) previous = env.record;
  }
  return concatBytes(...parts);
}

/**
 * `count` AgentDNA IntentWorkflows (one per line of a JSON array), each a chain of `depth` envelopes
 * (the tip, its parent, …): hashes as AgentDNA computes them would be, signatures as placeholders
 * (the benchmark measures parsing and hashing, not ECDSA).
 */
export function agentdnaWorkflows(count: number, depth = 5, seed = 11): string {
  const rnd = prng(seed);
  const did = (n: number) => `bafybmi${(n * 2654435761 >>> 0).toString(36).padStart(52, 'a').slice(0, 52)}`;
  const workflows: string[] = [];
  for (let w = 0; w < count; w++) {
    let parent: Record<string, unknown> | null = null;
    for (let d = 0; d < depth; d++) {
      const env: Record<string, unknown> = {
        from: did(w * depth + d),
        payload: JSON.stringify({ step: d, note: 'summarise — café ✓'.slice(0, 8 + Math.floor(rnd() * 10)) }),
        epoch: 1_782_668_300 + w * 10 + d,
        status_code: 1000,
        run_id: '',
        to: did(w * depth + d + 1),
        hash: (w * 31 + d).toString(16).padStart(64, '0'),
        signature: '3045022100' + 'ab'.repeat(32) + '0220' + 'cd'.repeat(32),
        parent_envelope: parent ? [parent] : [],
      };
      parent = env;
    }
    workflows.push(JSON.stringify({ id: `Qm${w}`, type: 'intent_workflow', version: '2.0', info: {}, envelope: parent }));
  }
  return `[${workflows.join(',\n')}]`;
}
