// How tall the record list's rows are: compact (one line a record, in columns: a 1440×900 screen
// shows two dozen) or comfortable (the badges in words). Kept in this browser.
import { useCallback, useState } from 'react';

export type Density = 'compact' | 'comfortable';

const STORAGE_KEY = 'envelope-inspector.density';

function stored(): Density {
  try {
    return localStorage.getItem(STORAGE_KEY) === 'comfortable' ? 'comfortable' : 'compact';
  } catch {
    return 'compact';
  }
}

export function useDensity(): [Density, (d: Density) => void] {
  const [density, setDensity] = useState(stored);
  const set = useCallback((d: Density) => {
    setDensity(d);
    try {
      localStorage.setItem(STORAGE_KEY, d);
    } catch {
      // Storage refused (private mode, full): the choice holds for this visit.
    }
  }, []);
  return [density, set];
}
