// The split between a tab's panel (the graph, the agents, the runs) and the record detail below it:
// a share of the pane, moved with the separator (pointer or keys), kept in this browser so the page
// opens as it was left. The clamp and the keys are pure (splitAfterKey) and tested.
import { useCallback, useState } from 'react';

const STORAGE_KEY = 'envelope-inspector.split';
export const SPLIT_DEFAULT = 0.58;
export const SPLIT_MIN = 0.25;
export const SPLIT_MAX = 0.85;

export const clampSplit = (share: number) => Math.min(SPLIT_MAX, Math.max(SPLIT_MIN, Number.isFinite(share) ? share : SPLIT_DEFAULT));

/** The share after a key on the separator (as the ARIA window splitter pattern has it), or null for other keys. */
export function splitAfterKey(share: number, key: string): number | null {
  switch (key) {
    case 'ArrowUp':
      return clampSplit(share - 0.05);
    case 'ArrowDown':
      return clampSplit(share + 0.05);
    case 'PageUp':
      return clampSplit(share - 0.15);
    case 'PageDown':
      return clampSplit(share + 0.15);
    case 'Home':
      return SPLIT_MIN;
    case 'End':
      return SPLIT_MAX;
    default:
      return null;
  }
}

function stored(): number {
  try {
    const v = localStorage.getItem(STORAGE_KEY);
    return v === null ? SPLIT_DEFAULT : clampSplit(Number(v));
  } catch {
    return SPLIT_DEFAULT;
  }
}

export function useSplit(): [number, (share: number) => void] {
  const [share, setShare] = useState(stored);
  const set = useCallback((next: number) => {
    const v = clampSplit(next);
    setShare(v);
    try {
      localStorage.setItem(STORAGE_KEY, String(Math.round(v * 1000) / 1000));
    } catch {
      // Storage refused (private mode, full): the split holds for this visit.
    }
  }, []);
  return [share, set];
}
