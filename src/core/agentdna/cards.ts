// AgentDNA cards (agentdna.md, "Cards"): user and agent (actor) cards, their older NFT shapes, and
// the states a card's history lists. A workflow provenance card is a serialized IntentWorkflow and
// is inspected as a workflow elsewhere.
import { fromBase64, toHex, utf8OrNull } from '../bytes';
import type { JsonEntry, JsonValue } from '../json/lossless';
import { cardIdOf } from './did';
import { lastEntries, str, type JsonObject } from './envelope';

export const CARD_TYPES = ['user_card', 'actor_card', 'user', 'agent', 'user_nft', 'agent_nft'] as const;
const CARD_TYPE_SET = new Set<string>(CARD_TYPES);

export interface PolicyView {
  entry: JsonEntry;
  /** The decoded policy document, or null when it is not base64. */
  bytes: Uint8Array | null;
  /** Its text when it is UTF-8, else null. */
  text: string | null;
  problem: string | null;
}

export interface CardInfo {
  value: JsonObject;
  /** The card type as written (`user_card`, `actor_card`, …), or inferred for a card without one. */
  kind: string;
  typeEntry: JsonEntry | undefined;
  /** The entry holding the actor's DID: `id`, `user_did` or `agent_did`. */
  didEntry: JsonEntry | undefined;
  did: string | null;
  /** The provenance card id derived from the DID: CIDv0 of sha256(DID). */
  cardId: string | null;
  metadata: JsonEntry | undefined;
  policy: PolicyView | null;
  /** An older shape (user_nft / agent_nft, README `user`). */
  legacy: string | null;
  deployer: JsonEntry | undefined;
}

/** Whether an object is an AgentDNA user or agent card (any era). */
export function isCardObject(v: JsonValue | undefined): boolean {
  if (v?.type !== 'object') return false;
  const { fields } = lastEntries(v);
  const type = str(fields.get('type'));
  if (type !== null) return CARD_TYPE_SET.has(type);
  return fields.has('user_did') || fields.has('agent_did') || (fields.has('id') && fields.has('policy'));
}

export function readPolicy(entry: JsonEntry): PolicyView {
  if (entry.value.type !== 'string') return { entry, bytes: null, text: null, problem: 'the policy is not a string' };
  const b64 = entry.value.value;
  const bytes = fromBase64(b64);
  if (bytes === null) return { entry, bytes: null, text: null, problem: 'the policy is not base64' };
  const problem = /[-_]/.test(b64) ? 'the policy uses the url-safe base64 alphabet (AgentDNA writes standard base64)' : null;
  return { entry, bytes, text: utf8OrNull(bytes), problem };
}

export function readCard(v: JsonObject): CardInfo {
  const { fields } = lastEntries(v);
  const typeEntry = fields.get('type');
  const type = str(typeEntry);
  const didEntry = fields.get('agent_did') ?? fields.get('user_did') ?? fields.get('id');
  const did = str(didEntry);
  const policyEntry = fields.get('policy');
  const kind = type ?? (fields.has('agent_did') ? 'agent_nft' : fields.has('user_did') ? 'user_nft' : fields.has('policy') ? 'actor_card' : 'user_card');
  const legacy =
    kind === 'user_nft' || kind === 'agent_nft'
      ? `an older ${kind} shape ({type, ${kind === 'user_nft' ? 'user_did, metadata' : 'agent_did, agent_metadata, policy'}})`
      : kind === 'user' || kind === 'agent'
        ? `the README's "${kind}" card type (the code writes ${kind === 'user' ? 'user_card' : 'actor_card'})`
        : null;
  return {
    value: v,
    kind,
    typeEntry,
    didEntry,
    did,
    cardId: did !== null ? cardIdOf(did) : null,
    metadata: fields.get('agent_metadata') ?? fields.get('metadata'),
    policy: policyEntry ? readPolicy(policyEntry) : null,
    legacy,
    deployer: fields.get('deployer') ?? fields.get('deployer_did'),
  };
}

/** A state of a card's history as the provenance layer returns it: `{data: "<card JSON>", …}`. */
export function stateData(v: JsonValue): JsonEntry | undefined {
  if (v.type !== 'object') return undefined;
  const { fields } = lastEntries(v);
  const data = fields.get('data') ?? fields.get('nft_data');
  if (!data) return undefined;
  if (data.value.type === 'object') return data;
  if (data.value.type === 'string' && /^\s*\{/.test(data.value.value)) return data;
  return undefined;
}

/** How a policy reads in a body view: its text, or hex when it is not UTF-8. */
export function policyDisplay(p: PolicyView): string {
  if (p.bytes === null) return `(${p.problem})`;
  if (p.text !== null) return p.text;
  const head = toHex(p.bytes.subarray(0, 512));
  return `(${p.bytes.length} bytes, not UTF-8)\n${head}${p.bytes.length > 512 ? '…' : ''}`;
}
