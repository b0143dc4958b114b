// Builds vectors/files/: small files that are plainly not agent records, for the importer that
// names them by their first bytes (src/core/import/file-types.ts).
// Run: node scripts/make-file-vectors.mjs   (deterministic; the output is committed).
import { mkdirSync, writeFileSync } from 'node:fs';
import { crc32, deflateSync, gzipSync } from 'node:zlib';

const out = 'vectors/files/';
mkdirSync(out, { recursive: true });

// A 1 × 1 PNG: one opaque teal pixel (signature, IHDR, IDAT, IEND; each chunk with its CRC).
function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}
const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]); // 1 × 1, 8-bit RGB
const pixel = deflateSync(Buffer.from([0, 0x0f, 0x76, 0x6e])); // filter 0, then R G B
writeFileSync(
  `${out}pixel.png`,
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', pixel), chunk('IEND', Buffer.alloc(0))]),
);

// "hello\n" gzipped (mtime 0, so the bytes do not depend on when this ran).
writeFileSync(`${out}hello.txt.gz`, gzipSync(Buffer.from('hello\n')));

// The smallest WebAssembly module: its magic and version 1, no sections.
writeFileSync(`${out}empty.wasm`, Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]));
