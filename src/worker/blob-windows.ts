// A dropped file read in windows (core/inspect.ts WindowSource): the first window is there before
// the first record is read, the rest is read in the background into one buffer of the file's size,
// so the first rows of a 200 MB sequence show after a few megabytes, not after the whole file.
import type { WindowSource } from '../core/inspect';

interface Waiter {
  to: number;
  resolve: () => void;
  reject: (e: unknown) => void;
}

export class BlobWindows implements WindowSource {
  readonly size: number;
  /** The whole input, filled from the start as it is read (what the session keeps as its bytes). */
  readonly bytes: Uint8Array;
  private filled: number;
  private failure: unknown = null;
  private waiters: Waiter[] = [];
  private readonly done: Promise<void>;

  /** `head`: the file's first bytes, already read; `chunk`: bytes read at a time after them. */
  constructor(blob: Blob, head: Uint8Array, chunk: number) {
    if (!(chunk >= 1)) throw new TypeError('BlobWindows: chunk must be at least 1');
    this.size = blob.size;
    this.bytes = new Uint8Array(blob.size);
    this.bytes.set(head.subarray(0, blob.size));
    this.filled = Math.min(head.length, blob.size);
    this.done = this.fill(blob, chunk);
    // A failure reaches the reader through window(); settle() reports it too.
    this.done.catch(() => {});
  }

  window(_from: number, to: number): Uint8Array | Promise<void> {
    if (to <= this.filled) return this.bytes;
    if (this.failure !== null) throw this.failure;
    return new Promise((resolve, reject) => this.waiters.push({ to, resolve, reject }));
  }

  /** Resolves once the whole file is in `bytes` (or rejects with why it could not be read). */
  settle(): Promise<void> {
    return this.done;
  }

  private async fill(blob: Blob, chunk: number): Promise<void> {
    try {
      while (this.filled < this.size) {
        const part = new Uint8Array(await blob.slice(this.filled, Math.min(this.size, this.filled + chunk)).arrayBuffer());
        if (part.length === 0) throw new Error(`the file ended at byte ${this.filled}, before its size (${this.size}): did it change while read?`);
        this.bytes.set(part, this.filled);
        this.filled += part.length;
        this.waiters = this.waiters.filter((w) => (w.to <= this.filled ? (w.resolve(), false) : true));
      }
    } catch (e) {
      this.failure = e;
      for (const w of this.waiters) w.reject(e);
      this.waiters = [];
      throw e;
    }
  }
}
