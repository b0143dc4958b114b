// A file over bytes for the streamed report's tests (cli/stream.ts RandomAccessFile), noting how it was read.
import type { RandomAccessFile } from '../../src/cli/stream';

export interface MemoryFile extends RandomAccessFile {
  /** The most bytes one read asked for. */
  largest: number;
  /** Reads into a buffer shorter than the input up to the bytes read (not a view of the input's positions). */
  relative: number;
}

export function memoryFile(bytes: Uint8Array): MemoryFile {
  const file: MemoryFile = {
    size: bytes.length,
    largest: 0,
    relative: 0,
    read(buffer, offset, length, position) {
      const n = Math.min(length, bytes.length - position);
      buffer.set(bytes.subarray(position, position + n), offset);
      file.largest = Math.max(file.largest, n);
      if (buffer.length < position + n) file.relative++;
      return n;
    },
    close() {},
  };
  return file;
}
