// The registry's entries, one row each: agent, type, key id or DID, window (UTC dates, the micros
// under them) and state. A row is a grid that wraps: two lines in the Keys dialog at 1440 wide, a
// stacked card at 390. Revoking is at once (it narrows trust); un-revoking asks first (it widens it).
import { useState } from 'react';
import { toHex } from '../../core/bytes';
import { entryKey, isDidEntry, type KeyKind, type RegistryEntry } from '../../core/keys/keys';
import { displayText } from '../format';
import { WindowInput } from './WindowInput';

/** How a row is named for assistive technology and tests: "key fe812c12f3ab4ce6", "DID bafy…". */
export const nameOf = (e: RegistryEntry) => (isDidEntry(e) ? `DID ${e.did}` : `key ${e.id}`);
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** What an entry is: a key of its algorithm, or an AgentDNA DID. */
const typeOf = (e: RegistryEntry) => (isDidEntry(e) ? 'AgentDNA DID' : e.algorithm === 'ed25519' ? 'Ed25519 key' : 'secp256k1 key');

const FIELD = 'w-full min-w-0 rounded border border-slate-300 bg-white px-1 py-0.5 dark:border-slate-700 dark:bg-slate-950';
const BUTTON = 'rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800';

interface Props {
  keys: readonly RegistryEntry[];
  update: (key: string, patch: Partial<RegistryEntry>) => void;
  remove: (key: string) => void;
}

export function KeysTable({ keys, update, remove }: Props) {
  // A table (its rows and cells are what assistive technology reads), laid out as wrapping grids.
  return (
    <table aria-label="Registered keys" className="block text-xs">
      <thead className="sr-only">
        <tr>
          {['Agent', 'Type', 'Key id or DID', 'Window', 'State'].map((h) => (
            <th key={h} scope="col">
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="grid gap-2">
        {keys.length === 0 && (
          <tr className="block">
            <td className="block py-2 text-slate-600 dark:text-slate-400">
              Nothing registered: no signature is trusted, and signed AGDX records show an unknown key.
            </td>
          </tr>
        )}
        {keys.map((k) => (
          <KeyRow key={entryKey(k)} entry={k} update={update} remove={remove} />
        ))}
      </tbody>
    </table>
  );
}

function KeyRow({ entry: k, update, remove }: { entry: RegistryEntry } & Omit<Props, 'keys'>) {
  const key = entryKey(k);
  const name = nameOf(k);
  const [confirming, setConfirming] = useState(false);
  const [agentProblem, setAgentProblem] = useState(false);
  const identity = isDidEntry(k) ? k.did : k.id;
  return (
    <tr
      aria-label={capital(name)}
      data-revoked={k.revoked || undefined}
      className={`grid grid-cols-1 gap-x-3 gap-y-1.5 rounded border p-2 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_minmax(0,1fr)] ${k.revoked ? 'border-red-300 bg-red-50/50 dark:border-red-900 dark:bg-red-950/30' : 'border-slate-200 dark:border-slate-800'}`}
    >
      <td className="flex min-w-0 flex-col">
        <span className="text-[11px] text-slate-600 dark:text-slate-400" aria-hidden="true">
          Agent
        </span>
        <input
          key={`agent:${k.agent}`}
          aria-label={`Agent of ${name}`}
          aria-invalid={agentProblem || undefined}
          defaultValue={k.agent}
          onBlur={(e) => {
            const value = e.target.value.trim();
            // An entry of no agent trusts nothing: the agent is required, the old one stays.
            if (!value) {
              e.target.value = k.agent;
              setAgentProblem(true);
              return;
            }
            setAgentProblem(false);
            if (value !== k.agent) update(key, { agent: value });
          }}
          className={FIELD}
        />
        {agentProblem && (
          <span role="alert" className="text-[10px] text-red-700 dark:text-red-300">
            An agent is required; it was kept.
          </span>
        )}
      </td>
      <td className="flex min-w-0 flex-col">
        <span className="text-[11px] text-slate-600 dark:text-slate-400">{typeOf(k)}</span>
        <select aria-label={`Kind of ${name}`} value={k.kind} onChange={(e) => update(key, { kind: e.target.value as KeyKind })} className={FIELD}>
          <option value="agent">agent</option>
          <option value="operator">operator</option>
        </select>
      </td>
      <td className="flex min-w-0 flex-col">
        <span className="text-[11px] text-slate-600 dark:text-slate-400">{isDidEntry(k) ? 'DID' : 'Key id'}</span>
        <span
          className="truncate font-mono"
          title={isDidEntry(k) ? `AgentDNA DID ${displayText(k.did)}` : `${k.algorithm} public key ${toHex(k.publicKey)}`}
          data-testid="key-identity"
        >
          {displayText(identity)}
        </span>
      </td>
      <td className="grid min-w-0 grid-cols-1 gap-x-3 gap-y-1 sm:col-span-2 sm:grid-cols-2">
        <WindowInput
          key={`nb:${k.notBeforeMicros}`}
          label="Not before (UTC)"
          ariaLabel={`Not before of ${name}`}
          value={k.notBeforeMicros}
          onValue={(micros) => micros !== k.notBeforeMicros && update(key, { notBeforeMicros: micros })}
        />
        <WindowInput
          key={`na:${k.notAfterMicros}`}
          label="Not after (UTC)"
          ariaLabel={`Not after of ${name}`}
          value={k.notAfterMicros}
          onValue={(micros) => micros !== k.notAfterMicros && update(key, { notAfterMicros: micros })}
        />
      </td>
      <td className="flex min-w-0 flex-col gap-1">
        <span className="text-[11px] text-slate-600 dark:text-slate-400">State</span>
        <span className="flex flex-wrap items-center gap-2">
          <label className="inline-flex items-center gap-1">
            <input
              type="checkbox"
              aria-label={`${capital(name)} revoked`}
              checked={k.revoked}
              onChange={(e) => {
                // Revoking narrows trust: at once. Un-revoking widens it: it asks first.
                if (e.target.checked) update(key, { revoked: true });
                else setConfirming(true);
              }}
            />
            <span data-testid="key-state" className={k.revoked ? 'font-medium text-red-800 dark:text-red-300' : ''}>
              {k.revoked ? 'revoked' : 'active'}
            </span>
          </label>
          <button
            type="button"
            onClick={() => remove(key)}
            className="rounded px-2 py-0.5 text-red-700 hover:bg-red-50 dark:text-red-300 dark:hover:bg-red-950"
          >
            Remove
          </button>
        </span>
        {confirming && (
          <div
            role="alertdialog"
            aria-label={`Un-revoke ${name}?`}
            className="grid gap-1 rounded border border-amber-400 bg-amber-50 p-1.5 dark:border-amber-700 dark:bg-amber-950"
          >
            <p>Un-revoke {isDidEntry(k) ? 'this DID' : 'this key'}? Signatures it backs are trusted again.</p>
            <span className="flex gap-1">
              <button
                type="button"
                // biome-ignore lint/a11y/noAutofocus: the question is what needs answering now
                autoFocus
                onClick={() => {
                  setConfirming(false);
                  update(key, { revoked: false });
                }}
                className={BUTTON}
              >
                Un-revoke
              </button>
              <button type="button" onClick={() => setConfirming(false)} className={BUTTON}>
                Keep revoked
              </button>
            </span>
          </div>
        )}
      </td>
    </tr>
  );
}
