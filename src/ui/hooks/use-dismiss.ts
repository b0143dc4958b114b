// A strip of choices opened by a button (the Samples, the rule ids present) closes as a menu does:
// on Esc (focus back on its button when it was inside) and on a pointer press anywhere else.
import { useEffect, type RefObject } from 'react';

export function useDismiss(open: boolean, close: () => void, button: RefObject<HTMLElement | null>, strip: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      close();
      if (strip.current?.contains(document.activeElement)) button.current?.focus();
    };
    const onPointer = (e: PointerEvent) => {
      const target = e.target as Node;
      if (!strip.current?.contains(target) && !button.current?.contains(target)) close();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open, close, button, strip]);
}
