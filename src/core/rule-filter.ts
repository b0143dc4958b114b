// Finding records by rule in a large load: which rule ids (and decode-error codes) the records carry,
// how many records carry each, and which of them a person's words in the rule filter mean. The index
// is built once per load or key change (the worker keeps it); a query then costs the ids it matches,
// not a pass over every record's findings.
//
// What a query matches (case aside, spaces around it ignored), first rule that gives something:
// 1. an exact rule id: that rule alone (`agentdna/signature`, not `agentdna/signature/der`);
// 2. any start of ids (`agdx/matrix` and `agdx/matrix/` alike; `agdx/ma` too);
// 3. the ids that contain it (`must` → `agdx/must-understand`, `matrix/operation` → `agdx/matrix/operation`);
// 4. words: the rules whose catalogue title has a word starting with each of them
//    (`bits` → `agdx/must-understand`, "must_understand has bits set…").
// Only ids some record carries are matched: the filter's answer is records, and an id no record
// carries would find none.
import { isRuleId, ruleMeta } from './rules';
import type { Severity } from './verdict';

/** One rule id some loaded record carries. */
export interface RuleCount {
  id: string;
  /** Records carrying it (once each, however many findings of the rule a record has). */
  records: number;
  /** Its worst severity among those records (a decode-error code: error). */
  severity: Severity;
  /** The catalogue's title, or null for an id the catalogue does not know. */
  title: string | null;
}

/** A rule a record carries: a finding's rule and severity, or its decode error's code (severity error). */
export interface RuleHit {
  rule: string;
  severity: Severity;
}

const RANK: Record<Severity, number> = { info: 0, warning: 1, error: 2 };

/** Rule id → the keys of the records carrying it, ascending; built once over a load. */
export class RuleIndex {
  private readonly keys = new Map<string, number[]>();
  private readonly worst = new Map<string, Severity>();
  private last = -1;

  /**
   * Adds rules record `key` carries; keys come in ascending order (one key may be added to again
   * before the next; a key below the last is a misuse: TypeError). A rule a record carries twice counts once.
   */
  add(key: number, hits: Iterable<RuleHit>): void {
    if (!Number.isInteger(key) || key < this.last) throw new TypeError(`RuleIndex.add: key ${key} after ${this.last}`);
    this.last = key;
    for (const { rule, severity } of hits) {
      const list = this.keys.get(rule);
      if (!list) this.keys.set(rule, [key]);
      else if (list[list.length - 1] !== key) list.push(key);
      const was = this.worst.get(rule);
      if (was === undefined || RANK[severity] > RANK[was]) this.worst.set(rule, severity);
    }
  }

  /** The ids present, with their counts and titles, by id. */
  counts(): RuleCount[] {
    return [...this.keys]
      .map(([id, keys]) => ({ id, records: keys.length, severity: this.worst.get(id)!, title: ruleMeta(id)?.title ?? null }))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** The ids present that `query` means (see the top of this file); none for a blank query. */
  match(query: string): string[] {
    return matchRuleIds(query, [...this.keys.keys()]);
  }

  /** Marks (1) the records carrying any of `ids`, in an array of `size` flags by key. */
  mark(ids: readonly string[], size: number): Uint8Array {
    const out = new Uint8Array(size);
    for (const id of ids) for (const k of this.keys.get(id) ?? []) if (k < size) out[k] = 1;
    return out;
  }
}

/** Which of `ids` a query in the rule filter means, in the order of `ids` (see the top of this file). */
export function matchRuleIds(query: string, ids: readonly string[]): string[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const lower = ids.map((id) => id.toLowerCase());
  const exact = ids.filter((_, i) => lower[i] === q);
  if (exact.length || isRuleId(q)) return exact;
  const prefix = ids.filter((_, i) => lower[i].startsWith(q));
  if (prefix.length) return prefix;
  const inside = ids.filter((_, i) => lower[i].includes(q));
  if (inside.length) return inside;
  const words = q.split(/[^a-z0-9]+/).filter(Boolean);
  if (words.length === 0) return [];
  return ids.filter((id) => {
    const title = ruleMeta(id)?.title;
    if (!title) return false;
    const titleWords = title.toLowerCase().split(/[^a-z0-9]+/);
    return words.every((w) => titleWords.some((t) => t.startsWith(w)));
  });
}
