// The pipeline: sniff each input → split it into records with byte spans → analyse each record.
// One importer per format behind this one dispatcher; a failure stays with its record or input.
import { sha256 } from '@noble/hashes/sha2.js';
import { fromBase64, fromHex, toHex, utf8OrNull } from './bytes';
import { readItemAt, untag } from './cbor/reader';
import { readJson } from './json/lossless';
import { failedRecord, type Place } from './import/build';
import { readCborRecords, readHeaderBlockInput, startsLikeMap } from './import/cbor-input';
import { jsonShape, readIggyExport, readJsonEnvelopes } from './import/json-input';
import { applyKeys } from './agdx/verify';
import type { RegisteredKey } from './keys/keys';
import type { InputResult, InspectResult, RecordResult } from './records';

export interface InputFile {
  name: string;
  bytes: Uint8Array;
}

interface Sniffed {
  format: string;
  records: RecordResult[];
}

const TEXTUAL = /^[\s\x20-\x7e\u00a0-\uffff]*$/;

/** Text that may be hex: hex digits and whitespace, an optional 0x, an even count of digits. */
function asHex(text: string): Uint8Array | null {
  const t = text.trim();
  if (t.length < 2 || !/^(0x)?[0-9a-fA-F\s]+$/.test(t)) return null;
  return fromHex(t);
}

function asBase64(text: string): Uint8Array | null {
  const t = text.trim();
  if (t.length < 4 || !/^[A-Za-z0-9+/=_\-\s]+$/.test(t)) return null;
  return fromBase64(t);
}

function sniff(place: Place, textDepth: number): Sniffed {
  const bytes = place.view;
  if (bytes.length === 0) {
    return { format: 'empty', records: [failedRecord(place, 0, 'unknown', null, { code: 'input/unrecognized', message: 'the input is empty', offset: 0 })] };
  }
  const text = startsLikeMap(bytes) ? null : utf8OrNull(bytes);
  if (text !== null && TEXTUAL.test(text)) {
    const t = text.trimStart();
    if (t.startsWith('{') || t.startsWith('[')) return sniffJson(place);
    if (textDepth < 2) {
      for (const [name, decode] of [['hex', asHex], ['base64', asBase64]] as const) {
        const decoded = decode(text);
        if (decoded && decoded.length > 0) {
          const inner = sniff({ input: place.input, view: decoded, viewOrigin: 'decoded-text' }, textDepth + 1);
          if (inner.records.some((r) => r.format !== 'unknown')) return { format: `${name}(${inner.format})`, records: inner.records };
        }
      }
    }
    const error = { code: 'input/unrecognized', message: 'text that is neither JSON (an Iggy export or an envelope\'s JSON view) nor hex or base64 of a record', offset: 0 };
    return { format: 'text', records: [failedRecord(place, 0, 'unknown', null, error)] };
  }
  const headerBlock = readHeaderBlockInput(place);
  if (headerBlock) return headerBlock;
  const first = readItemAt(bytes, 0);
  // Every AGDX item is a CBOR map; a first item that is anything else means this is not AGDX CBOR.
  if (first.ok ? untag(first.value).kind !== 'map' : !startsLikeMap(bytes)) {
    const cbor = first.ok
      ? `CBOR reads a ${untag(first.value).kind} first, where an AGDX envelope, record or capsule is a map`
      : `CBOR failed with ${first.error.code} at byte ${first.error.offset}: ${first.error.message}`;
    const error = {
      code: 'input/unrecognized',
      message: `tried text (JSON, hex, base64), an Iggy user-header block and CBOR; ${cbor}`,
      offset: first.ok ? 0 : first.error.offset,
    };
    return { format: 'unknown', records: [failedRecord(place, 0, 'unknown', [0, bytes.length], error)] };
  }
  const { records, count } = readCborRecords(place);
  return { format: count > 1 || records.length > count + 1 ? 'cbor-seq' : 'cbor', records };
}

function sniffJson(place: Place): Sniffed {
  const parsed = readJson(place.view);
  if (!parsed.ok) {
    return { format: 'json', records: [failedRecord(place, 0, 'unknown', null, { code: parsed.error.code, message: parsed.error.message, offset: parsed.error.offset })] };
  }
  const shape = jsonShape(parsed.value);
  if (shape === 'iggy-json') {
    const { records, era } = readIggyExport(place.input, place.view, parsed.value);
    return { format: `iggy-json(${era})`, records };
  }
  if (shape === 'agdx-json') return { format: 'agdx-json', records: readJsonEnvelopes(place.input, place.view, parsed.value) };
  const error = {
    code: 'input/unrecognized',
    message: 'JSON, but neither an Iggy export (an object with messages) nor the JSON view of an envelope (an object with kind, conversation and source)',
    offset: parsed.value.start,
  };
  return { format: 'json', records: [failedRecord(place, 0, 'unknown', [parsed.value.start, parsed.value.end], error)] };
}

/** Inspects one input; never throws for any bytes. */
export function inspectInput(index: number, file: InputFile): { input: InputResult; records: RecordResult[] } {
  if (!(file.bytes instanceof Uint8Array)) throw new TypeError('InputFile.bytes must be a Uint8Array');
  const input: InputResult = { name: file.name, bytes: file.bytes.length, sha256: toHex(sha256(file.bytes)), format: 'unknown' };
  const place: Place = { input: index, view: file.bytes, viewOrigin: 'input' };
  let sniffed: Sniffed;
  try {
    sniffed = sniff(place, 0);
  } catch (e) {
    // A bug of ours must not take the other inputs down: report it against this input.
    const error = { code: 'input/unrecognized', message: `internal error while reading this input: ${(e as Error)?.message ?? String(e)}`, offset: null };
    sniffed = { format: 'unknown', records: [failedRecord(place, 0, 'unknown', null, error)] };
  }
  input.format = sniffed.format;
  return { input, records: sniffed.records };
}

export interface InspectOptions {
  /** The key registry signatures are checked against (none: signed records are unknown_key). */
  keys?: RegisteredKey[];
}

export function inspect(files: InputFile[], options: InspectOptions = {}): InspectResult {
  const inputs: InputResult[] = [];
  const records: RecordResult[] = [];
  files.forEach((file, i) => {
    const r = inspectInput(i, file);
    inputs.push(r.input);
    records.push(...r.records);
  });
  if (options.keys?.length) applyKeys(records, options.keys);
  return { inputs, records };
}
