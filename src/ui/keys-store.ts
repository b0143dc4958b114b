// The key registry lives in this browser's storage, as a report.md key file. Keys and DIDs come
// only from what the person adds here: never from a permalink or a dropped record file. Every change
// is made to the copy in storage as it is now (another tab may have changed it), never to a stale
// one; other tabs' changes arrive through the `storage` event.
import { parseKeys, toKeyFile, type RegistryEntry } from '../core/keys/keys';
import { applyChange, mergeRegistry } from '../core/keys/registry';

const STORAGE_KEY = 'envelope-inspector.keys';

/** What this page found in the stored registry that does not read, since it loaded (said in the Keys dialog). */
const unread = new Set<string>();

/**
 * A stored key file as a registry, read by the key files' own strict parser: an entry that does not
 * read is not used (storedKeyProblems says which; the next save leaves it out). Repeated entries
 * merge as a key file's do (never loosening); a key bound to a DID held by another entry was
 * accepted by the person before (only this page writes here), so it stays.
 */
function fromText(text: string | null): RegistryEntry[] {
  if (!text) return [];
  const parsed = parseKeys(text);
  for (const p of parsed.problems) unread.add(p);
  const merged = mergeRegistry([], parsed.keys);
  return merged.changes.filter((c) => c.add).reduce(applyChange, merged.registry);
}

/** What of the stored registry did not read since the page loaded (so is not used), in words; empty when all of it read. */
export function storedKeyProblems(): string[] {
  return [...unread];
}

/** The stored registry, or null when storage cannot be read (disabled, say). */
function readStored(): RegistryEntry[] | null {
  try {
    return fromText(localStorage.getItem(STORAGE_KEY));
  } catch {
    return null;
  }
}

export function loadStoredKeys(): RegistryEntry[] {
  return readStored() ?? [];
}

/**
 * Changes the stored registry: `change` gets the registry as stored now (`inMemory` when storage
 * cannot be read) and returns the new one, which is written (when storage allows) and returned.
 * `change` runs once, at once.
 */
export function updateStoredKeys(change: (current: RegistryEntry[]) => RegistryEntry[], inMemory: RegistryEntry[]): RegistryEntry[] {
  const next = change(readStored() ?? inMemory);
  try {
    localStorage.setItem(STORAGE_KEY, toKeyFile(next));
  } catch {
    // No storage: the registry lives in this page only.
  }
  return next;
}

/** Calls `onChange` with the registry whenever another tab changes it; returns the unsubscribe. */
export function watchStoredKeys(onChange: (keys: RegistryEntry[]) => void): () => void {
  const listener = (e: StorageEvent) => {
    if (e.storageArea === localStorage && (e.key === STORAGE_KEY || e.key === null)) onChange(loadStoredKeys());
  };
  window.addEventListener('storage', listener);
  return () => window.removeEventListener('storage', listener);
}
