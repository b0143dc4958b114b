// Permalinks and bundles: the inputs and the view, in a URL fragment (never sent to a server) or a
// file. Versioned, checksummed and compressed: a damaged, truncated or newer link is a clear
// error, never a blank page. Keys are never part of it.
//
// Layout: `v1.` + base64url( sha256(payload)[0..8] ‖ deflate-raw(payload) ), payload = CBOR
// { v: 1, inputs: [{ name, bytes }], redacted, view: { selected, tab, viewport, filters, compare? } }.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesEqual, concatBytes, fromBase64, joinBytes, toBase64, utf8Encode } from '../bytes';
import { CborWriter } from '../cbor/encoder';
import type { CborItem } from '../cbor/reader';
import { readSingle, untag } from '../cbor/reader';

export const PERMALINK_VERSION = 1;
/** Past this many characters a link is awkward in chat and mail: offer a bundle file instead. */
export const LINK_SOFT_LIMIT = 8_000;
/**
 * The most bytes a link or bundle may decompress to: a link of a few KiB must not expand into
 * gigabytes of records. 8 MiB holds far more than a link is for (a conversation or a log excerpt);
 * past it, load the files themselves.
 */
export const MAX_INFLATED = 8 * 1024 * 1024;
const MAX_INFLATED_TEXT = `${MAX_INFLATED / 1024 / 1024} MiB`;
/**
 * Compressed bytes handed to the decompressor at a time. Deflate expands at most about 1032:1, so
 * the output of one slice is at most ~1 MiB: decompression stops within that of the limit, however
 * the engine batches its output.
 */
const INFLATE_SLICE = 1024;
const BUNDLE_MAGIC = utf8Encode('EIBUNDLE');

export interface SharedInput {
  name: string;
  bytes: Uint8Array;
}

/** A record of a link, by its input's place in the link and its index within it. */
export interface RecordPlace {
  input: number;
  index: number;
}

/** What a comparison compares: the two records, or the conversations or inputs they belong to. */
export const COMPARE_SCOPES = ['records', 'conversations', 'inputs'] as const;
export type CompareScope = (typeof COMPARE_SCOPES)[number];

export interface ViewState {
  /** The selected record, by input number and index within it. */
  selected: RecordPlace | null;
  tab: string;
  viewport: { x: number; y: number; zoom: number } | null;
  filters: Record<string, string>;
  /** The compared pair (records A and B, and whether the records, their conversations or their inputs are compared); absent in older links. */
  compare?: { a: RecordPlace; b: RecordPlace; scope: CompareScope } | null;
}

export interface ShareState {
  inputs: SharedInput[];
  /** Bodies were blanked before sharing: signatures cannot be re-checked. */
  redacted: boolean;
  view: ViewState;
}

export type ShareErrorCode = 'permalink/not-a-link' | 'permalink/newer-version' | 'permalink/damaged' | 'permalink/too-large';

export interface ShareError {
  code: ShareErrorCode;
  message: string;
}

export type ShareResult = { ok: true; state: ShareState } | { ok: false; error: ShareError };

// ---------- payload (CBOR) ----------

/** Any plain value as CBOR, the way a link's payload is written (undefined members left out). */
export function writeValue(w: CborWriter, v: unknown): void {
  if (v === null || v === undefined) w.null();
  else if (typeof v === 'boolean') w.bool(v);
  else if (typeof v === 'number') Number.isInteger(v) ? w.int(v) : w.float(v);
  else if (typeof v === 'string') w.text(v);
  else if (v instanceof Uint8Array) w.bytes(v);
  else if (Array.isArray(v)) {
    w.head(4, v.length);
    for (const x of v) writeValue(w, x);
  } else if (typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
    w.head(5, entries.length);
    for (const [k, x] of entries) {
      w.text(k);
      writeValue(w, x);
    }
  } else throw new TypeError(`cannot share a ${typeof v}`);
}

function encodePayload(state: ShareState): Uint8Array {
  const w = new CborWriter();
  writeValue(w, {
    v: PERMALINK_VERSION,
    inputs: state.inputs.map((i) => ({ name: i.name, bytes: i.bytes })),
    redacted: state.redacted,
    view: state.view,
  });
  return w.finish();
}

class ShapeError extends Error {}

function plain(item: CborItem): unknown {
  const it = untag(item);
  switch (it.kind) {
    case 'uint':
    case 'nint':
      // Beyond 2^53 a number would round: keep the bigint, which no field accepts (never a changed value).
      return it.value;
    case 'float':
      return it.value;
    case 'bytes':
      return it.value;
    case 'text':
      return it.value;
    case 'simple':
      return it.value === 21 ? true : it.value === 20 ? false : null;
    case 'array':
      return it.items.map(plain);
    case 'map': {
      // A null-prototype object: keys such as __proto__ stay plain data.
      const out: Record<string, unknown> = Object.create(null);
      for (const e of it.entries) {
        const k = untag(e.key);
        if (k.kind !== 'text') throw new ShapeError('a map key is not text');
        // A repeated key would silently replace the first value: we never write one.
        if (Object.hasOwn(out, k.value)) throw new ShapeError(`the key ${JSON.stringify(k.value)} is repeated`);
        out[k.value] = plain(e.value);
      }
      return out;
    }
    default:
      throw new ShapeError('unexpected item');
  }
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);
const num = (v: unknown, what: string): number => {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new ShapeError(`${what} is not a number`);
  return v;
};
/** A position in a list: a non-negative safe integer (a negative, fractional or huge one selects nothing real). */
const position = (v: unknown, what: string): number => {
  const n = num(v, what);
  if (!Number.isSafeInteger(n) || n < 0) throw new ShapeError(`${what} is not a position`);
  return n;
};
const zoom = (v: unknown): number => {
  const n = num(v, 'viewport.zoom');
  if (!(n > 0)) throw new ShapeError('viewport.zoom is not positive');
  return n;
};

function readState(root: unknown): ShareState {
  if (!isObj(root)) throw new ShapeError('the payload is not a map');
  if (root.v !== PERMALINK_VERSION) throw new ShapeError(`payload version ${String(root.v)}`);
  if (!Array.isArray(root.inputs)) throw new ShapeError('inputs is not a list');
  const inputs = root.inputs.map((i, n) => {
    if (!isObj(i) || typeof i.name !== 'string' || !(i.bytes instanceof Uint8Array)) throw new ShapeError(`input ${n} is not {name, bytes}`);
    return { name: i.name, bytes: i.bytes };
  });
  const view = isObj(root.view) ? root.view : {};
  const sel = view.selected;
  const cmp = view.compare;
  const place = (v: unknown, what: string): RecordPlace => {
    if (!isObj(v)) throw new ShapeError(`${what} is not a record's place`);
    return { input: position(v.input, `${what}.input`), index: position(v.index, `${what}.index`) };
  };
  const vp = view.viewport;
  const filters: Record<string, string> = {};
  // defineProperty, not assignment: `filters.__proto__ = v` would set the prototype (a string: ignored) and drop the filter.
  if (isObj(view.filters))
    for (const [k, v] of Object.entries(view.filters))
      if (typeof v === 'string') Object.defineProperty(filters, k, { value: v, enumerable: true, writable: true, configurable: true });
  return {
    inputs,
    redacted: root.redacted === true,
    view: {
      selected: isObj(sel) ? { input: position(sel.input, 'selected.input'), index: position(sel.index, 'selected.index') } : null,
      tab: typeof view.tab === 'string' ? view.tab : 'records',
      viewport: isObj(vp) ? { x: num(vp.x, 'viewport.x'), y: num(vp.y, 'viewport.y'), zoom: zoom(vp.zoom) } : null,
      filters,
      // Only a link that compares has it (older links never do). A scope this version does not
      // know (a newer link's) compares nothing rather than failing the link.
      ...(isObj(cmp) && (COMPARE_SCOPES as readonly unknown[]).includes(cmp.scope)
        ? { compare: { a: place(cmp.a, 'compare.a'), b: place(cmp.b, 'compare.b'), scope: cmp.scope as CompareScope } }
        : {}),
    },
  };
}

// ---------- compression ----------

/** Reads a stream to its end, with a running count: past `limit` it stops at once, keeping nothing. */
async function pump(stream: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array | 'too-large'> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > limit) {
      chunks.length = 0;
      await reader.cancel().catch(() => {});
      return 'too-large';
    }
    chunks.push(value);
  }
  return joinBytes(chunks);
}

async function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  const cs = new CompressionStream('deflate-raw');
  const writer = cs.writable.getWriter();
  void writer.write(bytes as Uint8Array<ArrayBuffer>).then(() => writer.close());
  return (await pump(cs.readable, Infinity)) as Uint8Array;
}

/**
 * Decompresses as a stream, counting the output as it comes: it stops as soon as the output would
 * pass `limit` (never decompress-then-check). The input goes in slices, each written only once the
 * decompressor has taken the one before, so no engine can run ahead by more than one slice's output.
 */
export async function inflate(bytes: Uint8Array, limit: number): Promise<Uint8Array | 'too-large' | 'damaged'> {
  try {
    const ds = new DecompressionStream('deflate-raw');
    const writer = ds.writable.getWriter();
    const feed = async () => {
      for (let at = 0; at < bytes.length; at += INFLATE_SLICE) await writer.write(bytes.slice(at, at + INFLATE_SLICE));
      await writer.close();
    };
    // Cancelling the output (too large) or a damaged stream ends the feed with an error: expected.
    feed().catch(() => {});
    return await pump(ds.readable, limit);
  } catch {
    return 'damaged';
  }
}

const checksum = (payload: Uint8Array) => sha256(payload).subarray(0, 8);

/** What is on screen is more than a link or bundle may hold: one made anyway would not open. */
export class ShareTooLargeError extends Error {
  constructor(readonly bytes: number) {
    super(
      `The inputs and view come to ${(bytes / 1024 / 1024).toFixed(1)} MiB; a link or bundle holds at most ${MAX_INFLATED_TEXT} (a larger one would not open). Share fewer inputs, or send the files themselves.`,
    );
    this.name = 'ShareTooLargeError';
  }
}

async function pack(state: ShareState): Promise<Uint8Array> {
  const payload = encodePayload(state);
  if (payload.length > MAX_INFLATED) throw new ShareTooLargeError(payload.length);
  return concatBytes(checksum(payload), await deflate(payload));
}

async function unpack(packed: Uint8Array, what: 'link' | 'bundle'): Promise<ShareResult> {
  const damaged = (why: string): ShareResult => ({
    ok: false,
    error: {
      code: 'permalink/damaged',
      message: `This ${what} is damaged or cut short (${why}). Ask for the ${what} again${what === 'link' ? ', or for a bundle file' : ''}.`,
    },
  });
  if (packed.length < 9) return damaged('too short');
  const inflated = await inflate(packed.subarray(8), MAX_INFLATED);
  if (inflated === 'too-large') {
    const message = `This ${what} would decompress to more than ${MAX_INFLATED_TEXT}, the most a ${what} may hold here; it was not opened (decompression stopped at ${MAX_INFLATED_TEXT}). Load the files themselves instead.`;
    return { ok: false, error: { code: 'permalink/too-large', message } };
  }
  if (inflated === 'damaged') return damaged('it does not decompress');
  if (!bytesEqual(checksum(inflated), packed.subarray(0, 8))) return damaged('its checksum does not match');
  const item = readSingle(inflated);
  if (!item.ok) return damaged(`its contents do not read: ${item.error.message}`);
  try {
    return { ok: true, state: readState(plain(item.value)) };
  } catch (e) {
    return damaged((e as Error).message);
  }
}

// ---------- links ----------

/** The fragment (without '#') for a state; ShareTooLargeError past MAX_INFLATED. */
export async function encodePermalink(state: ShareState): Promise<string> {
  return `v${PERMALINK_VERSION}.${toBase64(await pack(state), true)}`;
}

/** Reads a fragment ('#' optional). Never throws for any text. */
export async function decodePermalink(fragment: string): Promise<ShareResult> {
  if (typeof fragment !== 'string') throw new TypeError('a permalink fragment is a string');
  const text = fragment.startsWith('#') ? fragment.slice(1) : fragment;
  const m = /^v(\d+)\.(.*)$/s.exec(text);
  if (!m)
    return { ok: false, error: { code: 'permalink/not-a-link', message: 'The address does not hold an Envelope Inspector view (it should start with #v1.).' } };
  const version = Number(m[1]);
  if (version > PERMALINK_VERSION) {
    return {
      ok: false,
      error: {
        code: 'permalink/newer-version',
        message: `This link was made by a newer Envelope Inspector (link format v${version}); this one reads v${PERMALINK_VERSION}. Open it with an up-to-date copy.`,
      },
    };
  }
  if (version < 1) return { ok: false, error: { code: 'permalink/not-a-link', message: `Link format v${version} does not exist.` } };
  if (!/^[A-Za-z0-9_-]*$/.test(m[2]))
    return {
      ok: false,
      error: { code: 'permalink/damaged', message: 'This link is damaged: it holds characters a link of this kind never has. Ask for the link again.' },
    };
  const packed = fromBase64(m[2]);
  // A changed last character can alter only unused bits: accept only the canonical spelling.
  if (!packed || toBase64(packed, true) !== m[2])
    return {
      ok: false,
      error: { code: 'permalink/damaged', message: 'This link is damaged or cut short (its length is impossible). Ask for the link again.' },
    };
  return unpack(packed, 'link');
}

// ---------- bundles ----------

export async function encodeBundle(state: ShareState): Promise<Uint8Array> {
  return concatBytes(BUNDLE_MAGIC, new Uint8Array([PERMALINK_VERSION]), await pack(state));
}

export function isBundle(bytes: Uint8Array): boolean {
  return bytes.length > BUNDLE_MAGIC.length && bytesEqual(bytes.subarray(0, BUNDLE_MAGIC.length), BUNDLE_MAGIC);
}

export async function decodeBundle(bytes: Uint8Array): Promise<ShareResult> {
  if (!isBundle(bytes)) return { ok: false, error: { code: 'permalink/not-a-link', message: 'not an Envelope Inspector bundle' } };
  const version = bytes[BUNDLE_MAGIC.length];
  if (version > PERMALINK_VERSION) {
    return {
      ok: false,
      error: {
        code: 'permalink/newer-version',
        message: `This bundle was made by a newer Envelope Inspector (format v${version}); this one reads v${PERMALINK_VERSION}.`,
      },
    };
  }
  if (version < 1) return { ok: false, error: { code: 'permalink/not-a-link', message: `Bundle format v${version} does not exist.` } };
  return unpack(bytes.subarray(BUNDLE_MAGIC.length + 1), 'bundle');
}
