// The canonical encoding of an envelope: what serde + ciborium write for the decoded value.
// Declaration order, absent fields omitted, shortest heads, shortest exact floats, metadata
// sorted bytewise. It is both the noncanonical check and (with the domain) the signing input:
// a 0.7 record's parent and root are in both, in their place (dialects.ts).
import { CborWriter } from '../cbor/encoder';
import type { CborItem } from '../cbor/reader';
import { LATEST, type Dialect, type FieldSpec } from './dialects';
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

/**
 * Canonical bytes of the envelope; without the signature when `withSignature` is false. The fields
 * go in `dialect`'s declaration order (dialects.ts), each as its wire type writes it; the newest
 * dialect's order holds every field in its place, so a record of any dialect encodes as its writer
 * encoded it.
 */
export function encodeEnvelope(env: Envelope, withSignature = true, dialect: Dialect = LATEST): Uint8Array {
  const w = new CborWriter();
  const values = env as unknown as Record<string, unknown>;
  const present: FieldSpec[] = [];
  for (const f of dialect.fields) {
    const v = values[f.name];
    if (v === undefined || (f.name === 'signature' && !withSignature)) continue;
    if (f.wire === 'true' && v !== true) continue;
    if (f.wire === 'nonzero' && (v === 0 || v === 0n)) continue;
    if (f.wire === 'bytes' && (v as Uint8Array).length === 0) continue;
    present.push(f);
  }
  w.head(5, present.length);
  for (const f of present) {
    w.text(f.name);
    const v = values[f.name];
    switch (f.wire) {
      case 'kind':
      case 'text':
        w.text(v as string);
        break;
      case 'id':
      case 'position':
      case 'bytes':
        w.bytes(v as Uint8Array);
        break;
      case 'uint':
      case 'u8':
      case 'nonzero':
        w.uint(v as number | bigint);
        break;
      case 'true':
        w.bool(true);
        break;
      case 'usage':
        writeUsage(w, v as Usage);
        break;
      case 'metadata': {
        const m = v as Map<string, MetaValue>;
        w.head(5, m.size);
        for (const [k, x] of m) {
          w.text(k);
          writeMeta(w, x);
        }
        break;
      }
      case 'signature':
        writeSignature(w, v as SignatureCapsule);
        break;
    }
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

/**
 * A signed envelope that holds fields no dialect knows, as received without its signature entry:
 * the signing input its writer may have used (it signed every field it wrote, and the canonical
 * re-encoding drops the fields the decoder does not keep). `covers` are the fields it covers that
 * the canonical input does not.
 */
export interface AsReceived {
  envelope: Uint8Array;
  covers: readonly string[];
  /** What the canonical input leaves uncovered (signature.ts uncoveredPaths): the record's not_covered unless this input verifies. */
  notCovered: string[];
}

/**
 * `item` (a definite map, untagged, its bytes in `bytes`) without its `signature` entry: a map head
 * for one entry fewer, then every other entry's bytes as received. Null for any other item.
 */
export function receivedWithoutSignature(bytes: Uint8Array, item: CborItem, covers: readonly string[], notCovered: string[]): AsReceived | null {
  if (item.kind !== 'map' || item.indefinite) return null;
  const kept = item.entries.filter((e) => !(e.key.kind === 'text' && e.key.value === 'signature'));
  if (kept.length === item.entries.length) return null;
  const w = new CborWriter();
  w.head(5, kept.length);
  const head = w.finish();
  const parts = [head, ...kept.map((e) => bytes.subarray(e.key.start, e.value.end))];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return { envelope: out, covers: Object.freeze([...covers]), notCovered };
}
