// "Trust this signer…" from a record's signature panel: a registry entry for the record's signer,
// filled in from the record (its agent, the key or DID its signature names, the kind its operation
// needs), the agent required, the window typed as UTC dates. What is added goes through the one
// path every key takes (parseKeys, then importEntries: a key file of one entry), so the dialog can
// neither loosen an entry silently nor make one the Keys dialog could not.
import { useState } from 'react';
import { toHex } from '../../core/bytes';
import { isDidEntry, isKeyEntry, keyId, parseKeys, type KeyKind, type RegistryEntry } from '../../core/keys/keys';
import { importEntries, type RegistryChange } from '../../core/keys/registry';
import { needsOperator } from '../../core/keys/trust';
import type { RecordDetail } from '../../wire/protocol';
import { displayText } from '../format';
import { useRegistry } from '../registry-context';
import { Dialog } from './Dialog';
import { nodeByPath } from './FieldTree';
import { WindowInput } from './WindowInput';

/** What the record says of its signer: the key id or DID, the agent it claims, the kind its operation needs. */
export interface SignerFacts {
  family: 'agdx' | 'agentdna';
  /** AGDX: the signature's key id; AgentDNA: the signer's DID. */
  identity: string;
  /** The agent the record names as its sender (AGDX source); empty when it names none (an AgentDNA DID is no name). */
  agent: string;
  kind: KeyKind;
}

/** The signer a record's signature names, when a registry entry could make it trusted; else null. */
export function signerFacts(detail: RecordDetail): SignerFacts | null {
  const s = detail.signature;
  // A relabelled codec is never trusted, whatever the registry holds: no entry would change that.
  const trustable = ((s.status === 'valid' && !s.trusted) || s.status === 'unknown_key') && s.context_match !== false;
  if (!trustable) return null;
  if (s.scheme === 'ed25519' && s.key_id) {
    const op = nodeByPath(detail.tree, 'operation')?.display ?? null;
    const operation = op && /^"(un)?quarantine"$/.test(op) ? op.slice(1, -1) : null;
    return {
      family: 'agdx',
      identity: s.key_id,
      agent: detail.summary.source ?? '',
      kind: needsOperator(detail.summary.kind, operation) ? 'operator' : 'agent',
    };
  }
  if (s.scheme === 'ecdsa-secp256k1' && s.signer) return { family: 'agentdna', identity: s.signer, agent: '', kind: 'agent' };
  return null;
}

/** The public key (hex) your registry already holds under this key id, for any agent; '' when none. */
const knownKey = (keys: readonly RegistryEntry[], id: string) => {
  const k = keys.filter(isKeyEntry).find((e) => e.id === id);
  return k ? toHex(k.publicKey) : '';
};

const FIELD = 'rounded border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-950';

/** The button in the signature panel, and its dialog. */
export function TrustSigner({ detail }: { detail: RecordDetail }) {
  const [open, setOpen] = useState(false);
  const facts = signerFacts(detail);
  if (!facts) return null;
  return (
    <div>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="rounded border border-teal-700 px-2 py-1 text-xs font-medium text-teal-800 hover:bg-teal-50 focus-visible:outline-2 focus-visible:outline-teal-600 dark:border-teal-500 dark:text-teal-200 dark:hover:bg-teal-950"
      >
        Trust this signer…
      </button>
      {open && <TrustDialog facts={facts} onClose={() => setOpen(false)} />}
    </div>
  );
}

export function TrustDialog({ facts, onClose }: { facts: SignerFacts; onClose: () => void }) {
  const { keys, change, addPending } = useRegistry();
  const [key, setKey] = useState(() => (facts.family === 'agdx' ? knownKey(keys, facts.identity) : ''));
  const [agent, setAgent] = useState(facts.agent);
  const [kind, setKind] = useState<KeyKind>(facts.kind);
  const [notBefore, setNotBefore] = useState<{ micros: bigint | null; problem: boolean }>({ micros: null, problem: false });
  const [notAfter, setNotAfter] = useState<{ micros: bigint | null; problem: boolean }>({ micros: null, problem: false });
  const [problems, setProblems] = useState<string[]>([]);

  const submit = () => {
    const found: string[] = [];
    if (!agent.trim()) found.push('An agent is required: the entry trusts this signer as that agent, and an entry of no agent trusts nothing.');
    if (notBefore.problem || notAfter.problem) found.push('A window bound is not a date (see under it).');
    if (notBefore.micros !== null && notAfter.micros !== null && notBefore.micros > notAfter.micros) found.push('The window closes before it opens.');
    const member = facts.family === 'agdx' ? { public_key: key.trim() } : { did: facts.identity };
    if (facts.family === 'agdx' && !key.trim()) found.push(`The public key is required: the record names only its id, ${facts.identity}.`);
    if (found.length) return setProblems(found);
    const entry = {
      agent: agent.trim(),
      ...member,
      kind,
      not_before_micros: (notBefore.micros ?? 0n).toString(),
      not_after_micros: (notAfter.micros ?? 0n).toString(),
      revoked: false,
    };
    const parsed = parseKeys(JSON.stringify({ keys: [entry] }));
    if (parsed.problems.length) return setProblems(parsed.problems);
    const made = parsed.keys[0];
    if (facts.family === 'agdx' && (!made || isDidEntry(made) || keyId(made.publicKey) !== facts.identity)) {
      return setProblems([
        `This key's id is ${made && !isDidEntry(made) ? made.id : '?'}; the signature names key ${facts.identity}: it is not the key that signed the record.`,
      ]);
    }
    let waiting: RegistryChange[] = [];
    change((current) => {
      const r = importEntries(current, parsed, kind, 'trusted from a record');
      waiting = r.changes.filter((c) => !c.applied);
      return r.registry;
    });
    if (waiting.length) {
      // The entry is there already and this would widen it (un-revoke, a wider window, operator):
      // it waits for Accept in the Keys dialog, as any such change does.
      addPending(waiting);
      return setProblems(waiting.map((c) => `${c.label}: ${c.description}. This would widen your registry: accept it in Keys.`));
    }
    onClose();
  };

  return (
    <Dialog id="trust-signer-title" title="Trust this signer" onClose={onClose}>
      <form
        className="grid gap-3 text-xs"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <p className="text-slate-600 dark:text-slate-300">
          Adds an entry to your registry: signatures {facts.family === 'agdx' ? 'under this key' : 'bound to this DID'} are then trusted as the agent you name,
          inside the window you give (UTC; empty is unbounded). Your registry stays in this browser.
        </p>
        {facts.family === 'agdx' ? (
          <label className="grid gap-1">
            <span>
              Public key (hex, base64, JWK or PEM) whose id is <span className="font-mono">{facts.identity}</span>
            </span>
            <textarea
              data-autofocus={key ? undefined : true}
              value={key}
              onChange={(e) => setKey(e.target.value)}
              rows={2}
              spellCheck={false}
              className={`${FIELD} font-mono`}
            />
          </label>
        ) : (
          <p>
            DID <span className="font-mono [overflow-wrap:anywhere]">{displayText(facts.identity)}</span> (from the signature)
          </p>
        )}
        <div className="flex flex-wrap items-end gap-2">
          <label className="flex flex-col">
            Agent (required)
            <input
              data-autofocus={facts.family === 'agentdna' || key ? true : undefined}
              aria-required="true"
              value={agent}
              onChange={(e) => setAgent(e.target.value)}
              className={FIELD}
            />
          </label>
          <label className="flex flex-col">
            Kind
            <select value={kind} onChange={(e) => setKind(e.target.value as KeyKind)} className={FIELD}>
              <option value="agent">agent</option>
              <option value="operator">operator</option>
            </select>
          </label>
        </div>
        <div className="grid gap-2 sm:grid-cols-2">
          <WindowInput label="Not before (UTC)" value={null} live onValue={(micros, problem) => setNotBefore({ micros, problem })} />
          <WindowInput label="Not after (UTC)" value={null} live onValue={(micros, problem) => setNotAfter({ micros, problem })} />
        </div>
        {problems.length > 0 && (
          <ul role="alert" className="text-red-700 dark:text-red-300">
            {problems.map((p) => (
              <li key={p}>{displayText(p)}</li>
            ))}
          </ul>
        )}
        <div className="flex justify-end gap-2">
          <button type="button" onClick={onClose} className="rounded px-3 py-1.5 hover:bg-slate-100 dark:hover:bg-slate-800">
            Cancel
          </button>
          <button type="submit" className="rounded bg-teal-700 px-3 py-1.5 font-medium text-white hover:bg-teal-800">
            Trust
          </button>
        </div>
      </form>
    </Dialog>
  );
}
