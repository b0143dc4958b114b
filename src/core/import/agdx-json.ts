// The JSON view of an AGDX envelope (or an array of them), as tools print one: the same envelope,
// its byte strings as arrays of integers (or base64), read through the same decoder.
import { analyzeEnvelope } from '../agdx/analyze';
import type { JsonValue } from '../json/lossless';
import { getMember } from '../json/lossless';
import { jsonToCborItem } from '../json/to-cbor';
import type { InspectedRecord } from '../records';
import { blankRecord, envelopeRecord, finishRecord, type Place } from './build';
import { jsonRoot, type Importer } from './importer';

/** An object with a kind, or with a conversation and a source. */
function looksLikeEnvelope(v: JsonValue): boolean {
  return v.type === 'object' && (getMember(v, 'kind') !== undefined || (getMember(v, 'conversation') !== undefined && getMember(v, 'source') !== undefined));
}

/** Whether the JSON is an envelope's view, or a non-empty array of them. */
function isEnvelopeView(root: JsonValue): boolean {
  return looksLikeEnvelope(root) || (root.type === 'array' && root.items.length > 0 && root.items.every(looksLikeEnvelope));
}

/** The JSON view of one envelope, or an array of them. Byte strings may be arrays of integers. */
export function readJsonEnvelopes(input: number, text: Uint8Array, root: JsonValue): InspectedRecord[] {
  const place: Place = { input, view: text, viewOrigin: 'input' };
  const items = root.type === 'array' ? root.items : [root];
  return items.map((v, index) =>
    finishRecord(envelopeRecord(blankRecord(place, index, 'agdx.envelope', [v.start, v.end]), analyzeEnvelope(text, jsonToCborItem(v), { jsonView: true }))),
  );
}

export const agdxJson: Importer<JsonValue> = {
  format: 'agdx-json',
  detect: (source) => {
    const root = jsonRoot(source);
    return root !== null && isEnvelopeView(root) ? root : null;
  },
  read: (source, root) => ({ format: 'agdx-json', records: readJsonEnvelopes(source.place.input, source.bytes, root), workflows: [] }),
};
