// Where a comparison lists what is only on B: each after the pair holding the last matched B item
// before it (in A's order), so both sides read in their own order; those before any match lead.
// Shared by the workflow (envelopes) and log (records) comparisons.

export interface BOnlyPlaces {
  /** B-only items before any matched B item, in B's order. */
  lead: number[];
  /** B-only items by the A index they follow, each list in B's order. */
  after: Map<number, number[]>;
}

/**
 * Places B's unmatched items. `partner[i]` is the B index matched with A's i-th item, or -1;
 * `bCount` is how many items B has. A B-only item goes after the latest A index matched so far
 * in B's order.
 */
export function placeBOnly(partner: readonly number[], bCount: number): BOnlyPlaces {
  const matchedB = new Map<number, number>();
  partner.forEach((j, i) => {
    if (j >= 0) matchedB.set(j, i);
  });
  const lead: number[] = [];
  const after = new Map<number, number[]>();
  let lastA = -1;
  for (let j = 0; j < bCount; j++) {
    const i = matchedB.get(j);
    if (i !== undefined) lastA = Math.max(lastA, i);
    else if (lastA < 0) lead.push(j);
    else {
      const list = after.get(lastA);
      if (list) list.push(j);
      else after.set(lastA, [j]);
    }
  }
  return { lead, after };
}
