// An AgentCard body (agdx-v1.md "Bodies": status card) as data, for the agent registry fold (each
// log entry holds its record's card, decoded once).
// bodies.ts reads the same body for the field tree; this returns the fields themselves, with the
// same leniency (tags skipped, explicit null = absent, unknown keys ignored).
import type { CborItem } from '../cbor/reader';
import { readSingle, untag } from '../cbor/reader';
import { toDiagnostic } from '../cbor/diagnostic';
import { CONTENT_TYPES, HEALTH, codeName } from './dictionaries';
import { FieldError, readSmallUint, readText, readUint, structEntries } from './fields';
import { isNull } from '../cbor/reader';

/** A capability's input or output: a one-entry map `{content_type}` or `{schema_id}`. */
export type ContentShape =
  | { kind: 'content_type'; value: string }
  | { kind: 'schema_id'; value: string }
  /** Some other shape: its CBOR diagnostic, so nothing is hidden. */
  | { kind: 'other'; value: string };

export interface CapabilityData {
  skillId: string;
  input: ContentShape | null;
  output: ContentShape | null;
  costClass: number | null;
  latencyClass: number | null;
  maxConcurrency: number | null;
  /** Health code (1 healthy, 2 degraded, 3 unavailable) and its name (`unrecognized-N` otherwise). */
  health: number | null;
  healthName: string | null;
  /** Load, per mille. */
  load: number | null;
}

export interface CardData {
  name: string | null;
  version: string | null;
  capabilities: CapabilityData[];
  ttlMicros: bigint | null;
}

export type CardDecoding = { ok: true; card: CardData } | { ok: false; error: string };

/** Reads an AgentCard from its CBOR item. Throws FieldError when the item is not a card. */
export function cardFromItem(item: CborItem): CardData {
  const { fields } = structEntries(item, 'an agent card');
  const get = (name: string): CborItem | undefined => {
    const f = fields.get(name);
    return f && !isNull(f.value) ? f.value : undefined;
  };
  let v: CborItem | undefined;
  const card: CardData = { name: null, version: null, capabilities: [], ttlMicros: null };
  if ((v = get('name'))) card.name = readText(v, 'name');
  if ((v = get('version'))) card.version = readText(v, 'version');
  if ((v = get('ttl_micros'))) card.ttlMicros = BigInt(readUint(v, 'ttl_micros'));
  if ((v = get('capabilities'))) {
    const list = untag(v);
    if (list.kind !== 'array') throw new FieldError('agdx/field-type', 'capabilities must be an array', v.start);
    card.capabilities = list.items.map((c, i) => capability(c, `capabilities[${i}]`));
  }
  return card;
}

function capability(item: CborItem, path: string): CapabilityData {
  const { fields } = structEntries(item, path);
  const get = (name: string): CborItem | undefined => {
    const f = fields.get(name);
    return f && !isNull(f.value) ? f.value : undefined;
  };
  const skill = get('skill_id');
  if (!skill) throw new FieldError('agdx/field-type', `${path} requires skill_id`, item.start);
  const small = (name: string, max: number): number | null => {
    const x = get(name);
    if (!x) return null;
    return readSmallUint(x, `${path}.${name}`, max);
  };
  const health = small('health', 255);
  const input = get('input');
  const output = get('output');
  return {
    skillId: readText(skill, `${path}.skill_id`),
    input: input ? contentShape(input) : null,
    output: output ? contentShape(output) : null,
    costClass: small('cost_class', 255),
    latencyClass: small('latency_class', 255),
    maxConcurrency: small('max_concurrency', 0xffffffff),
    health,
    healthName: health === null ? null : codeName(HEALTH, health),
    load: small('load', 0xffff),
  };
}

/** `{"content_type": "json"}` or `{"schema_id": "..."}`; anything else is shown as diagnostic. */
function contentShape(item: CborItem): ContentShape {
  const it = untag(item);
  if (it.kind === 'map' && it.entries.length === 1) {
    const k = untag(it.entries[0].key);
    const val = untag(it.entries[0].value);
    if (k.kind === 'text' && (k.value === 'content_type' || k.value === 'schema_id')) {
      if (val.kind === 'text') return { kind: k.value, value: val.value };
      if (k.value === 'content_type' && val.kind === 'uint') return { kind: 'content_type', value: codeName(CONTENT_TYPES, Number(val.value)) };
    }
  }
  return { kind: 'other', value: toDiagnostic(item, 1024) };
}

const cache = new WeakMap<Uint8Array, CardDecoding>();

/**
 * Decodes an AgentCard body (the body of a status card record). Never throws: a body that is not
 * one CBOR item, or not a card, is `{ ok: false, error }`. Results are cached per body array.
 */
export function decodeCard(body: Uint8Array | undefined): CardDecoding {
  if (!body || body.length === 0) return { ok: false, error: 'the card record has no body' };
  const hit = cache.get(body);
  if (hit) return hit;
  let out: CardDecoding;
  const r = readSingle(body);
  if (!r.ok) out = { ok: false, error: `the body is not one CBOR item: ${r.error.message} (${r.error.code} at byte ${r.error.offset})` };
  else {
    try {
      out = { ok: true, card: cardFromItem(r.value) };
    } catch (e) {
      if (!(e instanceof FieldError)) throw e;
      out = { ok: false, error: `the body is CBOR but not an AgentCard: ${e.message}` };
    }
  }
  cache.set(body, out);
  return out;
}
