// What the page works out for a comparison, pure (tested without a DOM): the request for the
// compared pair, the words the Shared view banner uses, the hunks of a byte diff, the rows shown.
import type { ByteDiff, ChangeStatus, CompareSubject, FieldRow } from '../../core/compare/model';
import type { ComparedPair, InputSummary } from '../../wire/protocol';
import type { RecordSummary } from '../../wire/summary-pack';
import { formatDuration } from '../../core/time';
import { displayText } from '../format';
import type { SummarySource } from '../summary-store';

/** The request for a compared pair: the records themselves, or their conversations or inputs; null when it cannot be made. */
export function subjectOf(pair: ComparedPair, store: Pick<SummarySource, 'get'>): CompareSubject | null {
  const a = store.get(pair.a);
  const b = store.get(pair.b);
  if (!a || !b) return null;
  switch (pair.scope) {
    case 'records':
      return { scope: 'records', a: pair.a, b: pair.b };
    case 'inputs':
      return { scope: 'inputs', a: a.input, b: b.input };
    case 'conversations':
      return a.conversation && b.conversation ? { scope: 'conversations', a: a.conversation, b: b.conversation } : null;
  }
}

/** A record as a person finds it: `record #4 of conversation.cborseq` (the name escaped). */
export function recordWords(key: number, store: Pick<SummarySource, 'get'>, inputs: readonly InputSummary[]): string {
  const s = store.get(key);
  if (!s) return `record ${key} (no longer loaded)`;
  const name = inputs.find((i) => i.input === s.input)?.name ?? `input ${s.input}`;
  return `record #${s.index} of ${displayText(name)}`;
}

/** What a compared pair compares, in words, for the Shared view banner and the panel's heading. */
export function comparedWords(pair: ComparedPair, store: Pick<SummarySource, 'get'>, inputs: readonly InputSummary[]): string {
  const a = store.get(pair.a);
  const b = store.get(pair.b);
  const name = (s: RecordSummary | undefined) => (s ? displayText(inputs.find((i) => i.input === s.input)?.name ?? `input ${s.input}`) : '(not loaded)');
  switch (pair.scope) {
    case 'records':
      return `${recordWords(pair.a, store, inputs)} with ${recordWords(pair.b, store, inputs)}`;
    case 'inputs':
      return `the inputs ${name(a)} and ${name(b)}`;
    case 'conversations':
      return `the conversations ${displayText(a?.conversation ?? '—')} (of ${recordWords(pair.a, store, inputs)}) and ${displayText(b?.conversation ?? '—')} (of ${recordWords(pair.b, store, inputs)})`;
  }
}

/** How each status reads: a sign and a word, never the colour alone. */
export const STATUS_WORDS: Record<ChangeStatus, { sign: string; word: string }> = {
  added: { sign: '+', word: 'added' },
  removed: { sign: '−', word: 'removed' },
  changed: { sign: '~', word: 'changed' },
  same: { sign: '=', word: 'same' },
};

/** The rows a field diff shows: every row, or only those that are not the same (a changed map's row stays, with its changed members). */
export function shownRows(rows: readonly FieldRow[], showSame: boolean): FieldRow[] {
  return showSame ? [...rows] : rows.filter((r) => r.status !== 'same');
}

/** One side of a hunk: a window of its bytes, and the stretches in it that differ. */
export interface HunkSide {
  start: number;
  end: number;
  marks: Array<[number, number]>;
}

export interface Hunk {
  a: HunkSide;
  b: HunkSide;
  fields: string[];
}

/**
 * The changed stretches of a byte diff in hunks, with `context` equal bytes either side; changed
 * stretches closer than twice the context share a hunk. At most `max` hunks (the rest counted).
 * Windows are clamped to the bytes the diff carries (a truncated diff shows what it holds).
 */
export function byteHunks(diff: Pick<ByteDiff, 'ranges' | 'a' | 'b'>, context = 8, max = 100): { hunks: Hunk[]; more: number } {
  const hunks: Hunk[] = [];
  let more = 0;
  let current: Hunk | null = null;
  const clampA = (n: number) => Math.max(0, Math.min(diff.a.length, n));
  const clampB = (n: number) => Math.max(0, Math.min(diff.b.length, n));
  for (const r of diff.ranges) {
    if (r.op !== 'changed') continue;
    const near = current && r.a[0] - current.a.end <= context && r.b[0] - current.b.end <= context;
    if (current && near) {
      current.a.end = clampA(r.a[1] + context);
      current.b.end = clampB(r.b[1] + context);
      current.a.marks.push([r.a[0], r.a[1]]);
      current.b.marks.push([r.b[0], r.b[1]]);
      for (const f of r.fields) if (!current.fields.includes(f)) current.fields.push(f);
      continue;
    }
    if (hunks.length >= max) {
      more++;
      current = null;
      continue;
    }
    current = {
      a: { start: clampA(r.a[0] - context), end: clampA(r.a[1] + context), marks: [[r.a[0], r.a[1]]] },
      b: { start: clampB(r.b[0] - context), end: clampB(r.b[1] + context), marks: [[r.b[0], r.b[1]]] },
      fields: [...r.fields],
    };
    hunks.push(current);
  }
  return { hunks, more };
}

/** A column of an aligned hunk: A's byte above B's, either missing where the other side has bytes of its own. */
export interface ByteColumn {
  op: 'equal' | 'changed' | 'inserted' | 'deleted';
  /** The byte's offset in A (null: B's byte is inserted). */
  a: number | null;
  /** The byte's offset in B (null: A's byte is deleted). */
  b: number | null;
}

/**
 * A hunk as aligned columns, A over B: equal bytes side by side; in a stretch that differs, bytes
 * paired as changed while both sides have one, then the longer side's extra bytes as inserted (only
 * in B) or deleted (only in A), the other side left blank, so the bytes after them line up again.
 * The diff's stretches come from Myers' alignment (core/compare/align.ts): no byte of a differing
 * stretch equals one of the other side's, so how they pair within it is a matter of showing.
 * At most `max` columns (the rest counted).
 */
export function alignedColumns(diff: Pick<ByteDiff, 'ranges'>, hunk: Hunk, max = 256): { columns: ByteColumn[]; more: number } {
  const columns: ByteColumn[] = [];
  let more = 0;
  const push = (c: ByteColumn) => (columns.length < max ? columns.push(c) : more++);
  for (const r of diff.ranges) {
    // The stretches in the hunk's window (an equal stretch may reach past it: only its part inside counts).
    if (r.a[1] < hunk.a.start || r.a[0] > hunk.a.end || r.b[1] < hunk.b.start || r.b[0] > hunk.b.end) continue;
    if (r.op === 'equal') {
      const from = Math.max(r.a[0], hunk.a.start, r.a[0] + (hunk.b.start - r.b[0]));
      const to = Math.min(r.a[1], hunk.a.end, r.a[0] + (hunk.b.end - r.b[0]));
      for (let i = from; i < to; i++) push({ op: 'equal', a: i, b: r.b[0] + (i - r.a[0]) });
      continue;
    }
    const la = r.a[1] - r.a[0];
    const lb = r.b[1] - r.b[0];
    for (let k = 0; k < Math.max(la, lb); k++) {
      if (k < la && k < lb) push({ op: 'changed', a: r.a[0] + k, b: r.b[0] + k });
      else if (k < la) push({ op: 'deleted', a: r.a[0] + k, b: null });
      else push({ op: 'inserted', a: null, b: r.b[0] + k });
    }
  }
  return { columns, more };
}

/** A hunk's differences in words, for a screen reader: "byte 75 changed (6c → 6d); 1 byte inserted at B 88 (58)". */
export function columnWords(columns: readonly ByteColumn[], a: Uint8Array, b: Uint8Array): string {
  const hex = (bytes: Uint8Array, i: number | null) => (i === null ? '' : bytes[i].toString(16).padStart(2, '0'));
  const out: string[] = [];
  for (let i = 0; i < columns.length; ) {
    const op = columns[i].op;
    let j = i;
    while (j < columns.length && columns[j].op === op) j++;
    const run = columns.slice(i, j);
    const n = run.length;
    const many = n === 1 ? 'byte' : `${n} bytes`;
    if (op === 'changed')
      out.push(`${many} changed at A ${run[0].a}, B ${run[0].b} (${run.map((c) => hex(a, c.a)).join(' ')} → ${run.map((c) => hex(b, c.b)).join(' ')})`);
    else if (op === 'inserted') out.push(`${many} only in B (inserted) at B ${run[0].b} (${run.map((c) => hex(b, c.b)).join(' ')})`);
    else if (op === 'deleted') out.push(`${many} only in A (deleted) at A ${run[0].a} (${run.map((c) => hex(a, c.a)).join(' ')})`);
    i = j;
  }
  return out.join('; ');
}

/** A span of bytes as a person counts them: `bytes 12–29` for [12, 30) (end exclusive), `byte 12` for [12, 13), or `no bytes (at 12)`. */
export function bytesWords([start, end]: readonly [number, number]): string {
  return end > start + 1 ? `bytes ${start}–${end - 1}` : end > start ? `byte ${start}` : `no bytes (at ${start})`;
}

/** A latency in µs as the timeline writes a duration (`340 µs`, `1.5 ms`, `1.25 s`, `1 min 15 s`); `—` when unknown. */
export function latencyWords(micros: number | null): string {
  return micros === null ? '—' : formatDuration(micros);
}
