// The one way in for every input (the CLI, the worker, tests): the importers in the order they are
// asked, and the driver that gives the first one that reads an input its bytes. A new input format
// is one module in this folder and one entry in IMPORTERS.
import { agdxJson } from './agdx-json';
import { agentdna } from './agentdna';
import { failedRecord, finishRecord, type Place } from './build';
import { cbor } from './cbor';
import { empty, json, text, unknown } from './fallbacks';
import { fileType } from './file-types';
import { iggyHeaders } from './iggy-headers';
import { iggyJson } from './iggy-json';
import { wholeInput, Source, type ImportContext, type ImportedBatch, type ImportOptions, type Importer } from './importer';
import { base64, diagnostic, hex } from './text';
import type { DecodeError } from '../verdict';

/**
 * Every importer, in the order the driver asks them; the first whose `detect` claims an input
 * reads it. Text comes before binary: JSON by shape (an Iggy export has messages; an envelope view
 * a kind; AgentDNA the rest), then CBOR diagnostic notation that is not JSON, then JSON no shape
 * fits, then hex and base64 of anything here, then other text. Binary: an Iggy header block, then files that are plainly something else by their
 * first bytes (a PNG, a PDF, a program: what CBOR would make of them says nothing useful), then bare
 * CBOR (whose reader may take a block's bytes for something else). The fallbacks claim what is
 * left, so every input is read by exactly one importer.
 */
export const IMPORTERS: readonly Importer[] = [empty, iggyJson, agdxJson, agentdna, diagnostic, json, hex, base64, text, iggyHeaders, fileType, cbor, unknown];

/** The first importer that reads the source, in batches (a format that cannot stream comes as one). */
function* readBatches(source: Source, context: ImportContext, batchSize: number, importers: readonly Importer[]): Generator<ImportedBatch> {
  for (const importer of importers) {
    const claim = importer.detect(source);
    if (claim === null) continue;
    if (importer.batches) {
      yield* importer.batches(source, claim, context, batchSize);
      return;
    }
    const whole = importer.read(source, claim, context);
    if (whole === null) continue;
    yield { records: whole.records, workflows: whole.workflows, end: source.bytes.length, format: whole.format };
    return;
  }
  throw new Error(`no importer claims this input (the list ends without a fallback: ${importers.map((i) => i.format).join(', ')})`);
}

/**
 * The records of one input in batches of about `batchSize` (Infinity: the whole input in one batch
 * when its format streams, as it does for every other format); the last batch carries the input's
 * format. Never throws for any bytes: a failure of ours while reading stays with this input (the
 * batches before it stand, and the failure is a record of its own).
 */
export function* importBatches(place: Place, options: ImportOptions, batchSize: number, importers: readonly Importer[] = IMPORTERS): Generator<ImportedBatch> {
  if (!(place.view instanceof Uint8Array)) throw new TypeError('importBatches: the input must be a Uint8Array');
  if (!(batchSize >= 1)) throw new TypeError('importBatches: batchSize must be at least 1');
  const context: ImportContext = {
    extraKeys: options.extraKeys,
    dids: options.dids,
    detail: options.detail,
    signatures: options.signatures,
    // Inner bytes are read whole, in one go: nothing could await answers from elsewhere there.
    readInner: (source) => wholeInput(readBatches(source, { ...context, signatures: undefined }, Infinity, importers)),
  };
  let records = 0;
  let end = 0;
  try {
    for (const batch of readBatches(new Source(place), context, batchSize, importers)) {
      records += batch.records.length;
      end = batch.end;
      yield batch;
    }
  } catch (e) {
    // A bug of ours must not take the other inputs down: report it against this input.
    const error: DecodeError = {
      code: 'input/unrecognized',
      message: `internal error while reading this input: ${(e as Error)?.message ?? String(e)}`,
      offset: records ? end : null,
    };
    yield { records: [finishRecord(failedRecord(place, records, 'unknown', null, error))], workflows: [], end: place.view.length, format: 'unknown' };
  }
}
