// Every TanStack Query key the page uses, from one factory: each key's shape is written once, and
// an invalidation names the family prefix its queries were made with (a key matches every longer
// key it begins). What the worker answers changes only when the page says so: a load, a key change.
const DETAIL = 'detail';
const GRAPH = 'graph';
const FOLDS = 'folds';
const TIMELINE = 'timeline';
const SHARE = 'share';
const RULES = 'rules';
const COMPARE = 'compare';

export const queryKeys = {
  /** Every record's detail: invalidated when a load ends or the keys change. */
  details: () => [DETAIL] as const,
  detail: (key: number) => [DETAIL, key] as const,
  /** Every graph: invalidated when the keys change (trust colours the nodes). */
  graphs: () => [GRAPH] as const,
  /** The graph of load `version` with the streams and fan-outs `expanded` unfolded. */
  graph: (version: number, expanded: readonly string[]) => [GRAPH, version, expanded] as const,
  /** Every timeline: invalidated when the keys change (trust colours the marks). */
  timelines: () => [TIMELINE] as const,
  /** The timeline of load `version`. */
  timeline: (version: number) => [TIMELINE, version] as const,
  /** Every fold (agents, runs, conversations): invalidated when the keys change. */
  allFolds: () => [FOLDS] as const,
  /** The folds of load `version` as of record `asOf` (null: the whole log). */
  folds: (version: number, asOf: number | null) => [FOLDS, version, asOf] as const,
  /** Every list of the rule ids present: invalidated when the keys change (findings rest on signatures). */
  allRules: () => [RULES] as const,
  /** The rule ids the records of load `version` carry, with counts. */
  rules: (version: number) => [RULES, version] as const,
  /** The permalink of load `version` for `view` and `records` (all, filtered, selected), redacted or not, with a choice about what redaction cannot blank. */
  share: (version: number, view: object, redact: boolean, unblankable: string | undefined, records = 'all') =>
    [SHARE, version, view, redact, unblankable ?? null, records] as const,
  /** Every comparison, and the Compare-with search: invalidated when the keys change (verdicts are compared). */
  comparisons: () => [COMPARE] as const,
  /** The comparison of load `version` of `subject` (two records, inputs or conversations). */
  compare: (version: number, subject: object) => [COMPARE, version, subject] as const,
  /** The records the Compare-with search of load `version` finds for `text`, near record `near`. */
  compareCandidates: (version: number, text: string, near: number | null) => [COMPARE, version, 'candidates', text, near] as const,
};
