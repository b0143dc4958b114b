// RFC 8949 section 8 diagnostic notation, for showing CBOR bodies and unknown values as text.
import { toHex } from '../bytes';
import { type CborItem, readSequence } from './reader';

function formatFloat(value: number, width: number): string {
  let text: string;
  if (Number.isNaN(value)) text = 'NaN';
  else if (value === Infinity) text = 'Infinity';
  else if (value === -Infinity) text = '-Infinity';
  else if (Object.is(value, -0)) text = '-0.0';
  else {
    text = String(value);
    if (!/[.eE]/.test(text)) text += '.0';
  }
  return width === 64 ? text : `${text}_${width === 16 ? 1 : 2}`;
}

const SIMPLE_NAMES: Record<number, string> = { 20: 'false', 21: 'true', 22: 'null', 23: 'undefined' };

/**
 * Diagnostic notation; output is cut near `maxChars` with an ellipsis so hostile input stays cheap to
 * show. `indent`: each map entry, and each item of an array that holds arrays or maps, on a line of
 * its own, indented by that many spaces a level (the detail's view beside the hex); 0: one line.
 */
export function toDiagnostic(item: CborItem, maxChars = 100_000, indent = 0): string {
  const out: string[] = [];
  let size = 0;
  const push = (s: string) => {
    out.push(s);
    size += s.length;
  };
  /** The separator before element `i` of a container at `depth` written on lines of their own, and its closing line. */
  const lineAt = (depth: number) => `\n${' '.repeat(indent * depth)}`;
  const walk = (it: CborItem, depth = 0): void => {
    if (size > maxChars) return;
    const ind = it.indefinite ?? false;
    switch (it.kind) {
      case 'uint':
      case 'nint':
        push(String(it.value));
        return;
      case 'float':
        push(formatFloat(it.value, it.width));
        return;
      case 'simple':
        push(SIMPLE_NAMES[it.value] ?? `simple(${it.value})`);
        return;
      case 'bytes':
        push(`${ind ? '(_ ' : ''}h'${toHex(it.value.length > maxChars ? it.value.subarray(0, maxChars) : it.value)}'${ind ? ')' : ''}`);
        return;
      case 'text':
        push(`${ind ? '(_ ' : ''}${JSON.stringify(it.value)}${ind ? ')' : ''}`);
        return;
      case 'tag':
        push(`${it.tag}(`);
        walk(it.item, depth);
        push(')');
        return;
      case 'array': {
        const lines = indent > 0 && it.items.some((x) => x.kind === 'array' || x.kind === 'map');
        push(ind ? '[_ ' : '[');
        it.items.forEach((x, i) => {
          if (lines) push(`${i ? ',' : ''}${lineAt(depth + 1)}`);
          else if (i) push(', ');
          walk(x, depth + 1);
        });
        if (lines) push(lineAt(depth));
        push(']');
        return;
      }
      case 'map': {
        const lines = indent > 0 && it.entries.length > 0;
        push(ind ? '{_ ' : '{');
        it.entries.forEach((e, i) => {
          if (lines) push(`${i ? ',' : ''}${lineAt(depth + 1)}`);
          else if (i) push(', ');
          walk(e.key, depth + 1);
          push(': ');
          walk(e.value, depth + 1);
        });
        if (lines) push(lineAt(depth));
        push('}');
        return;
      }
    }
  };
  walk(item);
  const text = out.join('');
  return size > maxChars ? text.slice(0, maxChars) + '…' : text;
}

declare module './reader' {
  interface CborUint {
    indefinite?: undefined;
  }
  interface CborNint {
    indefinite?: undefined;
  }
  interface CborTag {
    indefinite?: undefined;
  }
  interface CborSimple {
    indefinite?: undefined;
  }
  interface CborFloat {
    indefinite?: undefined;
  }
}

/**
 * The record's bytes as the detail's diagnostic view shows them: each CBOR item on lines of its own
 * (a sequence's items separated by commas, as RFC 8742 writes them), or null when the bytes are not
 * CBOR from their start (a JSON record, an unreadable input); where a sequence stops reading is said.
 */
export function diagnosticView(bytes: Uint8Array, maxChars = 200_000): string | null {
  if (!(bytes instanceof Uint8Array)) throw new TypeError('diagnosticView: bytes must be a Uint8Array');
  const { items, error } = readSequence(bytes);
  if (items.length === 0) return null;
  let out = '';
  for (const [i, item] of items.entries()) {
    if (out.length > maxChars) return `${out}\n… (cut at ${maxChars} characters)`;
    out += `${i ? ',\n' : ''}${toDiagnostic(item, maxChars, 2)}`;
  }
  // A comment to the end of the line: the view pasted back reads as the items before it.
  return error ? `${out}\n# then ${error.code} at byte ${error.offset}: ${error.message.replace(/\n/g, ' ')}` : out;
}
