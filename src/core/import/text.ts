// Hex and base64 text of any input the importers read: the decoded bytes go through the whole list
// of importers again (hex of base64 of an envelope is two wrappers deep, the most that is tried).
// The wrapper keeps the input only when the decoded bytes hold something known.
import { fromBase64, fromHex } from '../bytes';
import { Source, type Importer, type Imported } from './importer';

/** How many wrappers deep decoding goes (hex of base64 of a record, and no further). */
const MAX_DEPTH = 2;

/** Text that may be hex: hex digits and whitespace, an optional 0x, an even count of digits. */
function asHex(text: string): Uint8Array | null {
  const t = text.trim();
  if (t.length < 2 || !/^(0[xX])?[0-9a-fA-F\s]+$/.test(t)) return null;
  return fromHex(t);
}

/** Text that may be base64 (standard or url-safe, with or without padding and line breaks). */
function asBase64(text: string): Uint8Array | null {
  const t = text.trim();
  if (t.length < 4 || !/^[A-Za-z0-9+/=_\-\s]+$/.test(t)) return null;
  return fromBase64(t);
}

function textWrapper(name: 'hex' | 'base64', decode: (text: string) => Uint8Array | null): Importer<Uint8Array> {
  return {
    format: name,
    detect(source: Source) {
      if (source.text === null || source.depth >= MAX_DEPTH) return null;
      const decoded = decode(source.text);
      return decoded && decoded.length > 0 ? decoded : null;
    },
    read(source, decoded, context): Imported | null {
      const inner = context.readInner(new Source({ input: source.place.input, view: decoded, viewOrigin: 'decoded-text' }, source.depth + 1));
      if (!inner.records.some((r) => r.verdict.format !== 'unknown')) return null;
      return { ...inner, format: `${name}(${inner.format})` };
    },
  };
}

export const hex = textWrapper('hex', asHex);
export const base64 = textWrapper('base64', asBase64);
