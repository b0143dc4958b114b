// Iggy HTTP exports of polled messages, in their three eras (≤ 0.4: headers on the message; 0.5–0.6:
// a header object; ≥ 0.7: user_headers as a list): each message an agdx.record carrying the log
// time and position, its payload read as an envelope (or as whatever AGDX item it is).
import { analyzeEnvelope } from '../agdx/analyze';
import { classifyCbor } from '../agdx/classify';
import { headersFromJson } from '../agdx/iggy';
import { fromBase64 } from '../bytes';
import { readSingle } from '../cbor/reader';
import type { JsonValue } from '../json/lossless';
import { getMember, toPlain } from '../json/lossless';
import type { LogPosition } from '../model';
import type { InspectedRecord } from '../records';
import { blankRecord, envelopeRecord, failedRecord, finishRecord, headersNode, type Place, type RecordDraft } from './build';
import { recordsFromItem } from './cbor-items';
import { jsonRoot, type Importer } from './importer';
import { withLogTime } from './log-time';
import { envelopeViews } from './views';
import { finding } from '../rules';

type JsonArray = Extract<JsonValue, { type: 'array' }>;

function isObject(v: JsonValue | undefined): v is Extract<JsonValue, { type: 'object' }> {
  return v?.type === 'object';
}

/** The export's messages: an object's `messages` array, or an array of messages of which one has a payload. */
function exportMessages(root: JsonValue): JsonArray | null {
  const messages = isObject(root)
    ? getMember(root, 'messages')
    : root.type === 'array' && root.items.some((m) => isObject(m) && getMember(m, 'payload'))
      ? root
      : undefined;
  return messages?.type === 'array' ? messages : null;
}

const asBigInt = (v: JsonValue | undefined): bigint | null => (v?.type === 'number' && v.big !== null ? v.big : null);

/** Every message of an Iggy HTTP export as an agdx.record (or what its payload turns out to be). */
export function readIggyExport(input: number, text: Uint8Array, root: JsonValue, detail = true): { records: InspectedRecord[]; era: string } {
  const messages = exportMessages(root);
  if (messages === null) throw new TypeError('readIggyExport: not an Iggy export (no messages)');
  const partition = isObject(root) ? asBigInt(getMember(root, 'partition_id')) : null;
  const records: InspectedRecord[] = [];
  const eras = new Set<string>();
  for (const m of messages.items) {
    const index = records.length;
    const textPlace: Place = { input, view: text, viewOrigin: 'input' };
    if (!isObject(m)) {
      records.push(
        finishRecord(
          failedRecord(textPlace, index, 'agdx.record', [m.start, m.end], {
            code: 'input/unrecognized',
            message: 'a message of the export is not an object',
            offset: m.start,
          }),
        ),
      );
      continue;
    }
    const header = getMember(m, 'header');
    const userHeaders = getMember(m, 'user_headers');
    const era = isObject(header) ? (userHeaders?.type === 'array' ? '>=0.7' : '0.5-0.6') : '<=0.4';
    eras.add(era);
    const meta = isObject(header) ? header : m;
    const offset = asBigInt(getMember(meta, 'offset'));
    const timestamp = asBigInt(getMember(meta, 'timestamp'));
    const position: LogPosition | null = offset !== null ? { stream: null, topic: null, partition: partition !== null ? Number(partition) : 0, offset } : null;
    const rawHeaders = era === '<=0.4' ? getMember(m, 'headers') : userHeaders;
    const { headers, problems } = headersFromJson(rawHeaders ? toPlain(rawHeaders) : null);
    const payloadText = getMember(m, 'payload');
    const payload = payloadText?.type === 'string' ? fromBase64(payloadText.value) : null;
    const common = {
      inputSpan: [m.start, m.end] as [number, number],
      logTimeMicros: timestamp,
      logPosition: position,
      headers,
    };
    if (!payload) {
      records.push(
        finishRecord({
          ...failedRecord(textPlace, index, 'agdx.record', null, {
            code: 'json/invalid',
            message: payloadText ? 'payload is not base64' : 'the message has no payload',
            offset: (payloadText ?? m).start,
          }),
          ...common,
        }),
      );
      continue;
    }
    const place: Place = { input, view: payload, viewOrigin: 'payload' };
    const base: RecordDraft = {
      ...blankRecord(place, index, 'agdx.record', null),
      ...common,
      tree: [headersNode(headers, null)],
      findings: problems.map((p) => finding('agdx/header/unreadable', 'headers', `a user header could not be read: ${p}`, null)),
    };
    const item = readSingle(payload);
    if (!item.ok) {
      records.push(finishRecord({ ...base, error: item.error, summary: `${item.error.code}: ${item.error.message}` }));
      continue;
    }
    if (classifyCbor(item.value).format === 'agdx.envelope') {
      const analysis = analyzeEnvelope(payload, item.value, { headers, detail });
      const record = withLogTime(envelopeRecord(base, analysis), { recordSpan: analysis.decodedEnvelope?.locations.get('record')?.value ?? null });
      records.push(finishRecord(detail ? record : { ...record, viewBuilder: envelopeViews }));
    } else {
      // Not an envelope (a dead letter from agent.dlq, say): it keeps its own format. Its payload
      // was appended later than it was made, by design: no skew finding for it.
      for (const r of recordsFromItem(place, item.value, index)) records.push(finishRecord(withLogTime({ ...r, ...common }, null)));
    }
  }
  return { records, era: [...eras].join('+') || (records.length ? 'no readable message' : 'empty') };
}

export const iggyJson: Importer<JsonValue> = {
  format: 'iggy-json',
  detect: (source) => {
    const root = jsonRoot(source);
    return root !== null && exportMessages(root) !== null ? root : null;
  },
  read: (source, root, context) => {
    const { records, era } = readIggyExport(source.place.input, source.bytes, root, context.detail);
    return { format: `iggy-json(${era})`, records, workflows: [] };
  },
};
