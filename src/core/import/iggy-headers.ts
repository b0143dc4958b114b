// An Iggy binary user-header block followed by its payload, as a message's bytes come off the log
// (the ≥ 0.7 and the ≤ 0.6 layouts): one agdx.record whose headers are the block's.
import { analyzeEnvelope } from '../agdx/analyze';
import { readHeaderBlock, type HeaderBlock } from '../agdx/iggy';
import { readItemAt } from '../cbor/reader';
import type { Span } from '../model';
import { blankRecord, envelopeRecord, finishRecord, headersNode, type RecordDraft } from './build';
import { startsLikeMap, type Importer, type Source } from './importer';
import type { DecodeError } from '../verdict';

/** The header block at the start of binary bytes, in the first layout that reads; null when there is none. */
function detectHeaderBlock(source: Source): HeaderBlock | null {
  if (source.text !== null) return null;
  const bytes = source.bytes;
  // A block ends where an envelope starts that runs to the end of the bytes.
  const envelopeStartsAt = (offset: number) => {
    if (!startsLikeMap(bytes, offset)) return false;
    const r = readItemAt(bytes, offset);
    return r.ok && r.value.end === bytes.length;
  };
  for (const era of ['>=0.7', '<=0.6'] as const) {
    const block = readHeaderBlock(bytes, era, envelopeStartsAt);
    if (block) return block;
  }
  return null;
}

export const iggyHeaders: Importer<HeaderBlock> = {
  format: 'iggy-headers',
  detect: detectHeaderBlock,
  read(source, block) {
    const { place, bytes } = source;
    const format = `iggy-headers(${block.era})`;
    const blockSpan: Span = [0, block.end];
    const base: RecordDraft = {
      ...blankRecord(place, 0, 'agdx.record', [0, bytes.length]),
      headers: block.headers,
      tree: [headersNode(block.headers, blockSpan)],
    };
    const one = (record: RecordDraft) => ({ format, records: [finishRecord(record)], workflows: [] });
    if (block.end === bytes.length) {
      const error: DecodeError = {
        code: 'input/unrecognized',
        message: `an Iggy ${block.era} user-header block with ${block.headers.length} headers and no payload after it: nothing to decode`,
        offset: block.end,
      };
      return one({ ...base, error, summary: error.message });
    }
    const r = readItemAt(bytes, block.end);
    if (!r.ok) return one({ ...base, error: r.error, summary: `${r.error.code}: ${r.error.message}` });
    if (r.value.end !== bytes.length) {
      const error: DecodeError = { code: 'cbor/trailing-bytes', message: `${bytes.length - r.value.end} bytes after the payload`, offset: r.value.end };
      return one({ ...base, error, summary: error.message });
    }
    return one(envelopeRecord({ ...base, span: [0, bytes.length] }, analyzeEnvelope(bytes, r.value, { headers: block.headers })));
  },
};
