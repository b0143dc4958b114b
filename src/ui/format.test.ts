import { describe, expect, it } from 'vitest';
import { groupDigits } from './format';

describe('groupDigits', () => {
  it('groups by thousands like en-US', () => {
    for (const n of [0, 7, 999, 1000, 12345, 100000, 1234567, -1, -1000, -987654321, 2 ** 53]) {
      expect(groupDigits(n), String(n)).toBe(n.toLocaleString('en-US'));
    }
  });
});
