import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { hex2 } from '../format';
import type { Span } from '../../core/model';

interface Props {
  bytes: Uint8Array;
  /** Offset of bytes[0] in the record's span coordinates. */
  offset: number;
  highlight: Span | null;
  onByte: (offset: number) => void;
  label: string;
}

/** Bytes per row when the view is wide enough for the hex and the ASCII column of 16, else 8. */
const WIDE_ROW = 16;
const NARROW_ROW = 8;
const ROW_HEIGHT = 20;
/** The gap between the offset, hex and ASCII columns (gap-3), and the rows' margin. */
const GAP_PX = 12;
const MARGIN_PX = 4;
/** A row's width in ch (offset 6, a hex cell 2.6 each, an ASCII character 1 each) plus its two gaps. */
const rowWidth = (perRow: number) => `calc(${6 + perRow * 3.6}ch + ${2 * GAP_PX}px)`;
const fits = (perRow: number, widthPx: number, chPx: number) => (6 + perRow * 3.6) * chPx + 2 * GAP_PX + 2 * MARGIN_PX + 2 <= widthPx;
const VISIBLE_ROWS = 18;
const OVERSCAN = 3;

const printable = (b: number) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '·');

/** A windowed hex dump: only the rows in view are rendered, so large records stay cheap. */
export const HexView = memo(function HexView({ bytes, offset, highlight, onByte, label }: Props) {
  const ref = useRef<HTMLElement>(null);
  const probe = useRef<HTMLSpanElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  // 16 bytes a row where the whole row fits, ASCII column included; 8 on a narrow screen, so the
  // ASCII column is never cut off. Read from the view's width as laid out (a ResizeObserver).
  const [perRow, setPerRow] = useState(WIDE_ROW);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ro = new ResizeObserver((entries) => {
      const width = entries[entries.length - 1].contentRect.width;
      const ch = probe.current ? probe.current.getBoundingClientRect().width / 10 : 7.3;
      setPerRow(fits(WIDE_ROW, width, ch) ? WIDE_ROW : NARROW_ROW);
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  const rows = Math.ceil(bytes.length / perRow);
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(rows, first + VISIBLE_ROWS + OVERSCAN * 2);
  const [hs, he] = highlight ?? [-1, -1];

  useEffect(() => {
    if (!highlight || !ref.current) return;
    const row = Math.floor((highlight[0] - offset) / perRow);
    const top = row * ROW_HEIGHT;
    const el = ref.current;
    if (top < el.scrollTop || top > el.scrollTop + el.clientHeight - ROW_HEIGHT) {
      el.scrollTop = Math.max(0, top - ROW_HEIGHT * 2);
      setScrollTop(el.scrollTop);
    }
  }, [highlight, offset, perRow]);

  const lines = useMemo(() => {
    // Plain inline spans for the hex bytes and runs of text for the ASCII column: a hex view of
    // inline-blocks and a span per character was two thirds of a detail's layout objects, and
    // laying it out was the page's longest step when a record first showed.
    const lit = 'bg-amber-300 text-black dark:bg-amber-600 dark:text-white';
    const out = [];
    for (let r = first; r < last; r++) {
      const cells = [];
      const start = r * perRow;
      const end = Math.min(bytes.length, start + perRow);
      const ascii = ['', '', '']; // before, inside and after the highlight
      for (let idx = start; idx < end; idx++) {
        const abs = offset + idx;
        const on = abs >= hs && abs < he;
        cells.push(
          // biome-ignore lint/a11y/useKeyWithClickEvents: a mouse shortcut; the keyboard reaches each byte's field through the field tree
          // biome-ignore lint/a11y/noStaticElementInteractions: as above
          <span
            key={idx}
            data-offset={abs}
            data-selected={on || undefined}
            onClick={() => onByte(abs)}
            className={`cursor-pointer px-[0.3ch] ${on ? lit : 'hover:bg-slate-200 dark:hover:bg-slate-700'}`}
          >
            {hex2(bytes[idx])}
          </span>,
        );
        const part = on ? 1 : abs < hs ? 0 : 2;
        ascii[part] += printable(bytes[idx]);
      }
      out.push(
        <div key={r} className="flex gap-3 whitespace-pre" style={{ position: 'absolute', top: r * ROW_HEIGHT, height: ROW_HEIGHT }}>
          <span className="text-slate-600 select-none dark:text-slate-400">{(offset + r * perRow).toString(16).padStart(6, '0')}</span>
          <span className="shrink-0" style={{ width: `${perRow * 2.6}ch` }}>
            {cells}
          </span>
          <span className="shrink-0 text-slate-500 dark:text-slate-400" data-ascii>
            {ascii[0]}
            {ascii[1] && <span className={lit}>{ascii[1]}</span>}
            {ascii[2]}
          </span>
        </div>,
      );
    }
    return out;
  }, [bytes, offset, first, last, hs, he, onByte, perRow]);

  return (
    // A named section is a region. It takes focus so the keyboard can scroll it (axe: scrollable-region-focusable).
    <section
      ref={ref}
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: see above
      tabIndex={0}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      className="relative overflow-auto rounded border border-slate-200 bg-slate-50 font-mono text-xs dark:border-slate-800 dark:bg-slate-900"
      style={{ height: Math.min(rows, VISIBLE_ROWS) * ROW_HEIGHT + 8 }}
    >
      <span ref={probe} aria-hidden="true" className="invisible absolute">
        0000000000
      </span>
      <div data-bytes-per-row={perRow} style={{ height: rows * ROW_HEIGHT, width: rowWidth(perRow), position: 'relative', margin: MARGIN_PX }}>
        {lines}
      </div>
    </section>
  );
});
