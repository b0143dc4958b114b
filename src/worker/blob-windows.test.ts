// A large CBOR sequence dropped on the page is read in windows (blob-windows.ts, core/inspect.ts
// inspectWindowBatches): the first rows wait for one window, and what the session then holds and
// reports is what reading the file whole gives, to the byte.
import { describe, expect, it, vi } from 'vitest';
import { agdxSequence } from '../../test/support/generate';
import { BlobWindows } from './blob-windows';
import { InspectorSession } from './session';

/** Loads `bytes` streamed, read in windows of `window` bytes (whole when it is larger than the file). */
async function streamed(bytes: Uint8Array, window: number) {
  const session = new InspectorSession(undefined, undefined, undefined, window);
  const sent: number[] = [];
  const reads: number[] = [];
  const result = await session.load([{ name: 'log.cborseq', data: new CountedBlob([bytes.slice()], reads) }], {
    batch: (b) => sent.push(...b.records.map((r) => r.key)),
  });
  return { session, sent, reads, result, report: session.report().json, summaries: session.state.records.map((_, k) => session.state.summaryOf(k)) };
}

const whole = (bytes: Uint8Array) => streamed(bytes, Number.MAX_SAFE_INTEGER);

describe('a large CBOR sequence read in windows', () => {
  const log = agdxSequence(1500, { signedEvery: 50 });
  const cases: Array<[string, Uint8Array]> = [
    ['a whole log', log],
    ['a log whose last item is cut short', log.subarray(0, log.length - 9)],
    ['a log with a malformed item in the middle', Uint8Array.from([...log.subarray(0, 150_000), 0xa2, 0x1c, ...log.subarray(150_000)])],
    ['a log of 0.7 records', agdxSequence(1000, { dialect: '0.7' })],
  ];
  for (const [what, bytes] of cases) {
    it(`${what}: the same records, findings, digest and format as read whole`, async () => {
      const expected = await whole(bytes);
      for (const window of [4099, 65_536]) {
        const got = await streamed(bytes, window);
        expect(got.report, `window ${window}`).toBe(expected.report);
        expect(got.summaries, `window ${window}`).toEqual(expected.summaries);
        expect(got.sent).toEqual(got.summaries.map((_, k) => k));
        expect(got.session.state.inputBytes[0]).toEqual(bytes);
        // Read in windows (the first four bytes to decide, then a slice a window), not whole.
        expect(got.reads.length, `window ${window}`).toBe(1 + Math.ceil(bytes.length / window));
      }
    });
  }

  it('a file that does not read as a CBOR sequence is read whole (JSON, an Iggy header block)', async () => {
    const json = new TextEncoder().encode(`[${Array.from({ length: 2000 }, (_, i) => `{"n":${i}}`).join(',')}]`);
    for (const bytes of [json, Uint8Array.from([0x02, 0, 0, 0, ...log.subarray(0, 20_000)])]) {
      const a = await streamed(bytes, 1024);
      expect(a.report).toBe((await whole(bytes)).report);
      expect(a.reads).toEqual([0]);
    }
  });

  it('asks again once a window is read, reads two chunks ahead of what was asked for, and a file that ends early is an error, not zeros', async () => {
    const bytes = Uint8Array.from({ length: 10_000 }, (_, i) => i & 0xff);
    const reads: number[] = [];
    const counted = new CountedBlob([bytes], reads);
    const windows = new BlobWindows(counted, 1000);
    const first = windows.window(0, 1000);
    expect(first).toBeInstanceOf(Promise);
    await first;
    expect(windows.window(0, 1000)).toBe(windows.bytes);
    // Two chunks ahead of the furthest byte asked for (1,000), then it waits for the reader.
    await vi.waitFor(() => expect(reads).toEqual([0, 1000, 2000]));
    await windows.window(0, 3500);
    await vi.waitFor(() => expect(reads).toEqual([0, 1000, 2000, 3000, 4000, 5000]));
    await windows.settle();
    expect(reads).toHaveLength(10);
    expect(windows.bytes).toEqual(bytes);

    // A Blob whose reads come back empty before its size: the file changed under the reader.
    const shrunk = { size: 5000, slice: () => new Blob([]) } as unknown as Blob;
    const broken = new BlobWindows(shrunk, 1000);
    await expect(broken.settle()).rejects.toThrow('the file ended at byte 0, before its size (5000)');
    expect(() => broken.window(0, 200)).toThrow('the file ended at byte 0');
  });
});

/** A Blob that notes where each slice starts. */
class CountedBlob extends Blob {
  constructor(
    parts: BlobPart[],
    private readonly reads: number[],
  ) {
    super(parts);
  }
  slice(start?: number, end?: number): Blob {
    this.reads.push(start ?? 0);
    return super.slice(start, end);
  }
}
