import { describe, expect, it } from 'vitest';
import { shortDid, shortened, shortHash, shortId } from './short-id';

describe('shortId', () => {
  it('keeps the start and the end of a long id', () => {
    expect(shortId('01J0Y1ZAG00000000000000001')).toBe('01J0Y1…0001');
    expect(shortId('c9c4b641dc414a6c184a8635174f9db62d2293a50faf141a9da4560d1bced1e6')).toBe('c9c4b6…d1e6');
  });

  it('ids that differ at the end stay apart (the graph used to show 01J0Y1ZAG000… for all of them)', () => {
    const ids = ['01J0Y1ZAG00000000000000001', '01J0Y1ZAG00000000000000002', '01J0Y1ZAG0000000000000008A'];
    expect(new Set(ids.map(shortId)).size).toBe(ids.length);
  });

  it('an id short enough to show whole is shown whole', () => {
    expect(shortId('')).toBe('');
    expect(shortId('rec:0:5')).toBe('rec:0:5');
    expect(shortId('01234567890')).toBe('01234567890');
    expect(shortId('012345678901')).toBe('012345…8901');
  });

  it('never cuts a surrogate pair', () => {
    const s = '😀'.repeat(20);
    expect(shortId(s)).toBe(`${'😀'.repeat(6)}…${'😀'.repeat(4)}`);
    expect(shortId('😀'.repeat(11))).toBe('😀'.repeat(11));
  });

  it('misuse throws', () => {
    expect(() => shortId(null as unknown as string)).toThrow(TypeError);
  });
});

describe('the other forms', () => {
  const did = 'bafybmifq2ptw3nrzjm3gwxz6mbhyjwbjvgajd4ajhxtlugvv2qhvxf4kpe';
  const hash = 'c9c4b641dc414a6c184a8635174f9db62d2293a50faf141a9da4560d1bced1e6';

  it('a DID keeps 12 characters of its start and 6 of its end; a hash 12 of its start', () => {
    expect(shortDid(did)).toBe('bafybmifq2pt…xf4kpe');
    expect(shortHash(hash)).toBe('c9c4b641dc41…');
    expect(shortened(hash, 14, 0)).toBe('c9c4b641dc414a…');
  });

  it('shows whole what fits, and never cuts a surrogate pair', () => {
    expect(shortHash('0123456789abc')).toBe('0123456789abc');
    expect(shortDid('😀'.repeat(30))).toBe(`${'😀'.repeat(12)}…${'😀'.repeat(6)}`);
    expect(shortHash('😀'.repeat(30))).toBe(`${'😀'.repeat(12)}…`);
  });
});
