// RFC 6902 JSON Patch applied to a JSON document, with RFC 6901 JSON Pointers: what a StateDelta's
// patch does to the state (agdx/shapes.ts reads the patch; this applies it). Pure and atomic: the
// document given is never changed, and a patch that fails at one operation changes nothing (RFC 6902
// §5), the answer saying which operation failed and why. Objects are made without a prototype, as
// the body readers make them, so a `__proto__` member is an ordinary member.
import type { Json, PatchOp } from '../agdx/shapes';

export type PatchResult = { ok: true; document: Json } | { ok: false; operation: number; reason: string };

type JsonObject = { [key: string]: Json };

const isObject = (v: Json): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A deep copy (objects without a prototype): what an operation writes must not alias what it read. */
function copy(v: Json): Json {
  if (Array.isArray(v)) return v.map(copy);
  if (isObject(v)) {
    const out = Object.create(null) as JsonObject;
    for (const k of Object.keys(v)) out[k] = copy(v[k]);
    return out;
  }
  return v;
}

/** RFC 6902 §4.6's equality: same type, numbers by value, arrays in order, objects by their members. */
export function jsonEqual(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

/** Why a pointer is not one, thrown inside apply and turned into the failed answer. */
class PatchFailure {
  constructor(readonly reason: string) {}
}

/** A pointer's reference tokens (RFC 6901 §3–4: `~1` is `/`, `~0` is `~`); "" is the whole document. */
function pointerTokens(pointer: string): string[] {
  if (pointer === '') return [];
  if (pointer[0] !== '/') throw new PatchFailure(`"${pointer}" is not a JSON Pointer: it must be empty or start with "/"`);
  return pointer
    .slice(1)
    .split('/')
    .map((t) => {
      if (/~[^01]|~$/.test(t)) throw new PatchFailure(`"${pointer}" is not a JSON Pointer: "~" must be followed by 0 or 1`);
      return t.replace(/~1/g, '/').replace(/~0/g, '~');
    });
}

/** An array index token (RFC 6901 §4: digits, no leading zero), or -1 when it is not one. */
function arrayIndex(token: string): number {
  return /^(0|[1-9][0-9]*)$/.test(token) ? Number(token) : -1;
}

/** The value at `tokens` of `doc`, or a failure naming the first token that is not there. */
function valueAt(doc: Json, tokens: readonly string[], pointer: string): Json {
  let at = doc;
  for (const t of tokens) {
    if (Array.isArray(at)) {
      const i = arrayIndex(t);
      if (i < 0 || i >= at.length) throw new PatchFailure(`${pointer}: no element "${t}" in an array of ${at.length}`);
      at = at[i];
    } else if (isObject(at)) {
      if (!Object.hasOwn(at, t)) throw new PatchFailure(`${pointer}: no member "${t}"`);
      at = at[t];
    } else throw new PatchFailure(`${pointer}: "${t}" is inside a ${at === null ? 'null' : typeof at}, which has no members`);
  }
  return at;
}

/** The container the last token of `tokens` is in (it must exist: RFC 6902 §4.1), and that token. */
function parentOf(doc: Json, tokens: readonly string[], pointer: string): { parent: Json[] | JsonObject; last: string } {
  const parent = valueAt(doc, tokens.slice(0, -1), pointer);
  if (!Array.isArray(parent) && !isObject(parent))
    throw new PatchFailure(`${pointer}: its parent is a ${parent === null ? 'null' : typeof parent}, not an object or array`);
  return { parent, last: tokens[tokens.length - 1] };
}

/** The document after adding `value` at `tokens` (the whole document replaced when they are none). */
function add(doc: Json, tokens: readonly string[], value: Json, pointer: string): Json {
  if (tokens.length === 0) return value;
  const { parent, last } = parentOf(doc, tokens, pointer);
  if (Array.isArray(parent)) {
    const i = last === '-' ? parent.length : arrayIndex(last);
    if (i < 0 || i > parent.length) throw new PatchFailure(`${pointer}: "${last}" is not an index of an array of ${parent.length} (0–${parent.length} or "-")`);
    parent.splice(i, 0, value);
  } else parent[last] = value;
  return doc;
}

/** The document after removing the value at `tokens`, which must exist. */
function remove(doc: Json, tokens: readonly string[], pointer: string): Json {
  if (tokens.length === 0) throw new PatchFailure(`${pointer}: the whole document cannot be removed`);
  valueAt(doc, tokens, pointer);
  const { parent, last } = parentOf(doc, tokens, pointer);
  if (Array.isArray(parent)) parent.splice(arrayIndex(last), 1);
  else delete parent[last];
  return doc;
}

/** One operation applied to `doc` (a copy the patch owns: it is changed in place where it can be). */
function applyOne(doc: Json, op: PatchOp): Json {
  const tokens = pointerTokens(op.path);
  switch (op.op) {
    case 'add':
      return add(doc, tokens, copy(op.value), op.path);
    case 'remove':
      return remove(doc, tokens, op.path);
    case 'replace': {
      // In place: a replaced member keeps its place among the others.
      valueAt(doc, tokens, op.path);
      if (tokens.length === 0) return copy(op.value);
      const { parent, last } = parentOf(doc, tokens, op.path);
      if (Array.isArray(parent)) parent[arrayIndex(last)] = copy(op.value);
      else parent[last] = copy(op.value);
      return doc;
    }
    case 'move': {
      const from = pointerTokens(op.from);
      if (op.path !== op.from && op.path.startsWith(`${op.from}/`)) throw new PatchFailure(`${op.from} cannot be moved into its own child ${op.path}`);
      const value = valueAt(doc, from, op.from);
      if (op.path === op.from) return doc;
      return add(remove(doc, from, op.from), tokens, value, op.path);
    }
    case 'copy':
      return add(doc, tokens, copy(valueAt(doc, pointerTokens(op.from), op.from)), op.path);
    case 'test': {
      const actual = valueAt(doc, tokens, op.path);
      if (!jsonEqual(actual, op.value)) throw new PatchFailure(`${op.path || 'the document'} is ${JSON.stringify(actual)}, not ${JSON.stringify(op.value)}`);
      return doc;
    }
    default:
      throw new PatchFailure(`"${(op as { op: string }).op}" is not an RFC 6902 operation`);
  }
}

/**
 * `patch` applied to `document` (RFC 6902): the new document, or the operation (from 0) that
 * failed and why. `document` is left as it was either way.
 */
export function applyPatch(document: Json, patch: readonly PatchOp[]): PatchResult {
  if (!Array.isArray(patch)) throw new TypeError('applyPatch: a patch is an array of operations');
  let doc = copy(document);
  for (let i = 0; i < patch.length; i++) {
    try {
      doc = applyOne(doc, patch[i]);
    } catch (e) {
      if (!(e instanceof PatchFailure)) throw e;
      return { ok: false, operation: i, reason: e.reason };
    }
  }
  return { ok: true, document: doc };
}
