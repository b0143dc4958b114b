// A count with its noun, as every message and label words one: `1 record`, `3 records`, `2 entries`.

/** `n` and `one` (n = 1) or `many` (any other n; `one` + "s" unless given). */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
