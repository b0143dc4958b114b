// The change between two versions of an AgentDNA agent's policy document: structurally when both
// are JSON (which permissions were added or removed, which values changed, by path), by lines when
// either is text of another kind (prose, YAML). One version to the next of a card's history.
import { utf8Encode } from '../bytes';
import { lineDiff } from './lines';
import { diffValues } from './structure';
import { jsonBytesValue } from './value';
import { plural } from '../plural';

export interface PolicyChange {
  /** How the two were compared (equal texts are not read: 'lines'). */
  reading: 'json' | 'lines';
  /** A few words for the record's summary line: `policy: 1 added, 1 removed, 1 changed`, `policy +2 −1 lines`. */
  summary: string;
  /** A sentence for the body's heading. */
  heading: string;
  /** Every change, one a line (JSON), or the unified line diff. */
  detail: string;
  /** Nothing changed in what the policy says (the texts may still differ in layout). */
  unchanged: boolean;
}

/** The change from `before` to `after` (two versions' texts). */
export function policyChange(before: string, after: string): PolicyChange {
  if (typeof before !== 'string' || typeof after !== 'string') throw new TypeError('policyChange: before and after must be strings');
  // The same text: nothing to read or diff (a card's history mostly repeats its policy).
  if (before === after) return { reading: 'lines', summary: 'policy unchanged', heading: 'unchanged', detail: '', unchanged: true };
  const a = jsonBytesValue(utf8Encode(before));
  const b = a ? jsonBytesValue(utf8Encode(after)) : null;
  if (a && b) {
    const d = diffValues(a, b, { maxRows: 5_000 });
    const { added, removed, changed } = d.counts;
    if (added + removed + changed === 0) {
      return {
        reading: 'json',
        summary: 'policy unchanged (layout only)',
        heading: 'the same JSON, only its layout changed',
        detail: '',
        unchanged: true,
      };
    }
    const lines: string[] = [];
    for (const r of d.rows) {
      if (r.status === 'same' || (r.status === 'changed' && r.container)) continue;
      if (r.status === 'changed') lines.push(`changed  ${r.path}: ${r.a} → ${r.b}`);
      else lines.push(`${r.status === 'added' ? 'added  ' : 'removed'}  ${r.path}: ${r.status === 'added' ? r.b : r.a}`);
    }
    if (d.omitted) lines.push(`… and ${d.omitted} more row(s)`);
    const counts = [added && `${added} added`, removed && `${removed} removed`, changed && `${changed} changed`].filter(Boolean).join(', ');
    return {
      reading: 'json',
      summary: `policy: ${counts}`,
      heading: `${added} ${added === 1 ? 'entry' : 'entries'} added, ${removed} removed, ${plural(changed, 'value')} changed (compared as JSON)`,
      detail: lines.join('\n'),
      unchanged: false,
    };
  }
  const d = lineDiff(before, after);
  return {
    reading: 'lines',
    summary: `policy +${d.added} −${d.removed} lines`,
    heading: `${d.added} line(s) added, ${d.removed} removed`,
    detail: d.text,
    unchanged: false,
  };
}
