// Hex, base64 and CBOR diagnostic notation of any input the importers read: the decoded bytes go
// through the whole list of importers again (hex of base64 of an envelope is two wrappers deep, the
// most that is tried). The wrapper keeps the input only when the decoded bytes hold something known.
// Text none of them reads is refused with where the reading that got furthest stopped (textRefusal).
import { fromBase64, fromHex, textPlace } from '../bytes';
import { parseDiagnostic } from '../cbor/diagnostic-parse';
import { readSequence } from '../cbor/reader';
import { Source, type Importer, type Imported } from './importer';

/** How many wrappers deep decoding goes (hex of base64 of a record, and no further). */
const MAX_DEPTH = 2;

/** Hex bytes each written 0xNN or \xNN, separated by commas or white space (a C array, an escaped string). */
const PREFIXED_HEX = /^(?:(?:0[xX]|\\x)[0-9a-fA-F]{2}[\s,;]*)+$/;
/** Hex bytes separated by colons (a hex dump's "a5:64:6b"). */
const COLON_HEX = /^[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2})+$/;

/**
 * Text that may be hex: hex digits and white space with an optional 0x (an even count of digits),
 * bytes separated by colons, or bytes each written 0xNN or \xNN.
 */
function asHex(text: string): Uint8Array | null {
  const t = text.trim();
  if (t.length < 2) return null;
  if (PREFIXED_HEX.test(t)) return fromHex(t.replace(/0[xX]|\\x|[\s,;]/g, ''));
  const squeezed = t.replace(/\s+/g, '');
  if (COLON_HEX.test(squeezed)) return fromHex(squeezed.replace(/:/g, ''));
  if (!/^(0[xX])?[0-9a-fA-F\s]+$/.test(t)) return null;
  return fromHex(t);
}

/** Text that may be base64 (standard or url-safe, with or without padding and line breaks). */
function asBase64(text: string): Uint8Array | null {
  const t = text.trim();
  if (t.length < 4 || !/^[A-Za-z0-9+/=_\-\s]+$/.test(t)) return null;
  return fromBase64(t);
}

/**
 * Text that is CBOR diagnostic notation (but not JSON, which the JSON importers read: JSON is
 * diagnostic notation too, and an envelope's JSON view means something else).
 */
function asDiagnostic(text: string, source: Source): Uint8Array | null {
  if (source.json?.ok) return null;
  const r = parseDiagnostic(text);
  return r.ok ? r.bytes : null;
}

function textWrapper(name: 'hex' | 'base64' | 'diag', decode: (text: string, source: Source) => Uint8Array | null): Importer<Uint8Array> {
  return {
    format: name,
    detect(source: Source) {
      if (source.text === null || source.depth >= MAX_DEPTH) return null;
      const decoded = decode(source.text, source);
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
/** Diagnostic notation (RFC 8949 section 8), as cbor.me and the CBOR playgrounds write it. */
export const diagnostic = textWrapper('diag', asDiagnostic);

/** Where reading `text` as hex stops: the first character that is no hex digit, or null when it all is. */
function hexStop(text: string): { at: number; message: string } | null {
  const lead = text.length - text.trimStart().length;
  const t = text.trimStart();
  const start = /^0[xX]/.test(t) ? 2 : 0;
  for (let i = start; i < t.length; i++) {
    const c = t[i];
    if (!/[0-9a-fA-F\s]/.test(c)) return { at: lead + i, message: `'${String.fromCodePoint(t.codePointAt(i)!)}' is not a hex digit` };
  }
  return null;
}

/** The text index of the hex digit that begins decoded byte `offset` of hex text, or null. */
function hexDigitOf(text: string, offset: number): number | null {
  let digits = 0;
  for (let i = /^\s*0[xX]/.exec(text)?.[0].length ?? 0; i < text.length; i++) {
    const c = text[i];
    // A byte written 0xNN or \xNN: its prefix is no digit.
    if ((c === '0' && (text[i + 1] === 'x' || text[i + 1] === 'X')) || (c === '\\' && text[i + 1] === 'x')) {
      i++;
      continue;
    }
    if (!/[0-9a-fA-F]/.test(c)) continue;
    if (digits === 2 * offset) return i;
    digits++;
  }
  return null;
}

/** What CBOR makes of bytes that hold no record: where it fails in them, or that no item is a map. */
function notRecords(bytes: Uint8Array): { message: string; at: number } {
  const { items, error } = readSequence(bytes);
  if (error) return { message: `CBOR fails with ${error.code} at byte ${error.offset} of them: ${error.message}`, at: error.offset };
  return { message: `they read as ${items.length} CBOR item${items.length === 1 ? '' : 's'}, none a map (as AGDX records are)`, at: 0 };
}

/**
 * Why text is none of what the text importers read. Hex that decodes is hex: what its bytes are
 * not, at the digits of the byte CBOR stops at. Otherwise the reading that got furthest: as
 * diagnostic notation, or as hex, where it stops (the byte of the text, its line and column). Null
 * when none got past the first character (prose, say): the plain refusal says enough.
 */
export function textRefusal(text: string): { message: string; offset: number } | null {
  const decoded = asHex(text);
  if (decoded && decoded.length > 0) {
    const why = notRecords(decoded);
    const digit = hexDigitOf(text, why.at);
    const { offset, line, column } = textPlace(text, digit ?? 0);
    return {
      offset,
      message: `it is hex of ${decoded.length} byte${decoded.length === 1 ? '' : 's'}, but no record: ${why.message} (line ${line}, column ${column} of the text)`,
    };
  }
  const diag = parseDiagnostic(text);
  const hexAt = hexStop(text);
  const candidates: { offset: number; message: string }[] = [];
  if (!diag.ok)
    candidates.push({
      offset: diag.error.offset,
      message: `read as CBOR diagnostic notation, it stops at line ${diag.error.line}, column ${diag.error.column}: ${diag.error.message}`,
    });
  if (hexAt) {
    const { offset, line, column } = textPlace(text, hexAt.at);
    candidates.push({ offset, message: `read as hex, it stops at line ${line}, column ${column}: ${hexAt.message}` });
  }
  const best = candidates.reduce<{ offset: number; message: string } | null>((a, b) => (a === null || b.offset > a.offset ? b : a), null);
  return best && best.offset > 0 ? best : null;
}
