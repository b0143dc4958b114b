// Strings a log repeats (conversations, agents, operations, correlations, channels, kinds), each
// kept once and named by its number: a column of numbers instead of a pointer per record.

export class StringTable {
  readonly strings: string[] = [];
  private readonly ids = new Map<string, number>();

  /** The number of `s` (given one now when new); -1 for null or undefined. */
  id(s: string | null | undefined): number {
    if (s === null || s === undefined) return -1;
    let i = this.ids.get(s);
    if (i === undefined) {
      i = this.strings.length;
      this.strings.push(s);
      this.ids.set(s, i);
    }
    return i;
  }

  /** The string numbered `i`; null for -1. */
  at(i: number): string | null {
    return i < 0 ? null : this.strings[i];
  }
}
