import { describe, expect, it } from 'vitest';
import { clampSplit, SPLIT_DEFAULT, SPLIT_MAX, SPLIT_MIN, splitAfterKey } from './use-split';

describe('the panel / detail split', () => {
  it('moves by keys and stays within its bounds', () => {
    expect(splitAfterKey(0.5, 'ArrowUp')).toBeCloseTo(0.45);
    expect(splitAfterKey(0.5, 'ArrowDown')).toBeCloseTo(0.55);
    expect(splitAfterKey(0.5, 'PageDown')).toBeCloseTo(0.65);
    expect(splitAfterKey(0.5, 'Home')).toBe(SPLIT_MIN);
    expect(splitAfterKey(0.5, 'End')).toBe(SPLIT_MAX);
    expect(splitAfterKey(SPLIT_MIN, 'ArrowUp')).toBe(SPLIT_MIN);
    expect(splitAfterKey(SPLIT_MAX, 'PageDown')).toBe(SPLIT_MAX);
    expect(splitAfterKey(0.5, 'a')).toBeNull();
  });

  it('a stored value that is not a share falls back or is clamped', () => {
    expect(clampSplit(Number('x'))).toBe(SPLIT_DEFAULT);
    expect(clampSplit(5)).toBe(SPLIT_MAX);
    expect(clampSplit(-1)).toBe(SPLIT_MIN);
  });
});
