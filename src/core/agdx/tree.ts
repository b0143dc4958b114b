// Field trees: what each field says, its bytes and its meaning, for the detail view.
import type { Span } from '../bytes';
import { toCrockford, toHex, ulidTimeMs } from '../bytes';
import type { CborItem } from '../cbor/reader';
import { untag } from '../cbor/reader';
import { toDiagnostic } from '../cbor/diagnostic';
import type { FieldNode } from '../model';
import type { DecodedEnvelope } from './envelope';
import { CONTENT_TYPES, SIGNATURE_SCHEMES, TASK_STATES, codeName } from './dictionaries';
import { isoFromMicros } from '../time';

/** What each envelope field means (agdx-v1.md), shown on hover. */
export const FIELD_DOCS: Record<string, string> = {
  kind: 'The message kind: command, response, event, chunk, status or error. Selects the validity matrix.',
  record: 'Record id: 16 bytes (big-endian u128), shown in Crockford base32; usually a ULID.',
  conversation: 'Conversation id: 16 bytes, always present; the partition key on the log.',
  parent: 'The conversation this one was spawned from (laser-sdk 0.7 on): a child session names its parent.',
  root: 'The first conversation of the session tree (laser-sdk 0.7 on); requires parent.',
  source: 'The sending agent id (1..256 bytes, no control character). A claim, not an identity: only a signature binds it.',
  target: 'The receiving agent id, when addressed.',
  cause: "The causal parent's record id.",
  cause_at: "The causal parent's log position: stream u32, topic u32, partition u32, offset u64 (big-endian).",
  correlation: 'Pairs requests with replies (command → response or error; task status updates).',
  channel: 'The chunk stream this chunk belongs to (or that an error ends).',
  idempotency_key: 'Lets a receiver drop a repeated command (1..64 bytes).',
  deadline_micros: 'Deadline in epoch microseconds; on an opening chunk, the abandonment deadline of the stream.',
  sequence: 'Chunk order within its stream, from 0.',
  last: 'Marks the terminal chunk of a stream (written only when true).',
  finish_reason: 'Why generation stopped (open OTel vocabulary: stop, length, content_filter, tool_call, error, …).',
  task_state:
    'Task state code (A2A v0.3 order): submitted, working, input-required, completed, canceled, failed, rejected, auth-required, unknown; laser-sdk 0.7 adds 10 paused (not terminal).',
  operation:
    'Status: task, card, progress, quarantine or unquarantine (and session, from laser-sdk 0.7 on). Opening chunk: chat, reasoning or tool_args. Otherwise free.',
  tool: 'The tool this message is about.',
  usage: 'Token usage (advisory): input_tokens and output_tokens required, reasoning and cache counts optional (and cost_micros, from laser-sdk 0.7 on).',
  'usage.cost_micros': "The call's cost in micro-units of the deployment's currency (laser-sdk 0.7 on; advisory).",
  metadata: 'Text keys (sorted bytewise) to scalars or lists (of scalars and lists); capped at 32 entries and 8192 bytes.',
  must_understand: 'A bitset of features the receiver must implement; no bits are defined, so any set bit means reject.',
  body: 'The payload, in the codec named by the agdx.ct header (or by the kind).',
  signature: 'Ed25519 signature over the domain, the context and the canonical envelope without its signature.',
  'signature.scheme': 'Signature scheme: 1 = Ed25519.',
  'signature.key_id': 'First 8 bytes of SHA-256 of the signing public key.',
  'signature.bytes': 'The 64-byte Ed25519 signature.',
  'signature.context': 'The content type and agent version the signer saw; must match agdx.ct / agdx.av.',
};

export const ID_FIELDS = new Set(['record', 'conversation', 'parent', 'root', 'cause', 'correlation', 'channel']);

const spanOf = (item: CborItem): Span => [item.start, item.end];

export function formatMicros(micros: number | bigint): string {
  return isoFromMicros(micros) ?? `${micros} µs (out of range)`;
}

export function formatId(bytes: Uint8Array): { display: string; hint: string } {
  if (bytes.length !== 16) return { display: toHex(bytes), hint: `${bytes.length} bytes` };
  const ms = ulidTimeMs(bytes);
  const when = new Date(ms);
  return {
    display: toCrockford(bytes),
    hint: `hex ${toHex(bytes)}${Number.isNaN(when.getTime()) ? '' : `; ULID time ${when.toISOString()} (a hint: ids need not be ULIDs)`}`,
  };
}

/** A log position (cause_at / dead-letter source): stream, topic, partition u32, offset u64, big-endian. */
export function formatLogPosition(bytes: Uint8Array): string {
  if (bytes.length !== 20) return toHex(bytes);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, 20);
  return `stream ${dv.getUint32(0)}, topic ${dv.getUint32(4)}, partition ${dv.getUint32(8)}, offset ${dv.getBigUint64(12)}`;
}

function typeName(item: CborItem): string {
  const it = untag(item);
  const tagged = item.kind === 'tag' ? 'tagged ' : '';
  switch (it.kind) {
    case 'uint':
      return tagged + 'uint';
    case 'nint':
      return tagged + 'nint';
    case 'bytes':
      return `${tagged}bstr ${it.value.length}`;
    case 'text':
      return tagged + 'text';
    case 'array':
      return `${tagged}array ${it.items.length}`;
    case 'map':
      return `${tagged}map ${it.entries.length}`;
    case 'float':
      return `${tagged}float${it.width}`;
    case 'simple':
      return tagged + (it.value === 20 || it.value === 21 ? 'bool' : it.value === 22 ? 'null' : 'simple');
    default:
      return 'tag';
  }
}

/**
 * The bytes as text when, read as UTF-8, they are printable ASCII (a leading byte-order mark is
 * dropped as a UTF-8 decoder drops it), else null. Checked byte by byte: any other byte either is
 * not UTF-8 or decodes to a character outside printable ASCII, and a decoder per byte string was a
 * fifth of a large report's time.
 */
export function printableText(bytes: Uint8Array): string | null {
  const from = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  if (from === bytes.length) return null;
  for (let i = from; i < bytes.length; i++) if (bytes[i] < 0x20 || bytes[i] > 0x7e) return null;
  // At most 256 bytes here (cborNode): one call, not a string joined a character at a time.
  return String.fromCharCode(...bytes.subarray(from));
}

/** A generic tree of any CBOR item, with spans; `describe` may give a field a better display. */
export function cborNode(
  item: CborItem,
  path: string,
  label: string,
  keySpan: Span | null,
  describe?: (path: string, item: CborItem) => Partial<FieldNode> | undefined,
): FieldNode {
  const it = untag(item);
  const node: FieldNode = { path, label, display: '', type: typeName(item), span: spanOf(item), keySpan };
  if (it.kind === 'map') {
    node.display = `${it.entries.length} entries`;
    node.children = it.entries.map((e) => {
      const k = untag(e.key);
      const name = k.kind === 'text' ? k.value : toDiagnostic(k, 64);
      return cborNode(e.value, path ? `${path}.${name}` : name, name, spanOf(e.key), describe);
    });
  } else if (it.kind === 'array') {
    node.display = `${it.items.length} items`;
    node.children = it.items.map((x, i) => cborNode(x, `${path}[${i}]`, `[${i}]`, null, describe));
  } else if (it.kind === 'bytes') {
    const text = it.value.length <= 256 ? printableText(it.value) : null;
    node.display = it.value.length > 64 ? `${toHex(it.value.subarray(0, 64))}… (${it.value.length} bytes)` : toHex(it.value);
    if (text) node.hint = `as text: ${text}`;
  } else node.display = toDiagnostic(it, 2000);
  const better = describe?.(path, item);
  if (better) Object.assign(node, better);
  return node;
}

/** The envelope's field tree in byte order, with ids, dates and codes made readable. */
export function envelopeTree(decoded: DecodedEnvelope, item: CborItem, bodyNode?: FieldNode): FieldNode[] {
  const root = untag(item);
  if (root.kind !== 'map') return [];
  // Unknown fields by where their value starts: a non-text key's tree path (its diagnostic) is not
  // the name findings and not_covered give it, so the node takes that name as its path.
  const unknownAt = new Map(decoded.unknown.map((u) => [u.value[0], u.name]));
  const describe = (path: string, it: CborItem): Partial<FieldNode> | undefined => {
    const doc = FIELD_DOCS[path];
    const v = untag(it);
    const extra: Partial<FieldNode> = {};
    if (doc) extra.hint = doc;
    const unknownName = unknownAt.get(it.start);
    if (unknownName !== undefined) {
      extra.hint = 'A field this version of AGDX does not define (kept, not used by the reference).';
      extra.type = `${typeName(it)}, unknown`;
      if (unknownName !== path) extra.path = unknownName;
    }
    if (ID_FIELDS.has(path) && v.kind === 'bytes') {
      const id = formatId(v.value);
      return { ...extra, display: id.display, hint: `${id.hint}. ${doc ?? ''}` };
    }
    if (path === 'cause_at' && v.kind === 'bytes') return { ...extra, display: formatLogPosition(v.value) };
    if (path === 'deadline_micros' && v.kind === 'uint') return { ...extra, display: `${formatMicros(v.value)} (${v.value} µs)` };
    if (path === 'task_state' && v.kind === 'uint') return { ...extra, display: `${codeName(TASK_STATES, Number(v.value))} (${v.value})` };
    if (path === 'signature.scheme' && v.kind === 'uint') return { ...extra, display: `${codeName(SIGNATURE_SCHEMES, Number(v.value))} (${v.value})` };
    if (path === 'signature.context.content_type' && v.kind === 'uint')
      return { ...extra, display: `${codeName(CONTENT_TYPES, Number(v.value))} (${v.value})` };
    if (path === 'must_understand' && v.kind === 'uint') return { ...extra, display: `0x${BigInt(v.value).toString(16).padStart(16, '0')}` };
    if (path === 'body' && bodyNode) return { ...extra, display: bodyNode.display, children: bodyNode.children };
    return Object.keys(extra).length ? extra : undefined;
  };
  return root.entries.map((e) => {
    const k = untag(e.key);
    const name = k.kind === 'text' ? k.value : toDiagnostic(k, 64);
    return cborNode(e.value, name, name, spanOf(e.key), describe);
  });
}
