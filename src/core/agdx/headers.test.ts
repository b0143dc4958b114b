import { describe, expect, it } from 'vitest';
import { toCrockford, toHex } from '../bytes';
import { crockfordBytes } from './headers';

describe('crockfordBytes', () => {
  it("reads a header's 26-character id in either case, and nothing else", () => {
    const id = Uint8Array.from({ length: 16 }, (_, i) => i * 17);
    const text = toCrockford(id);
    expect(toHex(crockfordBytes(text)!)).toBe(toHex(id));
    expect(toHex(crockfordBytes(text.toLowerCase())!)).toBe(toHex(id));
    for (const not of ['', text.slice(1), `${text}0`, `8${text.slice(1)}`, `${text.slice(0, 25)}U`]) expect(crockfordBytes(not)).toBeNull();
  });
});
