// SHA-256 of a JavaScript string that is pure ASCII, straight from its code units.
//
// Why this exists: AgentDNA hashes every envelope's content JSON, which Python's json.dumps writes
// with ensure_ascii, so the text is ASCII by construction. A general hash first encodes the string
// to UTF-8 bytes and allocates per call; reading code units into one reused message schedule is
// about 3.5× faster here (bench/run.ts), and hashing 50,000 envelopes is most of a workflow load.
// Anything outside ASCII returns null: the caller hashes those bytes with @noble/hashes instead.

import { toHex } from './index';

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74,
  0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d,
  0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e,
  0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
  0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const IV = new Int32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
/** The digest's bytes, big-endian. */
const DIGEST = new Uint8Array(32);

// One schedule and one state, reused: the function is synchronous and never re-entered.
const W = new Int32Array(64);
const H = new Int32Array(8);

function compress(): void {
  for (let i = 16; i < 64; i++) {
    const w15 = W[i - 15];
    const w2 = W[i - 2];
    const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
    const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
    W[i] = (W[i - 16] + s0 + W[i - 7] + s1) | 0;
  }
  let a = H[0],
    b = H[1],
    c = H[2],
    d = H[3],
    e = H[4],
    f = H[5],
    g = H[6],
    h = H[7];
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K[i] + W[i]) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  H[0] = (H[0] + a) | 0;
  H[1] = (H[1] + b) | 0;
  H[2] = (H[2] + c) | 0;
  H[3] = (H[3] + d) | 0;
  H[4] = (H[4] + e) | 0;
  H[5] = (H[5] + f) | 0;
  H[6] = (H[6] + g) | 0;
  H[7] = (H[7] + h) | 0;
}

/** Lower-case hex SHA-256 of `text`'s bytes when every code unit is ASCII; null otherwise. */
export function sha256HexOfAscii(text: string): string | null {
  if (typeof text !== 'string') throw new TypeError('sha256HexOfAscii: expected a string');
  H.set(IV);
  const n = text.length;
  let i = 0;
  let seen = 0; // OR of every code unit read: above 0x7f means not ASCII
  while (i + 64 <= n) {
    for (let j = 0; j < 16; j++, i += 4) {
      const c0 = text.charCodeAt(i),
        c1 = text.charCodeAt(i + 1),
        c2 = text.charCodeAt(i + 2),
        c3 = text.charCodeAt(i + 3);
      seen |= c0 | c1 | c2 | c3;
      W[j] = (c0 << 24) | (c1 << 16) | (c2 << 8) | c3;
    }
    if (seen > 0x7f) return null;
    compress();
  }
  W.fill(0, 0, 16);
  const rest = n - i;
  for (let j = 0; j < rest; j++) {
    const c = text.charCodeAt(i + j);
    seen |= c;
    W[j >> 2] |= c << (24 - 8 * (j & 3));
  }
  if (seen > 0x7f) return null;
  W[rest >> 2] |= 0x80 << (24 - 8 * (rest & 3));
  if (rest >= 56) {
    compress();
    W.fill(0, 0, 16);
  }
  // The message length in bits, as a 64-bit big-endian number.
  W[14] = Math.floor(n / 0x20000000);
  W[15] = (n << 3) | 0;
  compress();
  for (let k = 0; k < 8; k++) {
    const v = H[k];
    DIGEST[4 * k] = v >>> 24;
    DIGEST[4 * k + 1] = v >>> 16;
    DIGEST[4 * k + 2] = v >>> 8;
    DIGEST[4 * k + 3] = v;
  }
  // toHex: one flat string (a retained hash made of appended pairs was a rope of ~1 KB).
  return toHex(DIGEST);
}
