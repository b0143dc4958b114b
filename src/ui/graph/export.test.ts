// The SVG export over hostile labels: always well-formed XML 1.0, whatever the records hold; every
// id a node shows short is in the export whole.
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { utf8Encode } from '../../core/bytes';
import { inspect } from '../../core/inspect';
import { renderGraph } from '../../worker/graph-render';
import type { GraphRender } from '../../wire/graph';
import { summarize } from '../../worker/summarize';
import { shortId } from '../../core/short-id';
import { graphToSvg, idKey, xmlText } from './export';

/** Any character XML 1.0 does not allow (Char production), or a lone surrogate. */
const FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const ELEMENTS = new Set(['svg', 'defs', 'marker', 'path', 'rect', 'g', 'text', 'title']);

/** A strict enough check of what graphToSvg writes: allowed characters, known elements, balanced, entities only. */
function expectWellFormed(svg: string): void {
  expect(FORBIDDEN.test(svg)).toBe(false);
  const stack: string[] = [];
  for (const m of svg.matchAll(/<(\/?)([a-zA-Z]+)([^<>]*?)(\/?)>/g)) {
    const [, close, name, attrs, selfClose] = m;
    expect(ELEMENTS.has(name), `element ${name}`).toBe(true);
    expect(attrs).not.toMatch(/\bon[a-z]+=/i);
    if (close) expect(stack.pop()).toBe(name);
    else if (!selfClose) stack.push(name);
  }
  expect(stack).toEqual([]);
  // Outside tags, no markup character but entities.
  const text = svg.replace(/<\/?[a-zA-Z]+[^<>]*?\/?>/g, '');
  expect(text).not.toMatch(/[<>]/);
  expect(text.replace(/&(amp|lt|gt|quot|#39);/g, '')).not.toContain('&');
}

function graphOf(labels: string[]): GraphRender {
  return {
    nodes: labels.map((l, i) => ({
      id: `n${i}`,
      kind: 'record',
      x: 0,
      y: i * 80,
      width: 200,
      height: 64,
      recordKey: i,
      recordKeys: [i],
      title: l,
      subtitle: l,
      detail: l,
      fullId: l,
      group: null,
      cycle: false,
      alarm: false,
      badges: null,
      dna: null,
      expandable: false,
      timing: [],
      place: null,
    })),
    edges: labels.length > 1 ? [{ id: 'e', from: 'n1', to: 'n0', via: 'cause', count: 1, note: null }] : [],
    folded: [],
    missing: 0,
    cycles: 0,
    streams: 0,
    ms: 0,
  };
}

describe('xmlText', () => {
  it('replaces what XML forbids with U+FFFD and escapes markup', () => {
    expect(xmlText('a\u0000b\u001bc\u0008')).toBe('a\ufffdb\ufffdc\ufffd');
    expect(xmlText('tab\tlf\ncr\r')).toBe('tab\tlf\ncr\r');
    expect(xmlText('\ufffe\uffff')).toBe('\ufffd\ufffd');
    expect(xmlText('lone \ud800 and \udc00, pair 😀')).toBe('lone \ufffd and \ufffd, pair 😀');
    expect(xmlText('</text><script>alert("x")</script>&\'')).toBe('&lt;/text&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;');
    expect(() => xmlText(1 as unknown as string)).toThrow(TypeError);
  });
});

describe('graphToSvg', () => {
  it('is well-formed for hostile labels', () => {
    const svg = graphToSvg(graphOf(['\u0000\u001b[2J</text><script>x</script>', 'a\ud800b & "q" \uffff', '😀'.repeat(30) + '\udbff']), new Set(['cause']));
    expectWellFormed(svg);
    expect(svg).toContain('😀');
  });

  it('is well-formed for any labels (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 50 }), { minLength: 1, maxLength: 4 }), (labels) => {
        expectWellFormed(graphToSvg(graphOf(labels), new Set(['cause'])));
      }),
      { numRuns: 300, seed: 14 },
    );
  });

  it('cuts the detail line between characters, never inside a surrogate pair', () => {
    const svg = graphToSvg(graphOf(['x'.repeat(39) + '😀😀']), new Set());
    expect(svg).toContain('x'.repeat(39) + '😀</text>');
    expect(svg).not.toContain('\ufffd');
  });

  it('over records whose sender holds controls and a lone surrogate (JSON escapes allow both)', () => {
    const from = '\\u0000\\u001b\\ud800<b>&';
    const text = `{"type":"intent_workflow","envelope":{"from":"${from}","payload":"p","epoch":1,"hash":"${from}","signature":""}}`;
    const result = inspect([{ name: 'wf.json', bytes: utf8Encode(text) }]);
    const graph = renderGraph(result.log, result.workflows, (i) => summarize(i, result.records[i]), []);
    expect(graph.nodes.length).toBeGreaterThan(0);
    expect(graph.nodes.some((n) => FORBIDDEN.test(n.subtitle + n.title + n.detail))).toBe(true);
    expectWellFormed(graphToSvg(graph, new Set(['parent_envelope', 'cause'])));
  });
});

describe('ids in the export', () => {
  const file = resolve(__dirname, '../../../vectors/agdx/made/conversation_http_v07.json');
  const result = inspect([{ name: 'conversation_http_v07.json', bytes: new Uint8Array(readFileSync(file)) }]);
  const graph = renderGraph(result.log, result.workflows, (i) => summarize(i, result.records[i]), []);

  it('records with different ids get different labels (start…end), the ghost included', () => {
    const records = graph.nodes.filter((n) => n.kind === 'record');
    expect(records.map((n) => n.subtitle)).toEqual(records.map((n) => shortId(n.fullId!)));
    expect(new Set(records.map((n) => n.subtitle)).size).toBe(records.length);
    const ghost = graph.nodes.find((n) => n.kind === 'ghost')!;
    expect(ghost.subtitle).toBe(shortId(ghost.fullId!));
    expect(ghost.subtitle).toMatch(/^.{6}….{4}$/);
  });

  it('each whole id is in the SVG: a <title> on its node, and once in the key below the drawing', () => {
    const svg = graphToSvg(graph, new Set(['cause', 'cause_at', 'correlation', 'sequence']));
    expectWellFormed(svg);
    const ids = graph.nodes.flatMap((n) => (n.fullId ? [n.fullId] : []));
    expect(ids.length).toBeGreaterThan(4);
    for (const id of ids) {
      expect(svg).toContain(`<title>${id}</title>`);
      expect(svg.split(`>${shortId(id)} = ${id}</text>`)).toHaveLength(2);
    }
    expect(idKey(graph).map((k) => k.full)).toEqual([...new Set(ids)]);
  });
});
