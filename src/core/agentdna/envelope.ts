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

/** One occurrence of an envelope in a workflow's DAG, read from its JSON object. */
export class EnvelopeNode {
  // The lists below are NONE until something is added: a workflow can hold half a million
  // occurrences, most of them leaves with none of these, and an empty array each is 3 × 32 bytes.
  /** Parents as AgentDNA sees them (a single object counts as a list of one; falsy entries dropped). */
  parents: readonly EnvelopeNode[] = NONE;
  /** Parent entries AgentDNA cannot read (truthy but not an object): the signed message is impossible. */
  badParents: readonly { index: number; value: JsonValue; path: string }[] = NONE;
  /** Why this looks like a pre-2.0 envelope, if it does. */
  legacy: readonly string[] = NONE;

  constructor(
    /** Dotted path of this occurrence, e.g. `envelope.parent_envelope[1]`. */
    readonly path: string,
    readonly value: JsonObject,
    /** Its number in its tree, 0 for the tip and counting as read: what an analysis indexes by. */
    readonly serial: number,
  ) {
    const from = this.from;
    const to = this.to;
    if (from && from.value.type === 'object') this.legacy = [...this.legacy, 'the sender is an object (1.0 actors), not a DID string'];
    if (to && to.value.type === 'object') this.legacy = [...this.legacy, 'the recipient is an object (1.0 actors), not a DID string'];
  }

  /** Keys that appear more than once (json.loads keeps the last one; other readers may not). */
  get duplicateKeys(): readonly string[] {
    return lastEntries(this.value).duplicates;
  }

  /** Keys outside the Envelope dataclass (ignored by AgentDNA, never hashed). */
  get unknownKeys(): readonly string[] {
    return [...lastEntries(this.value).fields.keys()].filter((k) => !KNOWN_KEYS.has(k));
  }

  // The fields and the key lists, found when asked (an object has a few entries): kept in each of
  // half a million occurrences, they would be 60 MB.
  /** The sender: `from_` when present, else `from`. */
  get from(): JsonEntry | undefined {
    return lastEntry(this.value, 'from_') ?? lastEntry(this.value, 'from');
  }
  get payload(): JsonEntry | undefined {
    return lastEntry(this.value, 'payload');
  }
  get epoch(): JsonEntry | undefined {
    return lastEntry(this.value, 'epoch');
  }
  get statusCode(): JsonEntry | undefined {
    return lastEntry(this.value, 'status_code');
  }
  get runId(): JsonEntry | undefined {
    return lastEntry(this.value, 'run_id');
  }
  get to(): JsonEntry | undefined {
    return lastEntry(this.value, 'to');
  }
  get hash(): JsonEntry | undefined {
    return lastEntry(this.value, 'hash');
  }
  get signature(): JsonEntry | undefined {
    return lastEntry(this.value, 'signature');
  }
  get parentEnvelope(): JsonEntry | undefined {
    return lastEntry(this.value, 'parent_envelope');
  }

  /** The object's byte span (made when asked: most occurrences are never reported one by one). */
  get span(): Span {
    return [this.value.start, this.value.end];
  }
}

const NONE: readonly never[] = Object.freeze([]);

/** The effective entry of a key: its last occurrence, as json.loads keeps it. */
function lastEntry(obj: JsonObject, key: string): JsonEntry | undefined {
  const entries = obj.entries;
  for (let i = entries.length - 1; i >= 0; i--) if (entries[i].key === key) return entries[i];
  return undefined;
}

/**
 * Each key's effective entry (the last occurrence, as json.loads keeps it). Made when asked, not
 * kept per occurrence: a Map each is most of what a wide workflow's nodes would hold.
 */
export function fieldsOf(n: EnvelopeNode): Map<string, JsonEntry> {
  return lastEntries(n.value).fields;
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
  let serial = 0;
  const root = new EnvelopeNode(path, tip, serial++);
  const work: EnvelopeNode[] = [root];
  while (work.length > 0) {
    const node = work.pop()!;
    const pe = node.parentEnvelope?.value;
    if (!pe || !truthy(pe)) continue;
    const base = node.path ? `${node.path}.parent_envelope` : 'parent_envelope';
    const parents: EnvelopeNode[] = [];
    const badParents: { index: number; value: JsonValue; path: string }[] = [];
    if (pe.type === 'object') {
      // AgentDNA: "Fallback in case a legacy linear dictionary is passed"
      node.legacy = [...node.legacy, 'parent_envelope is a single object, not a list (the 1.0 linear chain)'];
      parents.push(new EnvelopeNode(base, pe, serial++));
    } else if (pe.type === 'array') {
      pe.items.forEach((item, index) => {
        if (!truthy(item)) return; // `[parse_envelope(p) for p in parents_data if p]`
        // join() makes a flat string; a template makes a rope of six pieces (~200 bytes a path).
        const p = [base, '[', index, ']'].join('');
        if (item.type !== 'object') badParents.push({ index, value: item, path: p });
        else parents.push(new EnvelopeNode(p, item, serial++));
      });
    } else {
      badParents.push({ index: 0, value: pe, path: base });
    }
    if (parents.length > 0) node.parents = parents;
    if (badParents.length > 0) node.badParents = badParents;
    // One by one: a tip with 125,000 parents spread into push() overflows the stack.
    for (const child of parents) work.push(child);
  }
  return root;
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
    if (n.from?.key === 'from_' && fieldsOf(n).has('from')) out.push(at(n.path, 'from'));
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
