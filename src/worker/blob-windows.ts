// A dropped file read in windows (core/inspect.ts WindowSource): the first records wait for the
// first window only, the rest is read into one buffer of the file's size a few windows ahead
// of the reader, so the first rows of a 200 MB sequence show after a few megabytes, not after the
// whole file, and the reading stops while the reader does (the page's first layout is not shared
// with a file being read).
import type { WindowSource } from '../core/inspect';

interface Waiter {
  to: number;
  resolve: () => void;
  reject: (e: unknown) => void;
}

/** Chunks read ahead of the furthest byte the reader has asked for. */
const AHEAD = 2;

export class BlobWindows implements WindowSource {
  readonly size: number;
  /** The whole input, filled from the start as it is read (what the session keeps as its bytes). */
  readonly bytes: Uint8Array;
  private filled: number;
  /** Read up to here before waiting for the reader to ask for more. */
  private wanted: number;
  private failure: unknown = null;
  private waiters: Waiter[] = [];
  /** Wakes the reading loop when `wanted` moves past what is filled. */
  private wake: (() => void) | null = null;
  private readonly done: Promise<void>;

  /** `chunk`: bytes read at a time. */
  constructor(
    blob: Blob,
    private readonly chunk: number,
  ) {
    if (!(chunk >= 1)) throw new TypeError('BlobWindows: chunk must be at least 1');
    this.size = blob.size;
    this.bytes = new Uint8Array(blob.size);
    this.filled = 0;
    this.wanted = AHEAD * chunk;
    this.done = this.fill(blob);
    // A failure reaches the reader through window(); settle() reports it too.
    this.done.catch(() => {});
  }

  window(_from: number, to: number): Uint8Array | Promise<void> {
    this.want(to + AHEAD * this.chunk);
    if (to <= this.filled) return this.bytes;
    if (this.failure !== null) throw this.failure;
    return new Promise((resolve, reject) => this.waiters.push({ to, resolve, reject }));
  }

  /** Reads the rest of the file; resolves once it is all in `bytes` (or rejects with why it could not be read). */
  settle(): Promise<void> {
    this.want(this.size);
    return this.done;
  }

  private want(to: number): void {
    if (to <= this.wanted) return;
    this.wanted = to;
    this.wake?.();
  }

  private async fill(blob: Blob): Promise<void> {
    try {
      while (this.filled < this.size) {
        if (this.filled >= this.wanted) {
          await new Promise<void>((resolve) => (this.wake = resolve));
          this.wake = null;
          continue;
        }
        const part = new Uint8Array(await blob.slice(this.filled, Math.min(this.size, this.filled + this.chunk)).arrayBuffer());
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
