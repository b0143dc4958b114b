// The content hash and the signed message (agentdna.md, "Content hash" and "Signed message").
import { sha256 } from '@noble/hashes/sha2.js';
import { toHex, utf8Encode } from '../bytes';
import { sha256HexOfAscii } from '../bytes/sha256-text';
import type { JsonValue } from '../json/lossless';
import { compareCodePoints, PyDict, pyString, pythonDumps } from './python-json';

export const DEFAULT_STATUS_CODE = 1000n;

/** The six content fields; undefined = absent from the envelope (then AgentDNA's default applies). */
export interface ContentFields {
  from: JsonValue | string | undefined;
  payload: JsonValue | string | undefined;
  epoch: JsonValue | bigint | undefined;
  status_code?: JsonValue | bigint | undefined;
  run_id?: JsonValue | string | undefined;
  to?: JsonValue | string | undefined;
}

/** SHA-256 of a string's UTF-8 bytes, lower-case hex (a lone surrogate is encoded as U+FFFD, as TextEncoder does). */
export type Sha256Text = (text: string) => string;

/** The host's own SHA-256 of text, once installed (installSha256Text); null: the pure one below. */
let hostSha256Hex: Sha256Text | null = null;

/**
 * Hashes text with the host's SHA-256 from now on (node:crypto in the command line: a native hash
 * of 50,000 content JSONs takes about 40% less time than the pure one), or with the pure one
 * (null). The page keeps the pure one: WebCrypto's digest is asynchronous and, for many small
 * texts, slower (bench/run.ts measured both). A test holds the two equal.
 */
export function installSha256Text(hasher: Sha256Text | null): void {
  if (hasher !== null && typeof hasher !== 'function') throw new TypeError('installSha256Text: expected a function or null');
  hostSha256Hex = hasher;
}

/** The pure SHA-256 of text: straight from the code units when ASCII, else @noble/hashes over the UTF-8. */
export function pureSha256Hex(text: string): string {
  // What AgentDNA hashes is json.dumps output, ASCII by construction: the fast path nearly always applies.
  return sha256HexOfAscii(text) ?? toHex(sha256(utf8Encode(text)));
}

export function sha256Hex(text: string): string {
  return hostSha256Hex !== null ? hostSha256Hex(text) : pureSha256Hex(text);
}

/** One value as json.dumps writes it; strings (the usual case) skip the general dumper. */
function dumpField(v: JsonValue | string | bigint): string {
  if (typeof v === 'string') return pyString(v);
  if (typeof v === 'bigint') return v.toString();
  if (v.type === 'string') return pyString(v.value);
  if (v.type === 'number' && v.isInteger && v.big !== null) return v.big.toString();
  return pythonDumps(v);
}

/**
 * The JSON AgentDNA hashes: `{"from_", "payload", "epoch", "status_code", "run_id", "to"}` with the
 * dataclass defaults for absent optional fields (status_code 1000, run_id "", to ""). Null when a
 * required field (from, payload, epoch) is absent: AgentDNA cannot build the envelope at all.
 */
export function contentJson(f: ContentFields): string | null {
  if (f.from === undefined || f.payload === undefined || f.epoch === undefined) return null;
  // The six keys, written in the order sort_keys puts them (code point order), so no dict is sorted.
  return (
    '{"epoch":' +
    dumpField(f.epoch) +
    ',"from_":' +
    dumpField(f.from) +
    ',"payload":' +
    dumpField(f.payload) +
    ',"run_id":' +
    dumpField(f.run_id ?? '') +
    ',"status_code":' +
    dumpField(f.status_code ?? DEFAULT_STATUS_CODE) +
    ',"to":' +
    dumpField(f.to ?? '') +
    '}'
  );
}

export function contentHash(f: ContentFields): string | null {
  const json = contentJson(f);
  return json === null ? null : sha256Hex(json);
}

export type SignedMessage = { ok: true; message: string; combinedJson: string | null; parents: string[] } | { ok: false; reason: string; parentIndex: number };

/**
 * The message the signer signed. No parents: the content hash itself. With parents:
 * sha256_hex(dumps({"content_hash": h, "parents": sorted(parent hashes)})). Parents enter only by
 * the hash they claim; one without a hash (empty, absent or not a string) makes the message impossible.
 */
export function signedMessage(contentHashHex: string, parentHashes: ReadonlyArray<unknown>): SignedMessage {
  if (parentHashes.length === 0) return { ok: true, message: contentHashHex, combinedJson: null, parents: [] };
  for (let i = 0; i < parentHashes.length; i++) {
    const h = parentHashes[i];
    if (typeof h !== 'string') {
      return { ok: false, reason: h === undefined ? `parent ${i} has no hash` : `parent ${i} has a hash that is not a string`, parentIndex: i };
    }
    if (h === '') return { ok: false, reason: `parent ${i} has an empty hash`, parentIndex: i };
  }
  const sorted = [...(parentHashes as string[])].sort(compareCodePoints);
  const combinedJson = pythonDumps(
    new PyDict([
      ['content_hash', contentHashHex],
      ['parents', sorted],
    ]),
  );
  return { ok: true, message: sha256Hex(combinedJson), combinedJson, parents: sorted };
}

/** The ECDSA input under each rule: the first 32 bytes of ASCII(msg), or sha256(ASCII(msg)). */
export function signedBytes(message: string, rule: 'truncate' | 'sha256'): Uint8Array {
  if (rule === 'sha256') return sha256(utf8Encode(message));
  // A message of hex (what AgentDNA signs): its first 32 units are its first 32 bytes, copied
  // without an encoder (a TextEncoder call costs more than the copy, once per check on each thread).
  if (message.length >= 32) {
    const e = new Uint8Array(32);
    let i = 0;
    for (; i < 32; i++) {
      const c = message.charCodeAt(i);
      if (c >= 0x80) break;
      e[i] = c;
    }
    if (i === 32) return e;
  }
  // The first 32 bytes come from the first 32 UTF-16 units at most (each is at least a byte); one
  // more keeps a surrogate pair at the edge whole.
  return utf8Encode(message.length > 33 ? message.slice(0, 33) : message).slice(0, 32);
}
