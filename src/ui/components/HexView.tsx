import { memo, useEffect, useMemo, useRef, useState } from 'react';
import type { Span } from '../../core/model';

interface Props {
  bytes: Uint8Array;
  /** Offset of bytes[0] in the record's span coordinates. */
  offset: number;
  highlight: Span | null;
  onByte: (offset: number) => void;
  label: string;
}

const ROW = 16;
const ROW_HEIGHT = 20;
const VISIBLE_ROWS = 18;
const OVERSCAN = 6;

const hex2 = (b: number) => b.toString(16).padStart(2, '0');
const printable = (b: number) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '·');

/** A windowed hex dump: only the rows in view are rendered, so large records stay cheap. */
export const HexView = memo(function HexView({ bytes, offset, highlight, onByte, label }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const rows = Math.ceil(bytes.length / ROW);
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(rows, first + VISIBLE_ROWS + OVERSCAN * 2);
  const [hs, he] = highlight ?? [-1, -1];

  useEffect(() => {
    if (!highlight || !ref.current) return;
    const row = Math.floor((highlight[0] - offset) / ROW);
    const top = row * ROW_HEIGHT;
    const el = ref.current;
    if (top < el.scrollTop || top > el.scrollTop + el.clientHeight - ROW_HEIGHT) {
      el.scrollTop = Math.max(0, top - ROW_HEIGHT * 2);
      setScrollTop(el.scrollTop);
    }
  }, [highlight, offset]);

  const lines = useMemo(() => {
    const out = [];
    for (let r = first; r < last; r++) {
      const cells = [];
      const text = [];
      for (let i = 0; i < ROW; i++) {
        const idx = r * ROW + i;
        if (idx >= bytes.length) break;
        const abs = offset + idx;
        const on = abs >= hs && abs < he;
        cells.push(
          <span
            key={i}
            data-offset={abs}
            data-selected={on || undefined}
            onClick={() => onByte(abs)}
            className={`inline-block w-[2.6ch] cursor-pointer text-center ${on ? 'bg-amber-300 text-black dark:bg-amber-600 dark:text-white' : 'hover:bg-slate-200 dark:hover:bg-slate-700'}`}
          >
            {hex2(bytes[idx])}
          </span>,
        );
        text.push(
          <span key={i} className={on ? 'bg-amber-300 text-black dark:bg-amber-600 dark:text-white' : ''}>
            {printable(bytes[idx])}
          </span>,
        );
      }
      out.push(
        <div key={r} className="flex gap-3 whitespace-pre" style={{ position: 'absolute', top: r * ROW_HEIGHT, height: ROW_HEIGHT }}>
          <span className="text-slate-400 select-none">{(offset + r * ROW).toString(16).padStart(6, '0')}</span>
          <span className="inline-block" style={{ width: `${ROW * 2.6}ch` }}>
            {cells}
          </span>
          <span className="text-slate-500 dark:text-slate-400">{text}</span>
        </div>,
      );
    }
    return out;
  }, [bytes, offset, first, last, hs, he, onByte]);

  return (
    <div
      ref={ref}
      role="region"
      aria-label={label}
      tabIndex={0}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      className="relative overflow-auto rounded border border-slate-200 bg-slate-50 font-mono text-xs dark:border-slate-800 dark:bg-slate-900"
      style={{ height: Math.min(rows, VISIBLE_ROWS) * ROW_HEIGHT + 8 }}
    >
      <div style={{ height: rows * ROW_HEIGHT, position: 'relative', margin: 4 }}>{lines}</div>
    </div>
  );
});
