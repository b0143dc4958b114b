import { hashKey, partialMatchKey } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { queryKeys } from './query-keys';

describe('queryKeys', () => {
  // An invalidation by a family's prefix reaches its queries and no other family's.
  const families = [
    { prefix: queryKeys.details(), keys: [queryKeys.detail(0), queryKeys.detail(41)] },
    { prefix: queryKeys.graphs(), keys: [queryKeys.graph(1, []), queryKeys.graph(2, ['stream:a'])] },
    { prefix: queryKeys.allFolds(), keys: [queryKeys.folds(1, null), queryKeys.folds(3, 17)] },
    { prefix: queryKeys.timelines(), keys: [queryKeys.timeline(1), queryKeys.timeline(2)] },
    { prefix: queryKeys.allRules(), keys: [queryKeys.rules(1), queryKeys.rules(2)] },
    { prefix: queryKeys.comparisons(), keys: [queryKeys.compare(1, { scope: 'records', a: 0, b: 1 }), queryKeys.compareCandidates(1, 'x', 0)] },
  ];

  it("each family's prefix matches its own keys only", () => {
    for (const family of families) {
      for (const other of families) {
        for (const key of other.keys) expect(partialMatchKey(key, family.prefix)).toBe(family === other);
      }
    }
  });

  it('keys of different arguments are different queries; the same arguments, the same query', () => {
    const distinct = [
      queryKeys.detail(1),
      queryKeys.detail(2),
      queryKeys.graph(1, []),
      queryKeys.graph(1, ['a']),
      queryKeys.graph(2, []),
      queryKeys.folds(1, null),
      queryKeys.folds(1, 0),
      queryKeys.folds(2, null),
      queryKeys.timeline(1),
      queryKeys.timeline(2),
      queryKeys.rules(1),
      queryKeys.rules(2),
      queryKeys.share(1, { tab: 'records' }, false, undefined),
      queryKeys.share(1, { tab: 'graph' }, false, undefined),
      queryKeys.share(1, { tab: 'records' }, true, undefined),
      queryKeys.share(1, { tab: 'records' }, true, 'include'),
      queryKeys.share(2, { tab: 'records' }, false, undefined),
      queryKeys.share(2, { tab: 'records' }, false, undefined, 'selected'),
      queryKeys.share(2, { tab: 'records' }, false, undefined, 'filtered'),
    ];
    expect(new Set(distinct.map(hashKey)).size).toBe(distinct.length);
    expect(hashKey(queryKeys.graph(1, ['a', 'b']))).toBe(hashKey(queryKeys.graph(1, ['a', 'b'])));
  });
});
