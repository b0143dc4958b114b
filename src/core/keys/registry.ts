// Merging entries into the reader's registry without ever loosening it silently (report.md, Key
// files): a revoked entry stays revoked, the narrower window is kept, an operator entry that comes
// back as an agent's stays an agent's; any change to an existing entry is listed. A change that
// would widen trust (un-revoke, widen a window, make an agent key an operator's, rename a DID's
// agent) is not made: it waits in `changes` for the person to accept (applyChange) or reject. So
// does a new entry that binds a key to an AgentDNA DID the registry already holds with another
// identity (a DID entry, which commits to its own key, or another key): a conflict, never added
// silently, or anyone's key file could make their key sign as someone else's DID.
import { entryKey, entryLabel, isDidEntry, isKeyEntry, type KeyKind, type RegistryEntry } from './keys';
import { shortDid } from '../short-id';

/** The fields of an entry that a change may set. */
export interface EntryFields {
  agent: string;
  kind: KeyKind;
  notBeforeMicros: bigint | null;
  notAfterMicros: bigint | null;
  revoked: boolean;
}

export interface RegistryChange {
  /** entryKey of the entry it changes. */
  entry: string;
  /** The entry as people name it. */
  label: string;
  /** The fields it sets (only those that differ from the entry). */
  set: Partial<EntryFields>;
  /** What it does, in words. */
  description: string;
  /** Made already (it narrows trust), or waiting for the person to accept it (it would widen trust). */
  applied: boolean;
  /**
   * A new entry held back, waiting to be accepted: a conflict (a key bound to a DID your registry
   * holds with another key). Accepting it adds the entry; `set` is then empty.
   */
  add?: RegistryEntry;
}

export interface MergeResult {
  registry: RegistryEntry[];
  /** Entries that were not in the registry (appended). */
  added: RegistryEntry[];
  /** Changes to entries that were: the ones made, and the ones waiting to be accepted. */
  changes: RegistryChange[];
}

const bound = (v: bigint | null) => (v === null ? 'unbounded' : `${v} µs`);
/** The later of two lower bounds (null: unbounded). */
const later = (a: bigint | null, b: bigint | null) => (a === null ? b : b === null ? a : a > b ? a : b);
/** The earlier of two upper bounds. */
const earlier = (a: bigint | null, b: bigint | null) => (a === null ? b : b === null ? a : a < b ? a : b);

function describe(set: Partial<EntryFields>): string {
  const parts: string[] = [];
  if (set.revoked !== undefined) parts.push(set.revoked ? 'revoke it' : 'un-revoke it');
  if (set.kind !== undefined) parts.push(`make it an ${set.kind} entry`);
  if (set.notBeforeMicros !== undefined) parts.push(`window opens: ${bound(set.notBeforeMicros)}`);
  if (set.notAfterMicros !== undefined) parts.push(`window closes: ${bound(set.notAfterMicros)}`);
  if (set.agent !== undefined) parts.push(`agent: ${JSON.stringify(set.agent)}`);
  return parts.join('; ');
}

function change(existing: RegistryEntry, set: Partial<EntryFields>, applied: boolean, why: string): RegistryChange {
  return { entry: entryKey(existing), label: entryLabel(existing), set, description: `${describe(set)}${why ? ` (${why})` : ''}`, applied };
}

/**
 * How `incoming` would change `existing` (the same entry): what narrows trust (made at once) and
 * what would widen it (left for the person).
 */
function compare(existing: RegistryEntry, incoming: RegistryEntry, why: string): { merged: RegistryEntry; changes: RegistryChange[] } {
  const narrow: Partial<EntryFields> = {};
  const wide: Partial<EntryFields> = {};
  if (incoming.revoked !== existing.revoked) (incoming.revoked ? narrow : wide).revoked = incoming.revoked;
  if (incoming.kind !== existing.kind) (incoming.kind === 'agent' ? narrow : wide).kind = incoming.kind;
  const nb = later(existing.notBeforeMicros, incoming.notBeforeMicros);
  const na = earlier(existing.notAfterMicros, incoming.notAfterMicros);
  if (incoming.notBeforeMicros !== existing.notBeforeMicros) {
    if (nb !== existing.notBeforeMicros) narrow.notBeforeMicros = nb;
    else wide.notBeforeMicros = incoming.notBeforeMicros;
  }
  if (incoming.notAfterMicros !== existing.notAfterMicros) {
    if (na !== existing.notAfterMicros) narrow.notAfterMicros = na;
    else wide.notAfterMicros = incoming.notAfterMicros;
  }
  // A DID entry's agent is the name "trusted (…)" shows: renaming it is the person's call.
  if (isDidEntry(existing) && incoming.agent !== existing.agent) wide.agent = incoming.agent;
  const changes: RegistryChange[] = [];
  if (Object.keys(narrow).length) changes.push(change(existing, narrow, true, why));
  if (Object.keys(wide).length) changes.push(change(existing, wide, false, why));
  return { merged: { ...existing, ...narrow }, changes };
}

/**
 * Merges `incoming` into `existing`. New entries are added; an entry already there keeps its
 * revocation and the narrower window and kind, and every difference is listed in `changes`.
 * An entry repeated within `incoming` merges the same way (a file cannot loosen itself either).
 * `why` says where the entries come from, for the change descriptions ("from keys.json").
 */
export function mergeRegistry(existing: readonly RegistryEntry[], incoming: readonly RegistryEntry[], why = ''): MergeResult {
  if (!Array.isArray(existing) || !Array.isArray(incoming)) throw new TypeError('mergeRegistry takes two lists of registry entries');
  const registry = [...existing];
  const at = new Map(registry.map((e, i) => [entryKey(e), i]));
  const added: RegistryEntry[] = [];
  const changes: RegistryChange[] = [];
  for (const e of incoming) {
    const key = entryKey(e);
    const i = at.get(key);
    if (i === undefined) {
      const conflict = bindingConflict(registry, e, why);
      if (conflict) {
        if (!changes.some((c) => c.add && c.entry === key)) changes.push(conflict);
        continue;
      }
      at.set(key, registry.length);
      registry.push(e);
      added.push(e);
      continue;
    }
    const r = compare(registry[i], e, why);
    registry[i] = r.merged;
    changes.push(...r.changes);
  }
  // A change that waits and one made later to the same fields: keep only what still differs.
  return { registry, added, changes: changes.filter((c) => c.applied || stillDiffers(registry, c)) };
}

/**
 * The conflict a new entry makes, or null: a secp256k1 key (AgentDNA's curve) bound to a DID, its
 * agent, that the registry already registers by another entry (the DID itself, or another key).
 */
function bindingConflict(registry: readonly RegistryEntry[], e: RegistryEntry, why: string): RegistryChange | null {
  if (!isKeyEntry(e) || e.algorithm !== 'secp256k1' || e.agent === '') return null;
  const held = registry.filter((x) => (isDidEntry(x) ? x.did === e.agent : x.algorithm === 'secp256k1' && x.agent === e.agent));
  if (held.length === 0) return null;
  const description =
    `conflict: binds this key to DID ${shortDid(e.agent)}, which your registry already holds as ${held.map(entryLabel).join(', ')}; ` +
    `added only if you accept (a key file cannot re-bind a registered DID: accept only if that DID's owner gave you this key)${why ? ` (${why})` : ''}`;
  return { entry: entryKey(e), label: entryLabel(e), set: {}, description, applied: false, add: e };
}

function stillDiffers(registry: readonly RegistryEntry[], c: RegistryChange): boolean {
  const e = registry.find((x) => entryKey(x) === c.entry);
  if (c.add) return !e;
  return !!e && Object.entries(c.set).some(([k, v]) => e[k as keyof EntryFields] !== v);
}

/** The registry with a waiting change accepted (a held entry added); unchanged when its entry is gone, or is there already. */
export function applyChange(registry: readonly RegistryEntry[], c: RegistryChange): RegistryEntry[] {
  if (c.add) return registry.some((e) => entryKey(e) === c.entry) ? [...registry] : [...registry, c.add];
  return registry.map((e) => (entryKey(e) === c.entry ? { ...e, ...c.set } : e));
}

/**
 * Entries added from the Keys dialog, whose Kind choice holds for what it adds: an entry whose
 * input states another kind is added as an `agent` entry (the narrower kind), and the operator kind
 * (the input's, or the dialog's) waits as a change to accept. Then merged as mergeRegistry does.
 */
export function importEntries(
  existing: readonly RegistryEntry[],
  parsed: { keys: readonly RegistryEntry[]; statedKinds: readonly (KeyKind | null)[] },
  dialogKind: KeyKind,
  why = '',
): MergeResult {
  const conflicts: RegistryChange[] = [];
  const entries = parsed.keys.map((e, i) => {
    const stated = parsed.statedKinds[i] ?? null;
    if (stated === null || stated === dialogKind) return { ...e, kind: dialogKind };
    const narrowed = { ...e, kind: 'agent' as const };
    conflicts.push(
      change(
        narrowed,
        { kind: 'operator' },
        false,
        stated === 'operator' ? 'the file says operator; the dialog chose agent' : 'the dialog chose operator; the file says agent',
      ),
    );
    return narrowed;
  });
  const merged = mergeRegistry(existing, entries, why);
  // The operator kind waits once per entry, even when the merge lists it too (an existing operator entry).
  const waiting = (c: RegistryChange) => merged.changes.some((m) => m.entry === c.entry && !m.applied && m.set.kind === 'operator');
  return { ...merged, changes: [...merged.changes, ...conflicts.filter((c) => stillDiffers(merged.registry, c) && !waiting(c))] };
}
