// What the page's comparison controls share: the compared pair (page state, store/page.ts), the
// summaries to name records by, and the ways to compare. App provides it (use-compare.ts); the
// record detail's "Compare with…", the Compare tab's panel and the list's pick mode use it.
import { createContext, useContext } from 'react';
import type { ComparedPair, InputSummary } from '../wire/protocol';
import type { SummarySource } from './summary-store';

export interface CompareApi {
  /** The pair compared now, or null. */
  pair: ComparedPair | null;
  /** Record A while B is being picked in the list, or null. */
  picking: number | null;
  summaries: SummarySource;
  inputs: readonly InputSummary[];
  /** Moves whenever the summaries change. */
  recordsVersion: number;
  /** Opens the "Compare with…" picker for record `a`. */
  compareWith: (a: number) => void;
  /** Compares a pair and shows it (the Compare tab). */
  show: (pair: ComparedPair) => void;
  /** Stops comparing. */
  close: () => void;
  /** Picks B in the record list instead of the picker. */
  pickInList: (a: number) => void;
  cancelPicking: () => void;
}

const NONE: CompareApi = {
  pair: null,
  picking: null,
  summaries: { length: 0, get: () => undefined, inputOf: () => Number.POSITIVE_INFINITY },
  inputs: [],
  recordsVersion: 0,
  compareWith: () => {},
  show: () => {},
  close: () => {},
  pickInList: () => {},
  cancelPicking: () => {},
};

export const CompareContext = createContext<CompareApi>(NONE);

export function useCompareApi(): CompareApi {
  return useContext(CompareContext);
}
