// The JSON view of an envelope, read as CBOR items so one decoder serves both. Spans stay in the
// JSON text; integers stay integers (with big values kept), anything with a fraction or exponent
// is a float.
import type { CborItem } from '../cbor/reader';
import type { JsonValue } from './lossless';

export function jsonToCborItem(v: JsonValue): CborItem {
  const base = { start: v.start, end: v.end, minimal: true };
  switch (v.type) {
    case 'object':
      return {
        ...base,
        kind: 'map',
        indefinite: false,
        entries: v.entries.map((e) => ({
          key: { kind: 'text', value: e.key, indefinite: false, contentStart: e.keyStart + 1, start: e.keyStart, end: e.keyEnd, minimal: true },
          value: jsonToCborItem(e.value),
        })),
      };
    case 'array':
      return { ...base, kind: 'array', indefinite: false, items: v.items.map(jsonToCborItem) };
    case 'string':
      return { ...base, kind: 'text', value: v.value, indefinite: false, contentStart: v.start + 1 };
    case 'number': {
      if (!v.isInteger || v.big === null) return { ...base, kind: 'float', value: v.value, width: 64 };
      const n = v.big;
      const small = n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER);
      return n >= 0n ? { ...base, kind: 'uint', value: small ? Number(n) : n } : { ...base, kind: 'nint', value: small ? Number(n) : n };
    }
    case 'bool':
      return { ...base, kind: 'simple', value: v.value ? 21 : 20 };
    case 'null':
      return { ...base, kind: 'simple', value: 22 };
  }
}
