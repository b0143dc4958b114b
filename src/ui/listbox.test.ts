import { describe, expect, it } from 'vitest';
import { isListboxKey, listboxTarget } from './listbox';

describe('the listbox keys', () => {
  it('move one item, a page, or to either end, clamped to the list', () => {
    expect(listboxTarget('ArrowDown', 3, 10, 4)).toBe(4);
    expect(listboxTarget('ArrowUp', 3, 10, 4)).toBe(2);
    expect(listboxTarget('PageDown', 3, 10, 4)).toBe(7);
    expect(listboxTarget('PageDown', 8, 10, 4)).toBe(9);
    expect(listboxTarget('PageUp', 3, 10, 4)).toBe(0);
    expect(listboxTarget('PageUp', 9, 10, 4)).toBe(5);
    expect(listboxTarget('Home', 7, 10, 4)).toBe(0);
    expect(listboxTarget('End', 0, 10, 4)).toBe(9);
    expect(listboxTarget('ArrowDown', 9, 10, 4)).toBe(9);
    expect(listboxTarget('ArrowUp', 0, 10, 4)).toBe(0);
  });

  it('start at the first item when nothing is selected (a filter hid it), End at the last', () => {
    for (const key of ['ArrowDown', 'ArrowUp', 'PageDown', 'PageUp', 'Home']) expect(listboxTarget(key, -1, 10, 4)).toBe(0);
    expect(listboxTarget('End', -1, 10, 4)).toBe(9);
    // A selection past the end (the list shrank) comes back inside it.
    expect(listboxTarget('ArrowUp', 40, 10, 4)).toBe(8);
  });

  it('leave other keys and empty lists alone; a page is at least one item', () => {
    expect(listboxTarget('Enter', 3, 10, 4)).toBeNull();
    expect(listboxTarget('ArrowDown', -1, 0, 4)).toBeNull();
    expect(listboxTarget('PageDown', 3, 10, 0)).toBe(4);
    expect(isListboxKey('End')).toBe(true);
    expect(isListboxKey('a')).toBe(false);
    expect(() => listboxTarget('End', 0.5, 10, 4)).toThrow(TypeError);
  });
});
