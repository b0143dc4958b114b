// RFC 8949 section 8 diagnostic notation, for showing CBOR bodies and unknown values as text.
import { toHex } from '../bytes';
import type { CborItem } from './reader';

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

/** Diagnostic notation; output is cut near `maxChars` with an ellipsis so hostile input stays cheap to show. */
export function toDiagnostic(item: CborItem, maxChars = 100_000): string {
  const out: string[] = [];
  let size = 0;
  const push = (s: string) => {
    out.push(s);
    size += s.length;
  };
  const walk = (it: CborItem): void => {
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
        walk(it.item);
        push(')');
        return;
      case 'array':
        push(ind ? '[_ ' : '[');
        it.items.forEach((x, i) => {
          if (i) push(', ');
          walk(x);
        });
        push(']');
        return;
      case 'map':
        push(ind ? '{_ ' : '{');
        it.entries.forEach((e, i) => {
          if (i) push(', ');
          walk(e.key);
          push(': ');
          walk(e.value);
        });
        push('}');
        return;
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
