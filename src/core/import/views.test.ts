// A record read in bulk locates a top-level field from its item (views.ts envelopeFieldSpan): it
// must find what the field tree finds, for every field of every record of every vector.
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../agdx/dialects';
import { spanOfPath } from '../graph/keys';
import { inspectInput } from '../inspect';
import { recordViews, spanOfField } from '../records';
import type { FieldNode } from '../model';
import { vector, vectorFiles } from '../../../test/support/import-helpers';
import { agdxSequence } from '../../../test/support/generate';

const FIELD_NAMES = [...new Set(DIALECTS.flatMap((d) => d.fields.map((f) => f.name)))];
/** Every path a tree holds, and every field name of any dialect (found or not). */
function pathsOf(tree: readonly FieldNode[]): string[] {
  const out = new Set(FIELD_NAMES);
  const walk = (nodes: readonly FieldNode[]) => {
    for (const n of nodes) {
      out.add(n.path);
      if (n.children) walk(n.children);
    }
  };
  walk(tree);
  return [...out];
}

function checkLocating(bytes: Uint8Array, name: string): number {
  let located = 0;
  for (const r of inspectInput(0, { name, bytes }, [], false).records) {
    if (typeof r.data.views !== 'function' || !r.data.views.locate) continue;
    const tree = recordViews(r).tree;
    for (const path of pathsOf(tree)) expect(spanOfField(r, path), `${name} #${r.verdict.index} ${path}`).toEqual(spanOfPath(tree, path));
    located++;
  }
  return located;
}

describe('spanOfField', () => {
  it('finds what the field tree finds, on every vector read in bulk', () => {
    let located = 0;
    for (const file of vectorFiles()) located += checkLocating(vector(file), file);
    // The vectors hold many envelopes read in bulk: the check is not vacuous.
    expect(located).toBeGreaterThan(50);
  });

  it('finds what the field tree finds, on generated logs of both dialects', () => {
    expect(checkLocating(agdxSequence(400), 'generated 0.0.1')).toBe(400);
    expect(checkLocating(agdxSequence(400, { dialect: '0.7' }), 'generated 0.7')).toBe(400);
  });
});
