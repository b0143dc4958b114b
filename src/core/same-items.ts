// Whether two lists hold the same items in the same order: member-name lists (the report writer),
// dialect evidence (the streamed report's columns), a signature's uncovered fields.

/** Whether `a` and `b` have the same length and the same items (===) in the same order. */
export function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
