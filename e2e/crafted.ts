// Crafted inputs and links for the red-team suites (src/worker/redteam.test.ts and
// e2e/redteam.spec.ts), made at test time as an attacker could make them: with the project's own
// encoder (encodePermalink/encodeBundle), and by hand, bypassing it (any payload the decoder might
// be handed: forged flags, extra members, a decompression bomb). Node only: nothing here is bundled.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { deriveDid } from '../src/core/agentdna/did';
import { signedBytes } from '../src/core/agentdna/hash';
import { concatBytes, toBase64, toHex, utf8Encode } from '../src/core/bytes';
import { CborWriter } from '../src/core/cbor/encoder';
import { MAX_ITEMS } from '../src/core/cbor/reader';
import { inspect } from '../src/core/inspect';
import { parseKeys, type RegistryEntry } from '../src/core/keys/keys';
import { writeValue } from '../src/core/share/permalink';

const VECTORS = new URL('../vectors/', import.meta.url);
export const readVector = (rel: string) => new Uint8Array(readFileSync(fileURLToPath(new URL(rel, VECTORS))));

// ---------- identities ----------

/** A secp256k1 key made on the spot and the Rubix DID it derives: anyone can make one. */
export interface FreshAgent {
  secretKey: Uint8Array;
  publicKey: Uint8Array;
  did: string;
}

/** A fresh agent; the secret comes from `label` (sha256), so a failing run can be repeated. */
export function freshAgent(label: string): FreshAgent {
  const secretKey = sha256(utf8Encode(`envelope-inspector red team: ${label}`));
  const publicKey = secp256k1.getPublicKey(secretKey, false);
  const did = deriveDid(publicKey)!.did;
  return { secretKey, publicKey, did };
}

type Json = Record<string, unknown>;

/** An AgentDNA envelope signed by `agent` with `from` = its own DID, hashed and signed as AgentDNA's build() does. */
function signedEnvelope(agent: FreshAgent, fields: Json, parents: Json[]): Json {
  const draft = { from: agent.did, status_code: 1000, run_id: '', to: '', ...fields, parent_envelope: parents.length ? parents : null };
  const [env] = inspect([{ name: 'draft.json', bytes: utf8Encode(JSON.stringify(draft)) }]).workflows[0].envelopes;
  if (!env.content_hash || !env.message) throw new Error('crafted envelope: no content hash');
  const signature = toHex(secp256k1.sign(signedBytes(env.message, 'truncate'), agent.secretKey, { prehash: false, lowS: false, format: 'der' }));
  return { ...draft, hash: env.content_hash, signature };
}

/**
 * An IntentWorkflow 2.0 of two envelopes (a root and the tip), both signed by `agent`. With
 * `tamperTip`, the tip's payload is changed after signing: its signature no longer holds.
 */
export function freshWorkflow(agent: FreshAgent, options: { tamperTip?: boolean } = {}): Uint8Array {
  const root = signedEnvelope(agent, { payload: 'pay 10 to alice', epoch: 1782668300 }, []);
  const tip = signedEnvelope(agent, { payload: 'approved: pay 10 to alice', epoch: 1782668310 }, [root]);
  if (options.tamperTip) tip.payload = 'approved: pay 9999 to mallory';
  return utf8Encode(JSON.stringify({ id: 'QmRedTeam', type: 'intent_workflow', version: '2.0', info: {}, envelope: tip }));
}

// ---------- registries ----------

/**
 * A key file (report.md) of someone else's identities: the AGDX keys of vectors/agdx/made (they sign
 * signed_command.bin) and the synthetic AgentDNA signers' DIDs. Never the fresh agent's.
 */
export function otherKeyFile(): string {
  const synthetic = JSON.parse(new TextDecoder().decode(readVector('agentdna/synthetic/synthetic_keys.json'))) as Record<string, { did: string }>;
  const agdx = JSON.parse(new TextDecoder().decode(readVector('agdx/made/keys.json'))).keys as Json[];
  return JSON.stringify({ keys: [...agdx, ...Object.entries(synthetic).map(([agent, k]) => ({ agent, did: k.did }))] });
}

/** A key file registering one DID. */
export const didKeyFile = (did: string, agent = 'registered-by-the-opener') => JSON.stringify({ keys: [{ agent, did }] });

function registryOf(keyFile: string): RegistryEntry[] {
  const parsed = parseKeys(keyFile);
  if (parsed.problems.length) throw new Error(parsed.problems.join('; '));
  return parsed.keys;
}

/** The opener's registry trusting someone else (otherKeyFile). */
export const otherRegistry = () => registryOf(otherKeyFile());

/** The opener's registry holding one DID (the control: then, and only then, its records are trusted). */
export const didRegistry = (did: string) => registryOf(didKeyFile(did));

// ---------- hostile inputs ----------

/** vectors/agdx/made/signed_command.bin with one byte of its body changed: its signature no longer holds. */
export function tamperedSignedCommand(): Uint8Array {
  const bytes = readVector('agdx/made/signed_command.bin');
  const span = inspect([{ name: 'signed_command.bin', bytes }]).records[0].data.bodySpan;
  if (!span || span[1] <= span[0]) throw new Error('signed_command.bin has no body span');
  const out = bytes.slice();
  out[span[0]] ^= 0x01;
  return out;
}

/** One CBOR array of `items` zeros: past the reader's cap of items per record. */
export function itemBomb(items = MAX_ITEMS + 1): Uint8Array {
  const w = new CborWriter().head(4, items);
  return concatBytes(w.finish(), new Uint8Array(items));
}

/** U+202E reverses what follows it on screen: shown raw, this name reads "invoicerobc.jpg", a picture, while it ends in .cbor. */
export const BIDI_NAME = 'invoice\u202Egpj.cbor';

// ---------- links and bundles by hand ----------

/** The packed form (checksum ‖ deflate-raw) of any payload value, bypassing encodePermalink's checks. */
function pack(payload: unknown): Uint8Array {
  const w = new CborWriter();
  // The link's own writer, but with no schema: whatever payload an attacker wants.
  writeValue(w, payload);
  const bytes = w.finish();
  return concatBytes(sha256(bytes).subarray(0, 8), new Uint8Array(deflateRawSync(bytes)));
}

/** A permalink fragment (without '#') of any payload. */
export const handLink = (payload: unknown) => `v1.${toBase64(pack(payload), true)}`;

/** A bundle file of any payload. */
export const handBundle = (payload: unknown) => concatBytes(utf8Encode('EIBUNDLE'), new Uint8Array([1]), pack(payload));

/**
 * A link that decompresses to `bytes` zeros (9 MiB by default, past the 8 MiB a link may hold):
 * about 12 KB of text. The checksum is never reached: decompression stops first.
 */
export function inflationBombLink(bytes = 9 * 1024 * 1024): string {
  const packed = concatBytes(new Uint8Array(8), new Uint8Array(deflateRawSync(new Uint8Array(bytes), { level: 9 })));
  return `v1.${toBase64(packed, true)}`;
}

/** The view a link made by the app carries, with the given changes. */
export const view = (patch: Json = {}) => ({ selected: null, tab: 'records', viewport: null, filters: {}, ...patch });
