import { type KeyboardEvent, type ReactNode, useEffect, useRef } from 'react';

/** What Tab may stop on inside a dialog. */
const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

/** The elements Tab moves between inside `root`, in order (hidden ones left out). */
export function tabStops(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.getClientRects().length > 0 && !el.closest('[inert]'));
}

interface Props {
  id: string;
  title: string;
  onClose: () => void;
  /** Docked to the right, full height (the key registry), instead of centred. */
  side?: boolean;
  /** Wider than the default (an explanation's spec tables). */
  wide?: boolean;
  children: ReactNode;
}

/**
 * A modal panel with its title and a Close button. A native `<dialog>` opened with `showModal()`,
 * so the page behind is inert for the mouse, the keyboard and assistive technology. On top of what
 * the browser does: Tab and Shift+Tab wrap inside it (rather than leaving for the browser's own
 * controls), Esc closes it through `onClose` (the page's state decides what is open), and when it
 * closes, focus goes back to what had it when it opened (the button that opened it). The element
 * marked `data-autofocus` inside it gets focus first, else its first control.
 */
export function Dialog({ id, title, onClose, side = false, wide = false, children }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  // The latest onClose, for the native cancel event (parents pass a new function each render).
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    // Esc: the browser's cancel closes the dialog by itself; the page's state must close it instead.
    const cancel = (e: Event) => {
      e.preventDefault();
      close.current();
    };
    dialog.addEventListener('cancel', cancel);
    return () => {
      dialog.removeEventListener('cancel', cancel);
      if (dialog.open) dialog.close();
      // Back to the button that opened it (unless it is gone, or focus has been put elsewhere on purpose).
      if (opener?.isConnected && (document.activeElement === null || document.activeElement === document.body || dialog.contains(document.activeElement)))
        opener.focus();
    };
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLDialogElement>) => {
    if (e.key !== 'Tab' || !ref.current) return;
    const stops = tabStops(ref.current);
    if (stops.length === 0) return;
    const first = stops[0];
    const last = stops[stops.length - 1];
    const at = document.activeElement;
    if (e.shiftKey && (at === first || !ref.current.contains(at))) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (at === last || !ref.current.contains(at))) {
      e.preventDefault();
      first.focus();
    }
  };

  const placement = side
    ? 'm-0 ml-auto h-full max-h-none w-full max-w-3xl flex-col gap-3 overflow-auto p-4'
    : `mx-auto mt-20 max-h-[calc(100%-6rem)] w-[calc(100%-2rem)] ${wide ? 'max-w-4xl' : 'max-w-2xl'} overflow-auto rounded-lg p-4`;
  return (
    <dialog
      ref={ref}
      aria-labelledby={id}
      onKeyDown={onKeyDown}
      className={`${placement} bg-white text-slate-900 shadow-xl backdrop:bg-black/30 open:flex open:flex-col dark:bg-slate-900 dark:text-slate-100`}
    >
      <div className={`flex items-center ${side ? '' : 'mb-2'}`}>
        <h2 id={id} className="text-base font-semibold">
          {title}
        </h2>
        <button
          type="button"
          onClick={onClose}
          className="ml-auto rounded px-2 py-1 text-sm hover:bg-slate-100 focus-visible:ring-2 focus-visible:ring-teal-500 dark:hover:bg-slate-800"
        >
          Close
        </button>
      </div>
      {children}
    </dialog>
  );
}
