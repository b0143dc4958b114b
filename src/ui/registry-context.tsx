// The reader's key registry as the panels read it: the entries, the names they give identities (a
// DID registered as "orchestrator" is shown by that name, core/verdict.ts registryNames) and the one
// way to change it (useKeys). App provides it; the signature panel's "Trust this signer…" and every
// place that shows an identity use it.
import { createContext, useContext } from 'react';
import type { RegistryEntry } from '../core/keys/keys';
import type { RegistryChange } from '../core/keys/registry';
import { type IdentityName, registryNames } from '../core/verdict';

export interface RegistryApi {
  keys: readonly RegistryEntry[];
  /** The identity's name in the registry, or null. */
  name: IdentityName;
  /** Changes the registry: `change` gets it as stored now (use-keys.ts). */
  change: (change: (current: RegistryEntry[]) => RegistryEntry[]) => void;
  /** Changes that would widen trust, to wait in the Keys dialog for Accept or Reject. */
  addPending: (changes: RegistryChange[]) => void;
}

const NONE: RegistryApi = { keys: [], name: registryNames([]), change: () => {}, addPending: () => {} };

export const RegistryContext = createContext<RegistryApi>(NONE);

export const useRegistry = (): RegistryApi => useContext(RegistryContext);
