// Typed readers over CBOR items with the Rust reference's leniency: tags are skipped, explicit
// null means absent, non-minimal heads and indefinite lengths are accepted. A JSON view renders a
// byte string as an array of small integers; `jsonView` lets those stand for byte strings.
import type { CborItem } from '../cbor/reader';
import { untag } from '../cbor/reader';
import type { Span } from '../bytes';
import type { DecodeErrorCode } from '../rules';

export class FieldError {
  constructor(
    readonly code: DecodeErrorCode,
    readonly message: string,
    readonly offset: number,
    readonly span?: Span,
  ) {}
}

export function fieldError(code: DecodeErrorCode, message: string, offset: number, span?: Span): never {
  throw new FieldError(code, message, offset, span);
}

/**
 * The bytes of a map's head (from its first byte to its first key; all of an empty map): where a
 * finding about the map as a whole points. Tags before the map are left out.
 */
export function mapHead(item: CborItem): Span {
  const m = untag(item);
  if (m.kind !== 'map') return [m.start, m.end];
  if (m.entries.length > 0) return [m.start, m.entries[0].key.start];
  return [m.start, m.indefinite ? m.start + 1 : m.end];
}

export function describeItem(item: CborItem): string {
  const it = untag(item);
  switch (it.kind) {
    case 'uint':
    case 'nint':
      return 'an integer';
    case 'bytes':
      return `a byte string of ${it.value.length} bytes`;
    case 'text':
      return 'a text string';
    case 'array':
      return `an array of ${it.items.length}`;
    case 'map':
      return `a map of ${it.entries.length}`;
    case 'float':
      return 'a float';
    case 'simple':
      return it.value === 20 || it.value === 21 ? 'a bool' : it.value === 22 ? 'null' : `simple(${it.value})`;
    default:
      return 'a tag';
  }
}

export interface ReadContext {
  jsonView: boolean;
}

/** A lone UTF-16 surrogate: possible in a JSON view's \uD800 escape, impossible in a Rust String. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function readText(item: CborItem, field: string): string {
  const it = untag(item);
  if (it.kind !== 'text') fieldError('agdx/field-type', `${field} must be a text string, found ${describeItem(it)}`, item.start);
  if (LONE_SURROGATE.test(it.value))
    fieldError('agdx/field-type', `${field} holds a lone surrogate: not Unicode text (the reference cannot read it)`, item.start);
  return it.value;
}

export function readBytes(item: CborItem, field: string, ctx: ReadContext, length?: number): Uint8Array {
  const it = untag(item);
  let value: Uint8Array;
  if (it.kind === 'bytes') value = it.value;
  else if (ctx.jsonView && it.kind === 'array') {
    value = new Uint8Array(it.items.length);
    it.items.forEach((x, i) => {
      const v = untag(x);
      if (v.kind !== 'uint' || typeof v.value !== 'number' || v.value > 255) {
        fieldError('agdx/field-type', `${field}[${i}] must be a byte (0..255)`, x.start);
      }
      value[i] = v.value as number;
    });
  } else fieldError('agdx/field-type', `${field} must be a byte string, found ${describeItem(it)}`, item.start);
  if (length !== undefined && value.length !== length) {
    fieldError('agdx/field-type', `${field} must be ${length} bytes, found ${value.length}`, item.start);
  }
  return value;
}

/**
 * The integer a bignum encodes (tag 2 or 3 around a byte string, RFC 8949 3.4.3), or null when the
 * item, under any other tags, is not one. The Rust reference reads integers with ciborium, which
 * takes a bignum wherever it wants an integer (and skips every other tag): so a bignum is that
 * integer here too. Tag 2 or 3 around anything but a byte string, or more than 16 significant
 * bytes, fails as it does there.
 */
export function readBignum(item: CborItem, field: string): bigint | null {
  let it = item;
  while (it.kind === 'tag' && it.tag !== 2 && it.tag !== 3) it = it.item;
  if (it.kind !== 'tag') return null;
  const content = it.item;
  if (content.kind !== 'bytes')
    fieldError('agdx/field-type', `${field} is a bignum (tag ${it.tag}) around ${describeItem(content)}, where a byte string belongs`, item.start);
  const bytes = content.value;
  let i = 0;
  while (i < bytes.length && bytes[i] === 0) i++;
  if (bytes.length - i > 16) fieldError('agdx/field-type', `${field} is a bignum of ${bytes.length - i} bytes, more than 16`, item.start);
  let v = 0n;
  for (; i < bytes.length; i++) v = (v << 8n) | BigInt(bytes[i]);
  return it.tag === 2 ? v : -1n - v;
}

/** A bigint as the reader gives integers: a number when it is safe, else a bigint. */
const asRead = (v: bigint): number | bigint => (v > -(2n ** 53n) && v < 2n ** 53n ? Number(v) : v);

/** An unsigned integer no larger than `max` (2^64 - 1 by default), written plainly or as a bignum. */
export function readUint(item: CborItem, field: string, max: bigint = 0xffffffffffffffffn): number | bigint {
  const big = readBignum(item, field);
  if (big !== null) {
    if (big < 0n) fieldError('agdx/field-type', `${field} must be an unsigned integer, found a negative bignum`, item.start);
    if (big > max) fieldError('agdx/field-type', `${field} ${big} is larger than ${max}`, item.start);
    return asRead(big);
  }
  const it = untag(item);
  if (it.kind !== 'uint') fieldError('agdx/field-type', `${field} must be an unsigned integer, found ${describeItem(it)}`, item.start);
  if (BigInt(it.value) > max) fieldError('agdx/field-type', `${field} ${it.value} is larger than ${max}`, item.start);
  return it.value;
}

export function readSmallUint(item: CborItem, field: string, max: number): number {
  return Number(readUint(item, field, BigInt(max)));
}

export function readBool(item: CborItem, field: string): boolean {
  const it = untag(item);
  if (it.kind !== 'simple' || (it.value !== 20 && it.value !== 21)) {
    fieldError('agdx/field-type', `${field} must be a bool, found ${describeItem(it)}`, item.start);
  }
  return it.value === 21;
}

export interface MapField {
  name: string;
  key: CborItem;
  value: CborItem;
}

/**
 * The entries of a struct-like map, keyed by text. Duplicate keys fail (as in the reference);
 * entries whose value is null are dropped (explicit null = absent); non-text keys are returned apart.
 */
export function structEntries(item: CborItem, what: string): { fields: Map<string, MapField>; others: MapField[] } {
  const it = untag(item);
  if (it.kind !== 'map') fieldError('agdx/not-a-map', `${what} must be a map, found ${describeItem(it)}`, item.start);
  const fields = new Map<string, MapField>();
  const others: MapField[] = [];
  for (const e of it.entries) {
    const k = untag(e.key);
    if (k.kind !== 'text') {
      others.push({ name: `(${describeItem(k)})`, key: e.key, value: e.value });
      continue;
    }
    if (fields.has(k.value)) fieldError('agdx/duplicate-field', `duplicate field ${JSON.stringify(k.value)} in ${what}`, e.key.start);
    fields.set(k.value, { name: k.value, key: e.key, value: e.value });
  }
  return { fields, others };
}
