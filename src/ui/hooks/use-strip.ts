// A strip of choices opened by a button (the Samples, the exports, the rule ids present) closes as a menu does:
// on Esc (focus back on its button when it was inside) and on a click anywhere else. A click, not a
// pointer press: the rule strip sits in the page's flow, and closing it on the press moved what was
// under the pointer before the release, so the click that closed it was lost (a Clear button under
// it did nothing). Caught before the target's own handlers, which may stop it.
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';

function useDismiss(open: boolean, close: () => void, button: RefObject<HTMLElement | null>, strip: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      close();
      if (strip.current?.contains(document.activeElement)) button.current?.focus();
    };
    const onClick = (e: MouseEvent) => {
      const target = e.target as Node;
      if (!strip.current?.contains(target) && !button.current?.contains(target)) close();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('click', onClick, true);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('click', onClick, true);
    };
  }, [open, close, button, strip]);
}

/** A strip opened by a button: whether it is open, and the refs its button and strip take. */
export function useStrip<Strip extends HTMLElement>() {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const strip = useRef<Strip>(null);
  useDismiss(
    open,
    useCallback(() => setOpen(false), []),
    button,
    strip,
  );
  return { open, setOpen, button, strip };
}
