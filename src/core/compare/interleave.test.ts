import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { placeBOnly } from './interleave';

describe('placeBOnly', () => {
  it('leads with B items before any match and puts the rest after the latest matched A item', () => {
    // A: 0 1 2; B: 0 1 2 3 4 5. A0↔B2, A2↔B4, A1 unmatched; B 0,1 lead, B3 after A0, B5 after A2.
    const { lead, after } = placeBOnly([2, -1, 4], 6);
    expect(lead).toEqual([0, 1]);
    expect([...after]).toEqual([
      [0, [3]],
      [2, [5]],
    ]);
  });

  it('keeps the latest A index when the matches cross, and lists many in B order', () => {
    // A0↔B3, A1↔B0: B0 makes the latest A index 1, and B3 (A0) does not lower it.
    const { lead, after } = placeBOnly([3, 0], 6);
    expect(lead).toEqual([]);
    expect([...after]).toEqual([[1, [1, 2, 4, 5]]]);
  });

  it('with nothing matched, every B item leads', () => {
    expect(placeBOnly([-1, -1], 3)).toEqual({ lead: [0, 1, 2], after: new Map() });
    expect(placeBOnly([], 0)).toEqual({ lead: [], after: new Map() });
  });

  it('places each B-only item once, in B order, after an A index matched before it in B', () => {
    const matching = fc.integer({ min: 0, max: 12 }).chain((nb) =>
      fc
        .tuple(fc.uniqueArray(fc.integer({ min: 0, max: Math.max(0, nb - 1) }), { maxLength: nb }), fc.nat(4))
        .chain(([js, unmatched]) => {
          const all = [...js, ...new Array<number>(unmatched).fill(-1)];
          return fc.shuffledSubarray(all, { minLength: all.length });
        })
        .map((partner) => ({ nb, partner })),
    );
    fc.assert(
      fc.property(matching, ({ nb, partner }) => {
        const { lead, after } = placeBOnly(partner, nb);
        const matched = new Set(partner.filter((j) => j >= 0));
        const placed = [...lead, ...[...after.values()].flat()];
        expect(placed.sort((x, y) => x - y)).toEqual(Array.from({ length: nb }, (_, j) => j).filter((j) => !matched.has(j)));
        for (const [i, js] of after) {
          expect(js).toEqual([...js].sort((x, y) => x - y));
          // The A item each follows is matched with a B item before it, and no later A index is.
          for (const j of js) {
            const before = partner.map((pj, ai) => (pj >= 0 && pj < j ? ai : -1));
            expect(Math.max(...before)).toBe(i);
          }
        }
        for (const j of lead) expect(partner.some((pj) => pj >= 0 && pj < j)).toBe(false);
      }),
    );
  });
});
