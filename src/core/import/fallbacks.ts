// What no format reads: an empty input, JSON of no known shape (or that does not parse), other
// text, and binary bytes that are not CBOR records. Each is one record saying so
// (input/unrecognized, or json/invalid with where the JSON fails), never an exception.
import { failedRecord, finishRecord, jsonDecodeError } from './build';
import { cborRefusal } from './cbor';
import type { Imported, Importer, Source } from './importer';
import type { DecodeError } from '../verdict';
import { textRefusal } from './text';

/** The input as one failed record. */
function failed(source: Source, format: string, span: [number, number] | null, error: DecodeError): Imported {
  return { format, records: [finishRecord(failedRecord(source.place, 0, 'unknown', span, error))], workflows: [] };
}

export const empty: Importer<true> = {
  format: 'empty',
  detect: (source) => (source.bytes.length === 0 ? true : null),
  read: (source) => failed(source, 'empty', null, { code: 'input/unrecognized', message: 'an empty file: nothing to read', offset: 0 }),
};

/**
 * Text that starts like JSON but is no format the JSON importers read, or does not parse. Text that
 * does not parse may be CBOR diagnostic notation gone wrong (`{"kind": h'…`): when reading it so gets
 * further than reading it as JSON, that is where it is said to fail.
 */
export const json: Importer<true> = {
  format: 'json',
  detect: (source) => (source.json !== null ? true : null),
  read: (source) => {
    const parsed = source.json!;
    if (!parsed.ok) {
      // JSON that stops before its end (cut short JSON stops at it, as diagnostic notation would).
      const further = parsed.error.offset < source.bytes.length ? textRefusal(source.text ?? '') : null;
      if (further && further.offset > parsed.error.offset)
        return failed(source, 'json', null, {
          code: 'input/unrecognized',
          message: `not JSON; ${further.message}`,
          offset: further.offset,
        });
      return failed(source, 'json', null, jsonDecodeError(parsed.error));
    }
    const root = parsed.value;
    return failed(source, 'json', [root.start, root.end], {
      code: 'input/unrecognized',
      message:
        'JSON, but neither an Iggy export (an object with messages), the JSON view of an AGDX envelope (kind, conversation, source), nor an AgentDNA workflow, envelope or card',
      offset: root.start,
    });
  },
};

/** Other text: said to be none of the text formats, with where the reading that got furthest stopped. */
export const text: Importer<true> = {
  format: 'text',
  detect: (source) => (source.text !== null ? true : null),
  read: (source) => {
    const words = "text that is neither JSON (an Iggy export or an envelope's JSON view) nor hex, base64 or CBOR diagnostic notation of a record";
    const where = textRefusal(source.text!);
    return failed(source, 'text', null, { code: 'input/unrecognized', message: where ? `${words}: ${where.message}` : words, offset: where?.offset ?? 0 });
  },
};

/** Binary bytes that do not read as CBOR records: why not is what the CBOR importer found. */
export const unknown: Importer<true> = {
  format: 'unknown',
  detect: () => true,
  read: (source) => {
    const error = cborRefusal(source) ?? { code: 'input/unrecognized', message: 'no importer reads this input', offset: 0 };
    return failed(source, 'unknown', [0, source.bytes.length], error);
  },
};
