// Apache Iggy user headers as they carry an AGDX record: the binary block (≥ 0.7 with key kinds,
// ≤ 0.6 without), the HTTP JSON shapes, and the laser record's named kinds, all read into one
// header list that the envelope is checked against.
import type { Span } from '../bytes';
import { fromBase64, readUintLE, toCrockford, toHex, utf8OrNull } from '../bytes';
import type { HeaderView } from '../model';

/** Iggy header kinds by number; names as Iggy's JSON writes them. */
export const HEADER_KINDS: Record<number, string> = {
  1: 'raw',
  2: 'string',
  3: 'bool',
  4: 'int8',
  5: 'int16',
  6: 'int32',
  7: 'int64',
  8: 'int128',
  9: 'uint8',
  10: 'uint16',
  11: 'uint32',
  12: 'uint64',
  13: 'uint128',
  14: 'float32',
  15: 'float64',
};

const KIND_ALIASES: Record<string, string> = {
  u8: 'uint8',
  u16: 'uint16',
  u32: 'uint32',
  u64: 'uint64',
  u128: 'uint128',
  i8: 'int8',
  i16: 'int16',
  i32: 'int32',
  i64: 'int64',
  i128: 'int128',
  f32: 'float32',
  f64: 'float64',
  str: 'string',
};

/** A kind name in its long form (`u32` → `uint32`), whatever the writer called it. */
export function normaliseKind(kind: string | number): string {
  if (typeof kind === 'number') return HEADER_KINDS[kind] ?? `unrecognized-${kind}`;
  const lower = kind.toLowerCase();
  return KIND_ALIASES[lower] ?? lower;
}

export interface Header {
  name: string;
  kind: string;
  value: Uint8Array;
  /** Bytes of the value, when the header came from bytes the record's spans index. */
  span: Span | null;
}

const WIDTHS: Record<string, number> = {
  bool: 1,
  int8: 1,
  int16: 2,
  int32: 4,
  int64: 8,
  int128: 16,
  uint8: 1,
  uint16: 2,
  uint32: 4,
  uint64: 8,
  uint128: 16,
  float32: 4,
  float64: 8,
};

/** A header's value as a number (unsigned kinds, little-endian), or null when it is not one. */
export function headerUint(h: Header): bigint | null {
  if (!h.kind.startsWith('uint') || WIDTHS[h.kind] !== h.value.length) return null;
  return readUintLE(h.value);
}

export function headerString(h: Header): string | null {
  return h.kind === 'string' ? utf8OrNull(h.value) : null;
}

/** The value as a person reads it, by kind. */
export function displayHeader(h: Header): string {
  const width = WIDTHS[h.kind];
  if (width !== undefined && width !== h.value.length) return `${toHex(h.value)} (${h.value.length} bytes; ${h.kind} is ${width})`;
  switch (h.kind) {
    case 'string':
      return utf8OrNull(h.value) ?? `${toHex(h.value)} (not UTF-8)`;
    case 'bool':
      return h.value[0] === 0 ? 'false' : 'true';
    case 'float32':
      return String(new DataView(h.value.buffer, h.value.byteOffset, 4).getFloat32(0, true));
    case 'float64':
      return String(new DataView(h.value.buffer, h.value.byteOffset, 8).getFloat64(0, true));
    case 'raw':
      return toHex(h.value);
  }
  if (h.kind.startsWith('uint') || h.kind.startsWith('int')) {
    let n = readUintLE(h.value);
    if (h.kind.startsWith('int') && width && n >= 1n << BigInt(width * 8 - 1)) n -= 1n << BigInt(width * 8);
    if (h.kind === 'uint128' && h.name === 'gen_ai.conversation.id') {
      // The header is little-endian; the envelope id is big-endian: show it as the id it names.
      const be = new Uint8Array(16);
      for (let i = 0; i < 16; i++) be[i] = h.value[15 - i];
      return `${toCrockford(be)} (u128 little-endian ${n})`;
    }
    return n.toString();
  }
  return toHex(h.value);
}

export function headerViews(headers: Header[]): HeaderView[] {
  return headers.map((h) => ({ name: h.name, kind: h.kind, display: displayHeader(h), hex: toHex(h.value), span: h.span }));
}

export interface HeaderBlock {
  headers: Header[];
  /** Offset just past the block. */
  end: number;
  era: '>=0.7' | '<=0.6';
}

/**
 * Reads a binary user-header block at the start of `bytes`, stopping at the first entry that does
 * not fit: the rest is the payload. Returns null unless at least one whole entry reads cleanly.
 */
export function readHeaderBlock(bytes: Uint8Array, era: '>=0.7' | '<=0.6', stopAt: (offset: number) => boolean): HeaderBlock | null {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headers: Header[] = [];
  let p = 0;
  while (p < bytes.length) {
    if (headers.length > 0 && stopAt(p)) break;
    const entryStart = p;
    if (era === '>=0.7') {
      if (bytes[p] !== 2) break; // keys are strings
      p += 1;
    }
    if (p + 4 > bytes.length) return headers.length ? { headers, end: entryStart, era } : null;
    const keyLen = dv.getUint32(p, true);
    p += 4;
    if (keyLen === 0 || keyLen > 255 || p + keyLen > bytes.length) {
      p = entryStart;
      break;
    }
    const name = utf8OrNull(bytes.subarray(p, p + keyLen));
    if (name === null || !/^[\x21-\x7e]+$/.test(name)) {
      p = entryStart;
      break;
    }
    p += keyLen;
    if (p + 5 > bytes.length) {
      p = entryStart;
      break;
    }
    const kind = bytes[p];
    const valueLen = dv.getUint32(p + 1, true);
    p += 5;
    if (!HEADER_KINDS[kind] || valueLen > bytes.length - p || (WIDTHS[HEADER_KINDS[kind]] ?? valueLen) !== valueLen) {
      p = entryStart;
      break;
    }
    headers.push({ name, kind: HEADER_KINDS[kind], value: bytes.subarray(p, p + valueLen), span: [p, p + valueLen] });
    p += valueLen;
  }
  return headers.length ? { headers, end: p, era } : null;
}

/** Headers from Iggy's HTTP JSON: `[{key:{kind,value},value:{kind,value}}]` (≥ 0.7) or `{name:{kind,value}}` (≤ 0.6). */
export function headersFromJson(json: unknown): { headers: Header[]; problems: string[] } {
  const headers: Header[] = [];
  const problems: string[] = [];
  const headerValue = (v: unknown, where: string): { kind: string; value: Uint8Array } | null => {
    if (!v || typeof v !== 'object') {
      problems.push(`${where}: not a {kind, value} object`);
      return null;
    }
    const o = v as { kind?: unknown; value?: unknown };
    if ((typeof o.kind !== 'string' && typeof o.kind !== 'number') || typeof o.value !== 'string') {
      problems.push(`${where}: kind or value missing`);
      return null;
    }
    const bytes = fromBase64(o.value);
    if (!bytes) {
      problems.push(`${where}: value is not base64`);
      return null;
    }
    return { kind: normaliseKind(o.kind), value: bytes };
  };
  if (Array.isArray(json)) {
    json.forEach((entry, i) => {
      const key = headerValue((entry as { key?: unknown })?.key, `user_headers[${i}].key`);
      const value = headerValue((entry as { value?: unknown })?.value, `user_headers[${i}].value`);
      if (!key || !value) return;
      const name = utf8OrNull(key.value);
      if (name === null) problems.push(`user_headers[${i}].key is not UTF-8`);
      else headers.push({ name, kind: value.kind, value: value.value, span: null });
    });
  } else if (json && typeof json === 'object') {
    for (const [name, v] of Object.entries(json)) {
      const value = headerValue(v, `headers.${name}`);
      if (value) headers.push({ name, kind: value.kind, value: value.value, span: null });
    }
  } else if (json !== null && json !== undefined) problems.push('user headers are neither a list nor an object');
  return { headers, problems };
}
