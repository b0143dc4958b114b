// The reference port, @laserdata/laser-sdk 0.1.1 (a dev dependency), as the benchmark's baseline
// and the differential test's oracle. Test and bench only: nothing in the app imports this.
//
// Why file paths: the package's `exports` expose only its top-level entry, whose import graph
// reaches the Iggy client and more; the wire modules used here import only each other, cborg and
// the SDK's error classes. So they are imported by path, here and nowhere else. The package asks
// for Node 22; its wire modules run on Node 20.
//
// What a consumer runs on one envelope (the SDK's `provenanceAndEnvelope` in
// dist/agent/reliable-consumer.js, behind `decodeAgentMessage`): decodeOne (cborg: strict, maps,
// bigints, duplicate keys rejected) → expectMap → decodeAgentEnvelope → validateAgentEnvelope →
// unmetRequirements(envelope, 0n) !== 0n rejects. The wire module has no single decode-and-validate
// call (decodeCanonicalAgentEnvelope in agent-record.js only decodes), so `referenceConsume`
// makes these calls, in this order, without the consumer's header plumbing.
import {
  decodeAgentEnvelope,
  taskStateCode,
  unmetRequirements,
  validateAgentEnvelope,
  type AgentEnvelope,
} from '../../node_modules/@laserdata/laser-sdk/dist/wire/agent.js';
import { decodeOne, expectMap } from '../../node_modules/@laserdata/laser-sdk/dist/wire/cbor.js';
import { logPositionToBytes } from '../../node_modules/@laserdata/laser-sdk/dist/wire/ids.js';

export type { AgentEnvelope };

const CONTEXT = 'agent envelope';

/** What the consumer does with one payload: the envelope, or a throw (its CodecError or InvalidError). */
export function referenceConsume(payload: Uint8Array): AgentEnvelope {
  const envelope = decodeAgentEnvelope(expectMap(decodeOne(payload, CONTEXT), CONTEXT), CONTEXT);
  validateAgentEnvelope(envelope);
  const unmet = unmetRequirements(envelope, 0n);
  if (unmet !== 0n) throw new Error(`agent envelope requires unsupported features 0x${unmet.toString(16).padStart(16, '0')}`);
  return envelope;
}

export type ReferenceVerdict = { accepted: true; envelope: AgentEnvelope } | { accepted: false; error: string };

/** referenceConsume as a verdict; the error names the failure and its cause (cborg's message). */
export function referenceVerdict(payload: Uint8Array): ReferenceVerdict {
  try {
    return { accepted: true, envelope: referenceConsume(payload) };
  } catch (e) {
    const err = e as Error & { cause?: unknown };
    const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
    return { accepted: false, error: `${err.name}: ${err.message}${cause}` };
  }
}

/**
 * The reference's envelope in the shape of ours (src/core/agdx/envelope.ts `Envelope`): snake_case
 * fields, ids as their 16 bytes, absent optionals left out, `last` only when true,
 * `must_understand` only when non-zero, `body` only when non-empty (as our decoder reads them).
 */
export function referenceAsOurs(e: AgentEnvelope): Record<string, unknown> {
  const out: Record<string, unknown> = { kind: e.kind, conversation: e.conversation.toBytes(), source: e.source };
  const set = (k: string, v: unknown) => {
    if (v !== undefined) out[k] = v;
  };
  set('record', e.record?.toBytes());
  set('target', e.target);
  set('cause', e.cause?.toBytes());
  set('cause_at', e.causeAt && logPositionToBytes(e.causeAt));
  set('correlation', e.correlation?.toBytes());
  set('channel', e.channel?.toBytes());
  set('idempotency_key', e.idempotencyKey);
  set('deadline_micros', e.deadlineMicros);
  set('sequence', e.sequence);
  if (e.last) out.last = true;
  set('finish_reason', e.finishReason);
  set('task_state', e.taskState && taskStateCode(e.taskState));
  set('operation', e.operation);
  set('tool', e.tool);
  if (e.usage) {
    const u = e.usage;
    const usage: Record<string, bigint> = { input_tokens: u.inputTokens, output_tokens: u.outputTokens };
    if (u.reasoningOutputTokens !== undefined) usage.reasoning_output_tokens = u.reasoningOutputTokens;
    if (u.cacheReadInputTokens !== undefined) usage.cache_read_input_tokens = u.cacheReadInputTokens;
    if (u.cacheCreationInputTokens !== undefined) usage.cache_creation_input_tokens = u.cacheCreationInputTokens;
    out.usage = usage;
  }
  if (e.metadata) out.metadata = new Map([...e.metadata].map(([k, v]) => [k, referenceValue(v)]));
  if (e.mustUnderstand !== 0n) out.must_understand = e.mustUnderstand;
  if (e.body.length > 0) out.body = e.body;
  if (e.signature) {
    const s = e.signature;
    const sig: Record<string, unknown> = { scheme: s.scheme, key_id: s.keyId, bytes: s.bytes };
    if (s.context) {
      const c: Record<string, number> = {};
      if (s.context.contentType !== undefined) c.content_type = s.context.contentType;
      if (s.context.agentVersion !== undefined) c.agent_version = s.context.agentVersion;
      sig.context = c;
    }
    out.signature = sig;
  }
  return out;
}

type RefValue = NonNullable<AgentEnvelope['metadata']> extends ReadonlyMap<string, infer V> ? V : never;

/** A metadata value of the reference as our MetaValue. */
function referenceValue(v: RefValue): unknown {
  switch (v.kind) {
    case 'string':
      return { type: 'text', value: v.value };
    case 'int':
      return { type: 'int', value: v.value };
    case 'float':
      return { type: 'float', value: v.value };
    case 'bool':
      return { type: 'bool', value: v.value };
    case 'null':
      return { type: 'null' };
    case 'list':
      return { type: 'list', items: v.value.map(referenceValue) };
  }
}
