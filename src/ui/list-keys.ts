/**
 * React keys for a list whose items carry no id of their own: each item's `identity` (its content),
 * numbered when it repeats ("2:…" for the second of the same), so a key stays with its item, not its position.
 */
export function withKeys<T>(items: readonly T[], identity: (item: T) => string): { key: string; item: T }[] {
  const seen = new Map<string, number>();
  return items.map((item) => {
    const id = identity(item);
    const n = (seen.get(id) ?? 0) + 1;
    seen.set(id, n);
    return { key: `${n}:${id}`, item };
  });
}
