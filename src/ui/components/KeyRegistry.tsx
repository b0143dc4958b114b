import { useRef, useState } from 'react';
import { entryKey, toKeyFile, type KeyKind, type RegistryEntry } from '../../core/keys/keys';
import { applyChange, type RegistryChange } from '../../core/keys/registry';
import { addKeys } from '../keys-add';
import { download } from '../download';
import { displayText } from '../format';
import { storedKeyProblems } from '../keys-store';
import { withKeys } from '../list-keys';
import { Dialog } from './Dialog';
import { KeysTable } from './KeysTable';

interface Props {
  keys: RegistryEntry[];
  /** Changes the registry: gets it as stored now (another tab may have changed it), returns the new one. */
  onChange: (change: (current: RegistryEntry[]) => RegistryEntry[]) => void;
  /** Changes to existing entries that would widen trust, waiting for Accept or Reject. */
  pending: RegistryChange[];
  onPending: (pending: RegistryChange[]) => void;
  onClose: () => void;
}

/** Add keys and DIDs by paste or file, see and edit them, remove them, export them as a key file. */
export function KeyRegistry({ keys, onChange, pending, onPending, onClose }: Props) {
  const [text, setText] = useState('');
  const [agent, setAgent] = useState('');
  const [kind, setKind] = useState<KeyKind>('agent');
  const [problems, setProblems] = useState<string[]>([]);
  const [notes, setNotes] = useState<string[]>([]);
  const file = useRef<HTMLInputElement>(null);

  const add = (input: string | Uint8Array, from: string) => {
    const { read, problems: unread, applied, waiting } = addKeys(input, { agent: agent.trim() || undefined, kind, from }, onChange);
    setProblems(unread);
    if (!read) return;
    onPending([...pending.filter((p) => !waiting.some((w) => w.entry === p.entry)), ...waiting]);
    setNotes(applied.map((c) => `${c.label}: ${c.description}`));
    setText('');
  };
  const update = (key: string, patch: Partial<RegistryEntry>) =>
    onChange((current) => current.map((e) => (entryKey(e) === key ? ({ ...e, ...patch } as RegistryEntry) : e)));
  const remove = (key: string) => onChange((current) => current.filter((e) => entryKey(e) !== key));
  const settle = (c: RegistryChange, accept: boolean) => {
    if (accept) onChange((current) => applyChange(current, c));
    onPending(pending.filter((p) => p !== c));
  };
  const exportFile = () => download('envelope-inspector-keys.json', toKeyFile(keys), 'application/json');

  return (
    <Dialog id="keys-title" title="Key registry" onClose={onClose} side>
      <p className="text-xs text-slate-600 dark:text-slate-300">
        Your registry: the public keys (AGDX) and AgentDNA DIDs you trust, kept in this browser only. A signature is trusted only when an entry here backs its
        signer: a key registered for the record&apos;s agent, or the signer&apos;s DID, unrevoked and inside its window; only operator keys may sign quarantine
        and unquarantine. A DID that matches its own signature is bound to its key, not trusted: anyone can make one. Nothing is ever taken from a link or a
        record file.
      </p>
      <div className="grid gap-2 rounded border border-slate-200 p-3 dark:border-slate-800">
        <label htmlFor="key-text" className="text-xs font-medium">
          Key (hex, base64, JWK / JWKS, PEM, a key file) or a DID
        </label>
        <textarea
          id="key-text"
          value={text}
          onChange={(e) => setText(e.target.value)}
          rows={4}
          spellCheck={false}
          className="rounded border border-slate-300 bg-slate-50 p-2 font-mono text-xs dark:border-slate-700 dark:bg-slate-950"
        />
        <div className="flex flex-wrap items-end gap-2 text-xs">
          <label className="flex flex-col">
            Agent (required for keys and DIDs that do not name one)
            <input
              value={agent}
              onChange={(e) => setAgent(e.target.value)}
              className="rounded border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-950"
            />
          </label>
          <label className="flex flex-col">
            Kind
            <select
              value={kind}
              onChange={(e) => setKind(e.target.value as KeyKind)}
              className="rounded border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-950"
            >
              <option value="agent">agent</option>
              <option value="operator">operator</option>
            </select>
          </label>
          <button
            type="button"
            disabled={!text.trim()}
            onClick={() => add(text, 'pasted')}
            className="rounded bg-teal-700 px-3 py-1.5 font-medium text-white hover:bg-teal-800 disabled:opacity-50"
          >
            Add key or DID
          </button>
          <button
            type="button"
            onClick={() => file.current?.click()}
            className="rounded border border-slate-300 px-3 py-1.5 hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
          >
            Add from file…
          </button>
          <input
            ref={file}
            type="file"
            aria-label="Key file"
            className="hidden"
            onChange={async (e) => {
              const f = e.target.files?.[0];
              if (f) add(new Uint8Array(await f.arrayBuffer()), `from ${f.name}`);
              e.target.value = '';
            }}
          />
          <button
            type="button"
            disabled={keys.length === 0}
            onClick={exportFile}
            className="ml-auto rounded border border-slate-300 px-3 py-1.5 hover:bg-slate-100 disabled:opacity-50 dark:border-slate-700 dark:hover:bg-slate-800"
          >
            Export key file
          </button>
        </div>
        <p className="text-[11px] text-slate-500 dark:text-slate-400">
          Kind applies to what you add: an entry whose file says another kind is added as an agent entry, and the operator kind waits below for you to accept.
        </p>
        <StoredProblems />
        {problems.length > 0 && (
          <div role="alert" className="text-xs text-red-700 dark:text-red-300">
            <ul>
              {problems.map((p) => (
                <li key={p}>{displayText(p)}</li>
              ))}
            </ul>
          </div>
        )}
        {notes.length > 0 && (
          <ul aria-label="Changes made" className="text-xs text-slate-700 dark:text-slate-300">
            {notes.map((n) => (
              <li key={n}>Made stricter: {displayText(n)}</li>
            ))}
          </ul>
        )}
      </div>
      {pending.length > 0 && (
        <section aria-label="Changes to accept" className="grid gap-1 rounded border border-amber-300 p-3 text-xs dark:border-amber-800">
          <p className="font-medium">These changes would widen what your registry trusts. Nothing changes until you accept.</p>
          <ul className="grid gap-1">
            {withKeys(pending, (c) => `${c.entry} ${c.description}`).map(({ key, item: c }) => (
              <li key={key} aria-label={`Change to ${c.label}`} className="flex flex-wrap items-center gap-2">
                <span>{displayText(`${c.label}: ${c.description}`)}</span>
                <button
                  type="button"
                  onClick={() => settle(c, true)}
                  className="rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
                >
                  Accept
                </button>
                <button
                  type="button"
                  onClick={() => settle(c, false)}
                  className="rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
                >
                  Reject
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      <KeysTable keys={keys} update={update} remove={remove} />
    </Dialog>
  );
}

/** Entries of the stored registry that did not read as a key file's (so are not used, nor saved again): said, the rest kept. */
function StoredProblems() {
  const stored = storedKeyProblems();
  if (stored.length === 0) return null;
  return (
    // An alert holding a list (a list item's parent must be a list, not an alert).
    <div role="alert" aria-label="Stored entries not used" className="text-xs text-red-700 dark:text-red-300">
      <ul>
        {stored.map((p) => (
          <li key={p}>Your stored registry (not used, and not saved again): {displayText(p)}</li>
        ))}
      </ul>
    </div>
  );
}
