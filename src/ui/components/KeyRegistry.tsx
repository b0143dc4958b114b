import { useRef, useState } from 'react';
import { toHex } from '../../core/bytes';
import { parseKeys, toKeyFile, type KeyKind, type RegisteredKey } from '../../core/keys/keys';
import { download } from '../download';
import { Dialog } from './Dialog';
import { mergeKeys } from '../keys-store';

interface Props {
  keys: RegisteredKey[];
  onChange: (keys: RegisteredKey[]) => void;
  onClose: () => void;
}

const toInput = (v: bigint | null) => (v === null ? '' : v.toString());
const fromInput = (s: string): bigint | null => (/^\d+$/.test(s.trim()) && BigInt(s.trim()) > 0n ? BigInt(s.trim()) : null);

/** Add keys by paste or file, see and edit them, remove them, export them as a key file. */
export function KeyRegistry({ keys, onChange, onClose }: Props) {
  const [text, setText] = useState('');
  const [agent, setAgent] = useState('');
  const [kind, setKind] = useState<KeyKind>('agent');
  const [problems, setProblems] = useState<string[]>([]);
  const file = useRef<HTMLInputElement>(null);

  const add = (input: string | Uint8Array) => {
    const r = parseKeys(input, { agent: agent.trim() || undefined, kind });
    setProblems(r.problems);
    if (r.keys.length) {
      onChange(mergeKeys(keys, r.keys));
      setText('');
    }
  };
  const update = (i: number, patch: Partial<RegisteredKey>) => onChange(keys.map((k, j) => (j === i ? { ...k, ...patch } : k)));
  const exportFile = () => download('envelope-inspector-keys.json', toKeyFile(keys), 'application/json');

  return (
    <Dialog id="keys-title" title="Key registry" onClose={onClose} side>
        <p className="text-xs text-slate-600 dark:text-slate-300">
          Public keys that signatures are checked against, kept in this browser only. A key is trusted for the agent it is registered to, while unrevoked and inside its window; only operator keys may sign quarantine and
          unquarantine. Keys are never taken from a link or a record file.
        </p>
        <div className="grid gap-2 rounded border border-slate-200 p-3 dark:border-slate-800">
          <label htmlFor="key-text" className="text-xs font-medium">
            Key (hex, base64, JWK / JWKS, PEM, or a key file)
          </label>
          <textarea id="key-text" value={text} onChange={(e) => setText(e.target.value)} rows={4} spellCheck={false} className="rounded border border-slate-300 bg-slate-50 p-2 font-mono text-xs dark:border-slate-700 dark:bg-slate-950" />
          <div className="flex flex-wrap items-end gap-2 text-xs">
            <label className="flex flex-col">
              Agent (for keys that do not name one)
              <input value={agent} onChange={(e) => setAgent(e.target.value)} className="rounded border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-950" />
            </label>
            <label className="flex flex-col">
              Kind
              <select value={kind} onChange={(e) => setKind(e.target.value as KeyKind)} className="rounded border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-950">
                <option value="agent">agent</option>
                <option value="operator">operator</option>
              </select>
            </label>
            <button type="button" disabled={!text.trim()} onClick={() => add(text)} className="rounded bg-teal-700 px-3 py-1.5 font-medium text-white hover:bg-teal-800 disabled:opacity-50">
              Add key
            </button>
            <button type="button" onClick={() => file.current?.click()} className="rounded border border-slate-300 px-3 py-1.5 hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800">
              Add from file…
            </button>
            <input
              ref={file}
              type="file"
              aria-label="Key file"
              className="hidden"
              onChange={async (e) => {
                const f = e.target.files?.[0];
                if (f) add(new Uint8Array(await f.arrayBuffer()));
                e.target.value = '';
              }}
            />
            <button type="button" disabled={keys.length === 0} onClick={exportFile} className="ml-auto rounded border border-slate-300 px-3 py-1.5 hover:bg-slate-100 disabled:opacity-50 dark:border-slate-700 dark:hover:bg-slate-800">
              Export key file
            </button>
          </div>
          {problems.length > 0 && (
            <ul role="alert" className="text-xs text-red-700 dark:text-red-300">
              {problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          )}
        </div>
        <table className="w-full text-xs" aria-label="Registered keys">
          <thead className="text-left text-slate-500 dark:text-slate-400">
            <tr>
              <th className="font-medium">Key id</th>
              <th className="font-medium">Agent</th>
              <th className="font-medium">Kind</th>
              <th className="font-medium">Not before (µs)</th>
              <th className="font-medium">Not after (µs)</th>
              <th className="font-medium">Revoked</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {keys.length === 0 && (
              <tr>
                <td colSpan={7} className="py-2 text-slate-500">
                  No keys yet: signed records show as signed with an unknown key.
                </td>
              </tr>
            )}
            {keys.map((k, i) => (
              <tr key={`${k.id}:${i}`} aria-label={`Key ${k.id}`}>
                <td className="py-1 font-mono" title={`${k.algorithm} public key ${toHex(k.publicKey)}`}>
                  {k.id}
                </td>
                <td>
                  <input aria-label={`Agent of key ${k.id}`} value={k.agent} onChange={(e) => update(i, { agent: e.target.value })} className="w-36 rounded border border-slate-300 bg-white px-1 py-0.5 dark:border-slate-700 dark:bg-slate-950" />
                </td>
                <td>
                  <select aria-label={`Kind of key ${k.id}`} value={k.kind} onChange={(e) => update(i, { kind: e.target.value as KeyKind })} className="rounded border border-slate-300 bg-white px-1 py-0.5 dark:border-slate-700 dark:bg-slate-950">
                    <option value="agent">agent</option>
                    <option value="operator">operator</option>
                  </select>
                </td>
                <td>
                  <input aria-label={`Not before of key ${k.id}`} value={toInput(k.notBeforeMicros)} placeholder="unbounded" onChange={(e) => update(i, { notBeforeMicros: fromInput(e.target.value) })} className="w-32 rounded border border-slate-300 bg-white px-1 py-0.5 font-mono dark:border-slate-700 dark:bg-slate-950" />
                </td>
                <td>
                  <input aria-label={`Not after of key ${k.id}`} value={toInput(k.notAfterMicros)} placeholder="unbounded" onChange={(e) => update(i, { notAfterMicros: fromInput(e.target.value) })} className="w-32 rounded border border-slate-300 bg-white px-1 py-0.5 font-mono dark:border-slate-700 dark:bg-slate-950" />
                </td>
                <td>
                  <input type="checkbox" aria-label={`Key ${k.id} revoked`} checked={k.revoked} onChange={(e) => update(i, { revoked: e.target.checked })} />
                </td>
                <td>
                  <button type="button" onClick={() => onChange(keys.filter((_, j) => j !== i))} className="rounded px-2 py-0.5 text-red-700 hover:bg-red-50 dark:text-red-300 dark:hover:bg-red-950">
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
    </Dialog>
  );
}
