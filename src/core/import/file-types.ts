// Files that are plainly something else: an image, a PDF, an archive, a program, a database. Each is
// known by its first bytes (its "magic number"), and read as one record saying what the file is
// ("a PNG image, not an agent record": input/unrecognized), rather than what CBOR made of its bytes.
// The input's format names the type: file(png), file(elf), …
import { failedRecord, finishRecord } from './build';
import { startsLikeMap, type Importer, type Source } from './importer';

/** A file type: its name in the input's format, and what it is, in words. */
export interface FileType {
  id: string;
  what: string;
}

const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));

/** Whether `bytes` hold `sig` at `at` (null in `sig`: any byte). */
function has(bytes: Uint8Array, sig: readonly (number | null)[], at = 0): boolean {
  if (bytes.length < at + sig.length) return false;
  for (let i = 0; i < sig.length; i++) if (sig[i] !== null && bytes[at + i] !== sig[i]) return false;
  return true;
}

const u32be = (b: Uint8Array, at: number) => ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
const u32le = (b: Uint8Array, at: number) => (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;

/**
 * The types, in the order they are tried. Every signature is at least three fixed bytes, or two
 * checked further (a PE's "MZ" must point at its "PE\0\0", a BMP's "BM" be followed by the file's
 * length). Bytes that start like a CBOR map (every AGDX item does) are never taken for one of these
 * (fileTypeOf), whatever they hold further on.
 */
const TYPES: readonly { id: string; what: string; test: (b: Uint8Array) => boolean }[] = [
  { id: 'png', what: 'a PNG image', test: (b) => has(b, [0x89, ...ascii('PNG'), 0x0d, 0x0a, 0x1a, 0x0a]) },
  { id: 'jpeg', what: 'a JPEG image', test: (b) => has(b, [0xff, 0xd8, 0xff]) && b.length >= 4 },
  { id: 'gif', what: 'a GIF image', test: (b) => has(b, ascii('GIF87a')) || has(b, ascii('GIF89a')) },
  { id: 'webp', what: 'a WebP image', test: (b) => has(b, ascii('RIFF')) && has(b, ascii('WEBP'), 8) },
  { id: 'wav', what: 'a WAV audio file', test: (b) => has(b, ascii('RIFF')) && has(b, ascii('WAVE'), 8) },
  { id: 'avi', what: 'an AVI video', test: (b) => has(b, ascii('RIFF')) && has(b, ascii('AVI '), 8) },
  { id: 'tiff', what: 'a TIFF image', test: (b) => has(b, [0x49, 0x49, 0x2a, 0x00]) || has(b, [0x4d, 0x4d, 0x00, 0x2a]) },
  { id: 'bmp', what: 'a BMP image', test: (b) => has(b, ascii('BM')) && b.length >= 26 && u32le(b, 2) === b.length },
  { id: 'psd', what: 'a Photoshop document', test: (b) => has(b, ascii('8BPS')) },
  { id: 'pdf', what: 'a PDF document', test: (b) => has(b, ascii('%PDF-')) },
  {
    id: 'zip',
    what: 'a ZIP archive (or a file made of one: docx, xlsx, jar, apk…)',
    test: (b) => has(b, [0x50, 0x4b, 0x03, 0x04]) || has(b, [0x50, 0x4b, 0x05, 0x06]) || has(b, [0x50, 0x4b, 0x07, 0x08]),
  },
  { id: 'gzip', what: 'gzip-compressed data', test: (b) => has(b, [0x1f, 0x8b, 0x08]) },
  { id: 'bzip2', what: 'bzip2-compressed data', test: (b) => has(b, ascii('BZh')) && b.length >= 4 && b[3] >= 0x31 && b[3] <= 0x39 },
  { id: 'xz', what: 'xz-compressed data', test: (b) => has(b, [0xfd, ...ascii('7zXZ'), 0x00]) },
  { id: 'zstd', what: 'Zstandard-compressed data', test: (b) => has(b, [0x28, 0xb5, 0x2f, 0xfd]) },
  { id: '7z', what: 'a 7-Zip archive', test: (b) => has(b, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]) },
  { id: 'rar', what: 'a RAR archive', test: (b) => has(b, [...ascii('Rar!'), 0x1a, 0x07]) },
  { id: 'tar', what: 'a tar archive', test: (b) => has(b, ascii('ustar'), 257) },
  { id: 'elf', what: 'an ELF binary (a Linux or Unix program or library)', test: (b) => has(b, [0x7f, ...ascii('ELF')]) },
  {
    id: 'mach-o',
    what: 'a Mach-O binary (a macOS or iOS program or library)',
    test: (b) =>
      has(b, [0xfe, 0xed, 0xfa, 0xce]) ||
      has(b, [0xfe, 0xed, 0xfa, 0xcf]) ||
      has(b, [0xce, 0xfa, 0xed, 0xfe]) ||
      has(b, [0xcf, 0xfa, 0xed, 0xfe]) ||
      (has(b, [0xca, 0xfe, 0xba, 0xbe]) && b.length >= 8 && u32be(b, 4) > 0 && u32be(b, 4) < 45),
  },
  // 0xCAFEBABE is also a universal Mach-O: a class file's next word is its version (45 and up), a universal binary's its count of architectures.
  { id: 'java-class', what: 'a Java class file', test: (b) => has(b, [0xca, 0xfe, 0xba, 0xbe]) && b.length >= 8 && u32be(b, 4) >= 45 },
  {
    id: 'pe',
    what: 'a Windows program or library (PE: exe, dll)',
    test: (b) => {
      if (!has(b, ascii('MZ')) || b.length < 0x40) return false;
      const pe = u32le(b, 0x3c);
      return has(b, [...ascii('PE'), 0, 0], pe);
    },
  },
  { id: 'wasm', what: 'a WebAssembly module', test: (b) => has(b, [0x00, ...ascii('asm')]) },
  { id: 'sqlite', what: 'an SQLite database', test: (b) => has(b, [...ascii('SQLite format 3'), 0]) },
  {
    id: 'ole',
    what: 'an OLE compound file (an old Office document, an MSI installer…)',
    test: (b) => has(b, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
  },
  {
    id: 'pcap',
    what: 'a packet capture (pcap)',
    test: (b) => has(b, [0xd4, 0xc3, 0xb2, 0xa1]) || has(b, [0xa1, 0xb2, 0xc3, 0xd4]) || has(b, [0x4d, 0x3c, 0xb2, 0xa1]) || has(b, [0xa1, 0xb2, 0x3c, 0x4d]),
  },
  {
    id: 'pcapng',
    what: 'a packet capture (pcapng)',
    test: (b) => has(b, [0x0a, 0x0d, 0x0d, 0x0a]) && b.length >= 12 && (has(b, [0x1a, 0x2b, 0x3c, 0x4d], 8) || has(b, [0x4d, 0x3c, 0x2b, 0x1a], 8)),
  },
  { id: 'ogg', what: 'an Ogg media file', test: (b) => has(b, ascii('OggS')) },
  { id: 'flac', what: 'a FLAC audio file', test: (b) => has(b, ascii('fLaC')) },
  { id: 'mp3', what: 'an MP3 audio file', test: (b) => has(b, ascii('ID3')) && b.length >= 10 && b[3] <= 4 },
  { id: 'mp4', what: 'an MP4 or QuickTime video (ISO media)', test: (b) => b[0] === 0 && has(b, ascii('ftyp'), 4) },
  { id: 'woff', what: 'a web font (WOFF)', test: (b) => has(b, ascii('wOFF')) || has(b, ascii('wOF2')) },
  { id: 'otf', what: 'an OpenType font', test: (b) => has(b, ascii('OTTO')) },
  { id: 'parquet', what: 'a Parquet file', test: (b) => has(b, ascii('PAR1')) && b.length >= 8 && has(b, ascii('PAR1'), b.length - 4) },
  { id: 'avro', what: 'an Avro container file', test: (b) => has(b, [...ascii('Obj'), 0x01]) },
];

/** The type the bytes start like, or null. */
export function fileTypeOf(bytes: Uint8Array): FileType | null {
  if (!(bytes instanceof Uint8Array)) throw new TypeError('fileTypeOf: bytes must be a Uint8Array');
  if (startsLikeMap(bytes)) return null;
  const t = TYPES.find((type) => type.test(bytes));
  return t ? { id: t.id, what: t.what } : null;
}

/** Every file type known, by id (for tests and docs). */
export const FILE_TYPE_IDS: readonly string[] = TYPES.map((t) => t.id);

export const fileType: Importer<FileType> = {
  format: 'file',
  detect: (source: Source) => fileTypeOf(source.bytes),
  read: (source, type) => ({
    format: `file(${type.id})`,
    records: [
      finishRecord(
        failedRecord(source.place, 0, 'unknown', [0, source.bytes.length], {
          code: 'input/unrecognized',
          message: `${type.what}, not an agent record`,
          offset: 0,
        }),
      ),
    ],
    workflows: [],
  }),
};
