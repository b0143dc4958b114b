// A line diff, unified style: what a text that is not structured (a policy in prose or YAML) falls
// back to. The alignment is align.ts's (the shortest edit script, bounded: a history of many long,
// fully rewritten texts costs linear time per version, never n × m).
import { align } from './align';

/** ' ' kept, '-' removed, '+' added; long unchanged runs folded to three lines of context. */
export function lineDiff(before: string, after: string): { text: string; added: number; removed: number } {
  if (typeof before !== 'string' || typeof after !== 'string') throw new TypeError('lineDiff: before and after must be strings');
  const a = before.split('\n');
  const b = after.split('\n');
  const ops: string[] = [];
  let added = 0;
  let removed = 0;
  for (const r of align(a, b).runs) {
    if (r.op === 'equal') for (let k = 0; k < r.n; k++) ops.push(` ${a[r.a + k]}`);
    else if (r.op === 'delete') {
      for (let k = 0; k < r.n; k++) ops.push(`-${a[r.a + k]}`);
      removed += r.n;
    } else {
      for (let k = 0; k < r.n; k++) ops.push(`+${b[r.b + k]}`);
      added += r.n;
    }
  }
  const out: string[] = [];
  for (let k = 0; k < ops.length; ) {
    if (ops[k][0] !== ' ') {
      out.push(ops[k++]);
      continue;
    }
    let e = k;
    while (e < ops.length && ops[e][0] === ' ') e++;
    const run = e - k;
    const lead = k === 0 ? 0 : 3;
    const trail = e === ops.length ? 0 : 3;
    if (run > lead + trail + 1) {
      out.push(...ops.slice(k, k + lead), `@@ ${run - lead - trail} unchanged line(s) @@`, ...ops.slice(e - trail, e));
    } else {
      out.push(...ops.slice(k, e));
    }
    k = e;
  }
  return { text: out.join('\n'), added, removed };
}
