// Whether the reader's system asks for a dark colour scheme, following it when it changes (the
// timeline's canvas picks its colours by it: a canvas has no CSS).
import { useEffect, useState } from 'react';

export function usePrefersDark(): boolean {
  const [dark, setDark] = useState(() => typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches);
  useEffect(() => {
    if (typeof matchMedia !== 'function') return;
    const m = matchMedia('(prefers-color-scheme: dark)');
    const on = () => setDark(m.matches);
    m.addEventListener('change', on);
    return () => m.removeEventListener('change', on);
  }, []);
  return dark;
}
