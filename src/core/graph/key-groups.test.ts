import { describe, expect, it } from 'vitest';
import { KeyGroups, NumberGroups } from './key-groups';

describe('KeyGroups', () => {
  it('groups members by key in the order added', () => {
    const g = new KeyGroups(6);
    g.add('b', 0);
    g.add('a', 1);
    g.add('b', 2);
    g.add('c', 3);
    g.add('b', 5);
    expect(g.groups).toBe(3);
    expect(g.members(g.group('b'))).toEqual([0, 2, 5]);
    expect(g.members(g.group('a'))).toEqual([1]);
    expect(g.size(g.group('b'))).toBe(3);
    expect(g.first(g.group('c'))).toBe(3);
    expect(g.next(3)).toBe(-1);
    expect(g.group('d')).toBe(-1);
    expect(g.members(-1)).toEqual([]);
  });

  it('agrees with a Map of arrays on many colliding keys', () => {
    const n = 5000;
    const g = new KeyGroups(n);
    const ref = new Map<string, number[]>();
    for (let m = 0; m < n; m++) {
      const key = `k${(m * 7919) % 1237}`;
      g.add(key, m);
      const list = ref.get(key);
      if (list) list.push(m);
      else ref.set(key, [m]);
    }
    expect(g.groups).toBe(ref.size);
    for (const [key, list] of ref) expect(g.members(g.group(key))).toEqual(list);
  });

  it('throws on a member out of range', () => {
    expect(() => new KeyGroups(2).add('a', 2)).toThrow(TypeError);
    expect(() => new KeyGroups(0).add('a', 0)).toThrow(TypeError);
    expect(() => new KeyGroups(-1)).toThrow(TypeError);
    expect(() => new KeyGroups(2, 3)).toThrow(TypeError);
    const few = new KeyGroups(100, 2);
    few.add('a', 70);
    few.add('a', 99);
    expect(few.members(few.group('a'))).toEqual([70, 99]);
    expect(() => few.add('b', 1)).toThrow(TypeError);
  });
});

describe('NumberGroups', () => {
  it('groups members by their key number in the order added, as a Map of arrays does', () => {
    const n = 5000;
    const g = new NumberGroups(1237, n);
    const ref = new Map<number, number[]>();
    for (let m = 0; m < n; m++) {
      const key = (m * 7919) % 1237;
      g.add(key, m);
      ref.set(key, [...(ref.get(key) ?? []), m]);
    }
    for (let key = 0; key < 1237; key++) {
      expect(g.members(g.group(key))).toEqual(ref.get(key) ?? []);
      expect(g.size(key)).toBe(ref.get(key)?.length ?? 0);
    }
  });

  it('has no group for a key without members, nor for −1', () => {
    const g = new NumberGroups(3, 2);
    g.add(2, 1);
    expect(g.group(0)).toBe(-1);
    expect(g.group(-1)).toBe(-1);
    expect(g.group(2)).toBe(2);
    expect(g.members(2)).toEqual([1]);
    expect(g.members(-1)).toEqual([]);
  });

  it('throws on a key or member out of range', () => {
    expect(() => new NumberGroups(2, 2).add(2, 0)).toThrow(TypeError);
    expect(() => new NumberGroups(2, 2).add(0, 2)).toThrow(TypeError);
    expect(() => new NumberGroups(-1, 0)).toThrow(TypeError);
  });
});
