// The canonical encoding of an envelope: what serde + ciborium write for the decoded value.
// Declaration order, absent fields omitted, shortest heads, shortest exact floats, metadata
// sorted bytewise. It is both the noncanonical check and (with the domain) the signing input.
import { CborWriter } from '../cbor/encoder';
import type { Envelope, MetaValue, SignatureCapsule, SignatureContext, Usage } from './envelope';
import { USAGE_FIELDS } from './envelope';

function writeMeta(w: CborWriter, v: MetaValue): void {
  switch (v.type) {
    case 'text':
      w.text(v.value);
      return;
    case 'int':
      w.int(v.value);
      return;
    case 'float':
      w.float(v.value);
      return;
    case 'bool':
      w.bool(v.value);
      return;
    case 'null':
      w.null();
      return;
    case 'list':
      w.head(4, v.items.length);
      for (const x of v.items) writeMeta(w, x);
      return;
  }
}

function writeUsage(w: CborWriter, u: Usage): void {
  const present = USAGE_FIELDS.filter((k) => u[k] !== undefined);
  w.head(5, present.length);
  for (const k of present) w.text(k).uint(u[k]!);
}

export function encodeSignatureContext(ctx: SignatureContext): Uint8Array {
  const w = new CborWriter();
  writeContext(w, ctx);
  return w.finish();
}

function writeContext(w: CborWriter, ctx: SignatureContext): void {
  const n = (ctx.content_type !== undefined ? 1 : 0) + (ctx.agent_version !== undefined ? 1 : 0);
  w.head(5, n);
  if (ctx.content_type !== undefined) w.text('content_type').uint(ctx.content_type);
  if (ctx.agent_version !== undefined) w.text('agent_version').uint(ctx.agent_version);
}

function writeSignature(w: CborWriter, s: SignatureCapsule): void {
  w.head(5, s.context ? 4 : 3);
  w.text('scheme').uint(s.scheme);
  w.text('key_id').bytes(s.key_id);
  w.text('bytes').bytes(s.bytes);
  if (s.context) {
    w.text('context');
    writeContext(w, s.context);
  }
}

/** Canonical bytes of the envelope; without the signature when `withSignature` is false. */
export function encodeEnvelope(env: Envelope, withSignature = true): Uint8Array {
  const w = new CborWriter();
  const fields: [string, (w: CborWriter) => void][] = [];
  const add = (name: string, write: (w: CborWriter) => void) => fields.push([name, write]);
  add('kind', (w) => w.text(env.kind));
  if (env.record) add('record', (w) => w.bytes(env.record!));
  add('conversation', (w) => w.bytes(env.conversation));
  add('source', (w) => w.text(env.source));
  if (env.target !== undefined) add('target', (w) => w.text(env.target!));
  if (env.cause) add('cause', (w) => w.bytes(env.cause!));
  if (env.cause_at) add('cause_at', (w) => w.bytes(env.cause_at!));
  if (env.correlation) add('correlation', (w) => w.bytes(env.correlation!));
  if (env.channel) add('channel', (w) => w.bytes(env.channel!));
  if (env.idempotency_key !== undefined) add('idempotency_key', (w) => w.text(env.idempotency_key!));
  if (env.deadline_micros !== undefined) add('deadline_micros', (w) => w.uint(env.deadline_micros!));
  if (env.sequence !== undefined) add('sequence', (w) => w.uint(env.sequence!));
  if (env.last) add('last', (w) => w.bool(true));
  if (env.finish_reason !== undefined) add('finish_reason', (w) => w.text(env.finish_reason!));
  if (env.task_state !== undefined) add('task_state', (w) => w.uint(env.task_state!));
  if (env.operation !== undefined) add('operation', (w) => w.text(env.operation!));
  if (env.tool !== undefined) add('tool', (w) => w.text(env.tool!));
  if (env.usage) add('usage', (w) => writeUsage(w, env.usage!));
  if (env.metadata) {
    add('metadata', (w) => {
      w.head(5, env.metadata!.size);
      for (const [k, v] of env.metadata!) {
        w.text(k);
        writeMeta(w, v);
      }
    });
  }
  if (env.must_understand !== undefined && env.must_understand !== 0 && env.must_understand !== 0n) {
    add('must_understand', (w) => w.uint(env.must_understand!));
  }
  if (env.body && env.body.length > 0) add('body', (w) => w.bytes(env.body!));
  if (withSignature && env.signature) add('signature', (w) => writeSignature(w, env.signature!));
  w.head(5, fields.length);
  for (const [name, write] of fields) {
    w.text(name);
    write(w);
  }
  return w.finish();
}

export const SIGNATURE_DOMAIN = new TextEncoder().encode('agdx.signature.v1');

/** The three segments of the signed message: domain, encoded context (may be empty), envelope. */
export function signingInputSegments(env: Envelope): { domain: Uint8Array; context: Uint8Array; envelope: Uint8Array } {
  return {
    domain: SIGNATURE_DOMAIN,
    context: env.signature?.context ? encodeSignatureContext(env.signature.context) : new Uint8Array(0),
    envelope: encodeEnvelope(env, false),
  };
}
