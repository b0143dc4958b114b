// The key registry lives in this browser's storage, as a report.md key file. Keys come only from
// what the person adds here: never from a permalink or a dropped record file.
import { parseKeys, toKeyFile, type RegisteredKey } from '../core/keys/keys';

const STORAGE_KEY = 'envelope-inspector.keys';

export function loadStoredKeys(): RegisteredKey[] {
  try {
    const text = localStorage.getItem(STORAGE_KEY);
    return text ? parseKeys(text).keys : [];
  } catch {
    return [];
  }
}

export function storeKeys(keys: RegisteredKey[]): void {
  localStorage.setItem(STORAGE_KEY, toKeyFile(keys));
}

/** Adds keys, replacing an existing entry for the same key and agent. */
export function mergeKeys(existing: RegisteredKey[], added: RegisteredKey[]): RegisteredKey[] {
  const out = existing.filter((k) => !added.some((a) => a.id === k.id && a.agent === k.agent));
  return [...out, ...added];
}
