import { describe, expect, it } from 'vitest';
import { sameItems } from './same-items';

describe('sameItems', () => {
  it('compares length and each item by identity, in order', () => {
    const list = ['a', 'b'];
    expect(sameItems(list, list)).toBe(true);
    expect(sameItems(['a', 'b'], ['a', 'b'])).toBe(true);
    expect(sameItems([], [])).toBe(true);
    expect(sameItems(['a', 'b'], ['b', 'a'])).toBe(false);
    expect(sameItems(['a'], ['a', 'b'])).toBe(false);
    expect(sameItems([{}], [{}])).toBe(false);
    expect(sameItems([Number.NaN], [Number.NaN])).toBe(false);
  });
});
