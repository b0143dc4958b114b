// The skipper (skip.ts) ends every item where the reader (reader.ts) does, refuses what it refuses,
// and finds a map's entries where the reader's item tree puts them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeModel, modelArb, params, styleArb, type Model } from '../../../test/support/fuzz';
import { agdxSequence } from '../../../test/support/generate';
import { fromHex } from '../bytes';
import { readItemAt, untag } from './reader';
import { itemEnd, mapEntrySpan } from './skip';

const hex = (h: string) => fromHex(h.replace(/\s/g, ''))!;

/** The span of the last entry whose key (untagged) is the text `name`, as the item tree has it; undefined when the bytes do not read as a map. */
function treeSpan(bytes: Uint8Array, start: number, name: string): [number, number] | null | undefined {
  const item = readItemAt(bytes, start);
  if (!item.ok) return undefined;
  const root = untag(item.value);
  if (root.kind !== 'map') return undefined;
  for (let i = root.entries.length - 1; i >= 0; i--) {
    const k = untag(root.entries[i].key);
    if (k.kind === 'text' && k.value === name) return [root.entries[i].value.start, root.entries[i].value.end];
  }
  return null;
}

describe('itemEnd', () => {
  it('ends any well-formed item, written in any variant, where the reader ends it', () => {
    fc.assert(
      fc.property(modelArb(), styleArb, (m, style) => {
        const bytes = encodeModel(m, style);
        const read = readItemAt(bytes, 0);
        expect(read.ok).toBe(true);
        expect(itemEnd(bytes, 0)).toBe(read.ok && read.value.end);
        // Followed by more bytes, and read from inside a larger buffer.
        const padded = new Uint8Array(bytes.length + 5);
        padded.set(bytes, 3);
        expect(itemEnd(padded, 3)).toBe(3 + bytes.length);
      }),
      params('skip item end', 0.25),
    );
  });

  it('finds no end where the reader finds the item cut short', () => {
    fc.assert(
      fc.property(modelArb(), styleArb, (m, style) => {
        const bytes = encodeModel(m, style);
        for (let cut = 0; cut < bytes.length; cut++) {
          expect(readItemAt(bytes.subarray(0, cut), 0).ok).toBe(false);
          expect(itemEnd(bytes, 0, cut)).toBe(-1);
        }
      }),
      params('skip truncated', 0.05),
    );
  });

  it('ends each envelope of a generated sequence, and refuses what is not well-formed', () => {
    const seq = agdxSequence(300, { dialect: '0.7' });
    let n = 0;
    for (let pos = 0; pos < seq.length; n++) {
      const read = readItemAt(seq, pos);
      if (!read.ok) throw new Error('the generated sequence reads');
      expect(itemEnd(seq, pos)).toBe(read.value.end);
      pos = read.value.end;
    }
    expect(n).toBe(300);
    for (const bad of [
      'ff', // a break where no item may stand
      '1c', // a reserved additional information
      '5f 61 61 ff', // a text chunk inside an indefinite byte string
      '7f 7f ff ff', // an indefinite chunk inside an indefinite text
      'bf 61 61 ff', // an indefinite map ending after a key
      'f8 10', // a one-byte simple value below 32
      'c1 ff', // a tag of a break
      '1f', // an indefinite integer
      '9b 00 00 00 01 00 00 00 00', // more items than bytes
      '81'.repeat(200) + '00', // nested deeper than the reader follows
    ]) {
      expect(readItemAt(hex(bad), 0).ok, bad).toBe(false);
      expect(itemEnd(hex(bad), 0), bad).toBe(-1);
    }
    expect(() => itemEnd(seq, -1)).toThrow(TypeError);
  });
});

describe('mapEntrySpan', () => {
  it('locates each field of every envelope of a generated sequence where the item tree does', () => {
    const seq = agdxSequence(200, { dialect: '0.7' });
    let located = 0;
    for (let pos = 0; pos < seq.length; ) {
      const end = itemEnd(seq, pos);
      const item = readItemAt(seq, pos);
      if (!item.ok || item.value.kind !== 'map') throw new Error('the generated sequence reads as maps');
      for (const e of item.value.entries) {
        const name = e.key.kind === 'text' ? e.key.value : '';
        expect(mapEntrySpan(seq, pos, end, name), name).toEqual([e.value.start, e.value.end]);
        located++;
      }
      for (const name of ['usage', 'tool', 'no_such_field']) expect(mapEntrySpan(seq, pos, end, name)).toEqual(treeSpan(seq, pos, name));
      pos = end;
    }
    expect(located).toBeGreaterThan(2000);
  });

  it('finds the last of repeated keys, in a map of any variant, as the tree does; leaves tagged maps and keys to the tree', () => {
    const text = (v: string): Model => ({ t: 'text', v });
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('kind', 'source', 'body', 'x'), modelArb(2)), { maxLength: 6 }), styleArb, (entries, style) => {
        const bytes = encodeModel({ t: 'map', entries: entries.map(([k, v]) => [text(k), v]) }, style);
        for (const name of ['kind', 'source', 'body', 'x', 'none']) {
          const plain = mapEntrySpan(bytes, 0, bytes.length, name);
          // An indefinite-length text key is left to the tree; otherwise the answer is the tree's.
          if (plain !== undefined) expect(plain, name).toEqual(treeSpan(bytes, 0, name));
        }
        if (!style.indefinite(1))
          for (const name of ['kind', 'x', 'none']) expect(mapEntrySpan(bytes, 0, bytes.length, name)).toEqual(treeSpan(bytes, 0, name));
      }),
      params('skip map entries', 0.25),
    );
    // A tagged map; a tagged key; an indefinite-length text key; not a map; not well-formed.
    for (const undecided of ['d8 20 a1 61 61 01', 'a1 c0 61 61 01', 'a1 7f 61 61 ff 01', '81 00', 'a1 61 61', 'a2 61 61 01 ff']) {
      expect(mapEntrySpan(hex(undecided), 0, hex(undecided).length, 'a'), undecided).toBeUndefined();
    }
    // The last of two entries named `a`: the tree's answer too.
    const twice = hex('a2 61 61 01 61 61 02');
    expect(mapEntrySpan(twice, 0, twice.length, 'a')).toEqual([6, 7]);
    expect(treeSpan(twice, 0, 'a')).toEqual([6, 7]);
  });
});
