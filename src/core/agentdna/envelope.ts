// AgentDNA envelopes read from the lossless JSON tree, the way AgentDNA's parse_envelope reads them
// (python dicts: the last duplicate key wins; `from_` wins over `from`; falsy parents are dropped; a
// single parent object is taken as a list of one), keeping the byte span of every field.
import type { JsonEntry, JsonValue } from '../json/lossless';
import type { Span } from '../model';
import type { ContentFields } from './hash';

export type JsonObject = Extract<JsonValue, { type: 'object' }>;

/** The keys AgentDNA's Envelope has; anything else is dropped by parse_envelope (shown, not hashed). */
export const ENVELOPE_KEYS = ['from', 'from_', 'payload', 'epoch', 'status_code', 'run_id', 'to', 'hash', 'signature', 'parent_envelope'] as const;
const KNOWN_KEYS: ReadonlySet<string> = new Set(ENVELOPE_KEYS);

export interface EnvelopeNode {
  /** Dotted path of this occurrence, e.g. `envelope.parent_envelope[1]`. */
  path: string;
  value: JsonObject;
  span: Span;
  /** Each key's effective entry (the last occurrence, as json.loads keeps it). */
  fields: Map<string, JsonEntry>;
  /** The sender: `from_` when present, else `from`. */
  from: JsonEntry | undefined;
  payload: JsonEntry | undefined;
  epoch: JsonEntry | undefined;
  statusCode: JsonEntry | undefined;
  runId: JsonEntry | undefined;
  to: JsonEntry | undefined;
  hash: JsonEntry | undefined;
  signature: JsonEntry | undefined;
  parentEnvelope: JsonEntry | undefined;
  /** Parents as AgentDNA sees them (a single object counts as a list of one; falsy entries dropped). */
  parents: EnvelopeNode[];
  /** Parent entries AgentDNA cannot read (truthy but not an object): the signed message is impossible. */
  badParents: { index: number; value: JsonValue; path: string }[];
  /** Keys that appear more than once (json.loads keeps the last one; other readers may not). */
  duplicateKeys: string[];
  /** Keys outside the Envelope dataclass (ignored by AgentDNA, never hashed). */
  unknownKeys: string[];
  /** Why this looks like a pre-2.0 envelope, if it does. */
  legacy: string[];
  /** Depth from the tip (0). */
  depth: number;
}

/** Python truthiness of a JSON value. */
export function truthy(v: JsonValue): boolean {
  switch (v.type) {
    case 'null':
      return false;
    case 'bool':
      return v.value;
    case 'number':
      return v.isInteger ? v.big !== 0n : v.value !== 0;
    case 'string':
      return v.value !== '';
    case 'array':
      return v.items.length > 0;
    case 'object':
      return v.entries.length > 0;
  }
}

export function lastEntries(obj: JsonObject): { fields: Map<string, JsonEntry>; duplicates: string[] } {
  const fields = new Map<string, JsonEntry>();
  let duplicates: Set<string> | null = null; // rare: only allocated when a key repeats
  for (const e of obj.entries) {
    if (fields.has(e.key)) (duplicates ??= new Set()).add(e.key);
    fields.set(e.key, e);
  }
  return { fields, duplicates: duplicates ? [...duplicates] : [] };
}

/** Whether an object has the shape of an AgentDNA envelope (a sender and a payload or parents). */
export function looksLikeEnvelope(v: JsonValue | undefined): boolean {
  if (v?.type !== 'object') return false;
  const keys = new Set(v.entries.map((e) => e.key));
  const hasFrom = keys.has('from') || keys.has('from_');
  return hasFrom && (keys.has('payload') || keys.has('parent_envelope') || keys.has('signature') || keys.has('epoch'));
}

/**
 * Reads the envelope DAG rooted at `tip`, iteratively (no recursion, whatever the nesting). Every
 * occurrence is its own node: the same envelope reached twice (fan-in) appears twice.
 */
export function readEnvelopeTree(tip: JsonObject, path: string): EnvelopeNode {
  const root = makeNode(tip, path, 0);
  const work: EnvelopeNode[] = [root];
  while (work.length > 0) {
    const node = work.pop()!;
    const pe = node.parentEnvelope?.value;
    if (!pe || !truthy(pe)) continue;
    const base = node.path ? `${node.path}.parent_envelope` : 'parent_envelope';
    if (pe.type === 'object') {
      // AgentDNA: "Fallback in case a legacy linear dictionary is passed"
      node.legacy.push('parent_envelope is a single object, not a list (the 1.0 linear chain)');
      const child = makeNode(pe, base, node.depth + 1);
      node.parents.push(child);
      work.push(child);
    } else if (pe.type === 'array') {
      pe.items.forEach((item, index) => {
        const p = `${base}[${index}]`;
        if (!truthy(item)) return; // `[parse_envelope(p) for p in parents_data if p]`
        if (item.type !== 'object') {
          node.badParents.push({ index, value: item, path: p });
          return;
        }
        const child = makeNode(item, p, node.depth + 1);
        node.parents.push(child);
        work.push(child);
      });
    } else {
      node.badParents.push({ index: 0, value: pe, path: base });
    }
  }
  return root;
}

function makeNode(value: JsonObject, path: string, depth: number): EnvelopeNode {
  const { fields, duplicates } = lastEntries(value);
  const from = fields.get('from_') ?? fields.get('from');
  const legacy: string[] = [];
  if (from && from.value.type === 'object') legacy.push('the sender is an object (1.0 actors), not a DID string');
  const toEntry = fields.get('to');
  if (toEntry && toEntry.value.type === 'object') legacy.push('the recipient is an object (1.0 actors), not a DID string');
  const unknownKeys: string[] = [];
  for (const k of fields.keys()) if (!KNOWN_KEYS.has(k)) unknownKeys.push(k);
  return {
    path,
    value,
    span: [value.start, value.end],
    fields,
    from,
    payload: fields.get('payload'),
    epoch: fields.get('epoch'),
    statusCode: fields.get('status_code'),
    runId: fields.get('run_id'),
    to: toEntry,
    hash: fields.get('hash'),
    signature: fields.get('signature'),
    parentEnvelope: fields.get('parent_envelope'),
    parents: [],
    badParents: [],
    duplicateKeys: duplicates,
    unknownKeys,
    legacy,
    depth,
  };
}

/** The string value of an entry, or null. */
export function str(e: JsonEntry | undefined): string | null {
  return e?.value.type === 'string' ? e.value.value : null;
}

export function spanOf(e: JsonEntry | undefined): Span | null {
  return e ? [e.value.start, e.value.end] : null;
}

/** Every occurrence, breadth-first from the tip. */
export function allOccurrences(tip: EnvelopeNode): EnvelopeNode[] {
  const out: EnvelopeNode[] = [];
  const queue = [tip];
  for (let i = 0; i < queue.length; i++) {
    out.push(queue[i]);
    // One by one: a tip with 125,000 parents spread into push() overflows the stack.
    for (const p of queue[i].parents) queue.push(p);
  }
  return out;
}

/**
 * What a workflow (or a bare envelope) holds that no signature of its chain covers (report.md
 * `not_covered`), as field paths. Each envelope signs its content hash (from_, payload, epoch,
 * status_code, run_id, to) and its parents' hashes; its `hash` is checked against the content and
 * each parent is signed in turn. Outside that: keys of any envelope that AgentDNA drops (unknown
 * keys), `from` where `from_` wins, parent entries AgentDNA cannot read, and every member of the
 * workflow document other than `envelope` (id, info, type, version, remarks, …).
 */
export function uncoveredPaths(tip: EnvelopeNode, workflow: JsonObject | null): string[] {
  const at = (path: string, key: string) => (path ? `${path}.${key}` : key);
  const out: string[] = [];
  if (workflow) for (const key of lastEntries(workflow).fields.keys()) if (key !== 'envelope') out.push(key);
  for (const n of allOccurrences(tip)) {
    for (const k of n.unknownKeys) out.push(at(n.path, k));
    if (n.fields.has('from_') && n.fields.has('from')) out.push(at(n.path, 'from'));
    for (const b of n.badParents) out.push(b.path);
  }
  return [...new Set(out)];
}

/** The six fields AgentDNA hashes (hash.ts contentJson), as the envelope carries them. */
export function contentFieldsOf(n: EnvelopeNode): ContentFields {
  return {
    from: n.from?.value,
    payload: n.payload?.value,
    epoch: n.epoch?.value,
    status_code: n.statusCode?.value,
    run_id: n.runId?.value,
    to: n.to?.value,
  };
}
