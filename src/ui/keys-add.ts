// The one way keys come into the registry from text (a pasted key, a key file, the samples' test
// key): read strictly (core/keys parseKeys), merged so nothing widens trust unasked (importEntries:
// changes that would are left waiting for the person's Accept), written through the registry's
// change (use-keys.ts). The Keys dialog and the samples' "Trust the sample key" both call it.
import { parseKeys, type KeyKind, type RegistryEntry } from '../core/keys/keys';
import { importEntries, type RegistryChange } from '../core/keys/registry';

export interface KeysAdded {
  /** Entries read from the input. */
  read: number;
  /** What could not be read (the entry and member named). */
  problems: string[];
  /** Changes made to the registry, and those waiting for the person to accept them. */
  applied: RegistryChange[];
  waiting: RegistryChange[];
}

export function addKeys(
  input: string | Uint8Array,
  options: { agent?: string; kind: KeyKind; from: string },
  change: (fn: (current: RegistryEntry[]) => RegistryEntry[]) => void,
): KeysAdded {
  // An entry of no agent trusts nothing: the parser refuses it, saying which (one of `problems`).
  const parsed = parseKeys(input, { agent: options.agent });
  if (!parsed.keys.length) return { read: 0, problems: parsed.problems, applied: [], waiting: [] };
  let changes: RegistryChange[] = [];
  change((current) => {
    const r = importEntries(current, parsed, options.kind, options.from);
    changes = r.changes;
    return r.registry;
  });
  return { read: parsed.keys.length, problems: parsed.problems, applied: changes.filter((c) => c.applied), waiting: changes.filter((c) => !c.applied) };
}
