// Members (numbers below a bound, each added once) grouped by a key, in the order they were added:
// chains over typed arrays (NumberGroups, for keys numbered already), with an open-addressing table
// in front for string keys (KeyGroups); not a Map of arrays (a large log has a million records to
// group; a Map of arrays costs about ten times as much).

/** FNV-1a over UTF-16 code units. */
function hashOf(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export class KeyGroups implements Groups {
  /** Per slot: group + 1, or 0 when empty. */
  private readonly table: Int32Array;
  private readonly mask: number;
  private readonly keys: string[] = [];
  /** The members of each group, by the group's number (a key's, in the order keys came). */
  private readonly chains: NumberGroups;

  private added = 0;

  /** Members are 0 … bound − 1; at most `capacity` of them are added (default: all). */
  constructor(
    readonly bound: number,
    readonly capacity = bound,
  ) {
    if (!Number.isInteger(bound) || bound < 0 || !Number.isInteger(capacity) || capacity < 0 || capacity > bound) {
      throw new TypeError('KeyGroups: bound and capacity must be counts, the capacity at most the bound');
    }
    let size = 16;
    while (size < capacity * 2) size *= 2;
    this.table = new Int32Array(size);
    this.mask = size - 1;
    this.chains = new NumberGroups(capacity, bound);
  }

  /** How many keys. */
  get groups(): number {
    return this.keys.length;
  }

  private slot(key: string): number {
    let i = hashOf(key) & this.mask;
    for (;;) {
      const g = this.table[i];
      if (g === 0 || this.keys[g - 1] === key) return i;
      i = (i + 1) & this.mask;
    }
  }

  /** Adds `member` to the group of `key` (made when new), at its end. */
  add(key: string, member: number): void {
    if (!(member >= 0 && member < this.bound)) throw new TypeError('KeyGroups.add: member out of range');
    if (this.added >= this.capacity) throw new TypeError('KeyGroups.add: more members than the capacity');
    this.added++;
    const i = this.slot(key);
    let g = this.table[i] - 1;
    if (g < 0) {
      g = this.keys.length;
      this.keys.push(key);
      this.table[i] = g + 1;
    }
    this.chains.add(g, member);
  }

  /** The group of `key`, or −1. */
  group(key: string): number {
    return this.table[this.slot(key)] - 1;
  }

  size(group: number): number {
    return this.chains.size(group);
  }

  first(group: number): number {
    return this.chains.first(group);
  }

  next(member: number): number {
    return this.chains.next(member);
  }

  members(group: number): number[] {
    return this.chains.members(group);
  }
}

/** What a search over a group's members reads (KeyGroups, NumberGroups). */
export interface Groups {
  first(group: number): number;
  next(member: number): number;
}

/**
 * Members (numbers below a bound, each added once) grouped by a number below `keys`, in the order
 * added: KeyGroups for keys that are numbered already (ids in a log's IdTable), where the key is
 * its group and nothing is searched.
 */
export class NumberGroups implements Groups {
  private readonly head: Int32Array;
  private readonly tail: Int32Array;
  private readonly sizes: Int32Array;
  private readonly after: Int32Array;

  constructor(
    readonly keys: number,
    readonly bound: number,
  ) {
    if (!Number.isInteger(keys) || keys < 0 || !Number.isInteger(bound) || bound < 0) throw new TypeError('NumberGroups: keys and bound must be counts');
    this.head = new Int32Array(keys).fill(-1);
    this.tail = new Int32Array(keys);
    this.sizes = new Int32Array(keys);
    this.after = new Int32Array(bound).fill(-1);
  }

  /** Adds `member` to the group of `key`, at its end. */
  add(key: number, member: number): void {
    if (!(key >= 0 && key < this.keys)) throw new TypeError('NumberGroups.add: key out of range');
    if (!(member >= 0 && member < this.bound)) throw new TypeError('NumberGroups.add: member out of range');
    if (this.sizes[key] === 0) this.head[key] = member;
    else this.after[this.tail[key]] = member;
    this.tail[key] = member;
    this.sizes[key]++;
  }

  /** The group of `key` (the key itself) when it has members, else −1 (also for −1: no key). */
  group(key: number): number {
    return key >= 0 && key < this.keys && this.sizes[key] > 0 ? key : -1;
  }

  size(group: number): number {
    return this.sizes[group];
  }

  /** The group's first member. */
  first(group: number): number {
    return this.head[group];
  }

  /** The member added after `member` to its group, or −1. */
  next(member: number): number {
    return this.after[member];
  }

  /** The group's members in the order added (for tests and small groups); none for −1. */
  members(group: number): number[] {
    const out: number[] = [];
    if (group < 0) return out;
    for (let m = this.head[group]; m >= 0; m = this.after[m]) out.push(m);
    return out;
  }
}
