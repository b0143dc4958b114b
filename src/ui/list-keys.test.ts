import { describe, expect, it } from 'vitest';
import { withKeys } from './list-keys';

describe('withKeys', () => {
  it('gives each item a key from its content, numbering repeats, and keeps the order', () => {
    const keyed = withKeys(['a', '[...]', 'b', '[...]', 'a'], (s) => s);
    expect(keyed.map((k) => k.key)).toEqual(['1:a', '1:[...]', '1:b', '2:[...]', '2:a']);
    expect(keyed.map((k) => k.item)).toEqual(['a', '[...]', 'b', '[...]', 'a']);
    expect(new Set(keyed.map((k) => k.key)).size).toBe(5);
  });

  it('a key stays with its item when another is inserted before it (unless it repeats that one)', () => {
    const before = withKeys(['x', 'y'], (s) => s);
    const after = withKeys(['w', 'x', 'y'], (s) => s);
    expect(after.slice(1).map((k) => k.key)).toEqual(before.map((k) => k.key));
  });
});
