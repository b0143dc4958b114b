// The command line's baseline (bench/run.ts, issue 29): what a plain decode of a CBOR sequence costs
// with every record made into JSON, cbor-x's decodeMultiple over the file and JSON.stringify of
// each record into a null sink (only the text's length is kept). Prints the records and characters.
// Maps as objects (as cbor-x's own decodeMultiple reads them), 64-bit integers as numbers (JSON.stringify has no text for a bigint).
import { readFileSync } from 'node:fs';
import { Decoder } from 'cbor-x';

const bytes = readFileSync(process.argv[2]);
let records = 0;
let chars = 0;
new Decoder({ mapsAsObjects: true, int64AsNumber: true }).decodeMultiple(bytes, (value) => {
  records++;
  chars += JSON.stringify(value).length;
});
process.stdout.write(`${records} records, ${chars} characters of JSON\n`);
