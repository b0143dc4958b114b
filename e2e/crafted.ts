// Crafted inputs and links for the red-team suites (src/worker/redteam.test.ts and
// e2e/redteam.spec.ts), made at test time as an attacker could make them: with the project's own
// encoder (encodePermalink/encodeBundle), and by hand, bypassing it (any payload the decoder might
// be handed: forged flags, extra members, a decompression bomb). Node only: nothing here is bundled.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import * as ed from '@noble/ed25519';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { encodeEnvelope } from '../src/core/agdx/canonical';
import type { Envelope } from '../src/core/agdx/envelope';
import { signingInput } from '../src/core/agdx/verify';
import { deriveDid } from '../src/core/agentdna/did';
import { signedBytes } from '../src/core/agentdna/hash';
import { concatBytes, fromHex, toBase64, toHex, utf8Encode } from '../src/core/bytes';
import { CborWriter } from '../src/core/cbor/encoder';
import { MAX_ITEMS } from '../src/core/cbor/reader';
import { inspect } from '../src/core/inspect';
import { keyId, parseKeys, type RegistryEntry } from '../src/core/keys/keys';
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

/** An IntentWorkflow 2.0 whose tip is signed by `tip` over one parent signed by `parent` (each `from` its signer's DID). */
export function chainWorkflow(tip: FreshAgent, parent: FreshAgent): Uint8Array {
  const root = signedEnvelope(parent, { payload: 'pay 10 to alice', epoch: 1782668300 }, []);
  const top = signedEnvelope(tip, { payload: 'approved: pay 10 to alice', epoch: 1782668310 }, [root]);
  return utf8Encode(JSON.stringify({ id: 'QmRedTeamChain', type: 'intent_workflow', version: '2.0', info: {}, envelope: top }));
}

/** A bare AgentDNA envelope `from` someone else's DID, signed by `signer` (whose own DID it is not). */
export function forgedEnvelope(signer: FreshAgent, from: string): Uint8Array {
  return utf8Encode(JSON.stringify(signedEnvelope(signer, { from, payload: 'pay 9999 to mallory', epoch: 1782668320 }, [])));
}

/** A key file binding `agent`'s key to the DID `did` (report.md: a secp256k1 key entry whose agent is a DID). */
export const bindingKeyFile = (agent: FreshAgent, did: string) => JSON.stringify({ keys: [{ agent: did, public_key: toHex(agent.publicKey) }] });

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

// ---------- AGDX records signed on the spot ----------

ed.hashes.sha512 = sha512;

/** An Ed25519 key made on the spot (issue 23's red team): its seed comes from `label`. */
export const agdxSeed = (label: string) => sha256(utf8Encode(`envelope-inspector red team agdx: ${label}`));

/** A record id whose ULID time is `ms` (epoch milliseconds), the rest `n`. */
export function ulid(ms: number, n = 1): Uint8Array {
  const id = new Uint8Array(16);
  new DataView(id.buffer).setUint16(0, Math.floor(ms / 2 ** 32));
  new DataView(id.buffer).setUint32(2, ms % 2 ** 32);
  id[15] = n;
  return id;
}

/** `env` signed (Ed25519, scheme 1) by the key of `seed`, encoded canonically; `extra` unknown text fields appended after signing. */
export function signedAgdx(env: Envelope, seed: Uint8Array, extra: [string, string][] = []): Uint8Array {
  const unsigned: Envelope = { ...env, signature: { scheme: 1, key_id: fromHex(keyId(ed.getPublicKey(seed)))!, bytes: new Uint8Array(64) } };
  const bytes = encodeEnvelope({ ...unsigned, signature: { ...unsigned.signature!, bytes: ed.sign(signingInput(unsigned), seed) } });
  if (extra.length === 0) return bytes;
  // A map of fewer than 24 entries: its head is one byte; the extra entries go after the signed ones.
  if (bytes[0] < 0xa0 || bytes[0] + extra.length > 0xb7) throw new Error('signedAgdx: extra fields need a short map head');
  const w = new CborWriter();
  for (const [k, v] of extra) w.text(k).text(v);
  return concatBytes(new Uint8Array([bytes[0] + extra.length]), bytes.subarray(1), w.finish());
}

/** A report.md key file entry for the key of `seed`. */
export const agdxKeyEntry = (seed: Uint8Array, agent: string, members: Json = {}) => ({ agent, public_key: toHex(ed.getPublicKey(seed)), ...members });

/**
 * An Iggy ≥ 0.7 HTTP export of one message per payload, each with its log time (µs) as the
 * message's `timestamp`, and string user headers when given.
 */
export function iggyExport(messages: { payload: Uint8Array; timestampMicros: bigint; headers?: [string, string][] }[]): string {
  const b64 = (t: string) => toBase64(utf8Encode(t));
  const body = messages.map(
    (m, i) =>
      `{"header":{"checksum":0,"id":${i},"offset":${i},"timestamp":${m.timestampMicros},"origin_timestamp":${m.timestampMicros},"user_headers_length":0,"payload_length":${m.payload.length},"reserved":0},"payload":"${toBase64(m.payload)}","user_headers":${JSON.stringify(
        (m.headers ?? []).map(([k, v]) => ({ key: { kind: 'string', value: b64(k) }, value: { kind: 'string', value: b64(v) } })),
      )}}`,
  );
  return `{"partition_id":1,"current_offset":${messages.length},"count":${messages.length},"messages":[${body.join(',')}]}`;
}

/** Epoch microseconds of an ISO date. */
export const micros = (iso: string) => BigInt(Date.parse(iso)) * 1000n;

/**
 * The rewrap (issue 23): a command signed by a key registered for 2024 only, its record id made in
 * 2026; bare, and inside an Iggy export whose message timestamp (no signature covers it) says 2024.
 */
export function rewrapped() {
  const seed = agdxSeed('registered for 2024');
  const record = signedAgdx(
    {
      kind: 'event',
      record: ulid(Date.parse('2026-06-01T12:00:00Z')),
      conversation: ulid(Date.parse('2026-06-01T12:00:00Z'), 2),
      source: 'planner',
      body: utf8Encode('{}'),
    },
    seed,
  );
  const keyFile = JSON.stringify({
    keys: [
      agdxKeyEntry(seed, 'planner', { not_before_micros: String(micros('2024-01-01T00:00:00Z')), not_after_micros: String(micros('2024-12-31T23:59:59Z')) }),
    ],
  });
  return { seed, record, keyFile, export: iggyExport([{ payload: record, timestampMicros: micros('2024-06-01T00:00:00Z') }]) };
}

/** A quarantine of "booker" whose source claims "planner", signed by the operator key of "ops". */
export function borrowedQuarantine() {
  const seed = agdxSeed('operator ops');
  const record = signedAgdx(
    {
      kind: 'status',
      record: ulid(Date.parse('2026-06-01T12:00:00Z'), 3),
      conversation: ulid(Date.parse('2026-06-01T12:00:00Z'), 4),
      source: 'planner',
      operation: 'quarantine',
      body: utf8Encode('booker'),
    },
    seed,
  );
  return { record, keyFile: JSON.stringify({ keys: [agdxKeyEntry(seed, 'ops', { kind: 'operator' })] }) };
}

/** Control and bidi characters a record's strings may hold: ESC, BEL, C1 NEL, CSI, RLO, LRI … PDI, LRM. */
export const HOSTILE = '‮rennalp[31m⁦x⁩‎';

/**
 * Records made of control and bidi characters (HOSTILE) wherever a record holds a string: an AGDX
 * event (source, target, body, an unknown field's name and value) signed by a key registered for
 * "planner", in an Iggy export whose user header's name and value are HOSTILE too; and an AgentDNA
 * workflow whose payload, run_id and recipient are HOSTILE, signed by a fresh DID.
 */
export function hostileInputs() {
  const seed = agdxSeed('hostile');
  const t = Date.parse('2026-06-01T12:00:00Z');
  const record = signedAgdx(
    { kind: 'event', record: ulid(t, 9), conversation: ulid(t, 8), source: HOSTILE, target: HOSTILE, body: utf8Encode(HOSTILE) },
    seed,
    [[HOSTILE, HOSTILE]],
  );
  const agent = freshAgent('hostile');
  const tip = signedEnvelope(agent, { payload: HOSTILE, run_id: HOSTILE, to: HOSTILE, epoch: 1782668330 }, []);
  return {
    keyFile: JSON.stringify({ keys: [agdxKeyEntry(seed, 'planner')] }),
    export: iggyExport([{ payload: record, timestampMicros: BigInt(t) * 1000n, headers: [[HOSTILE, HOSTILE]] }]),
    record,
    workflow: utf8Encode(JSON.stringify({ id: 'QmHostile', type: 'intent_workflow', version: '2.0', info: {}, envelope: tip })),
  };
}

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
