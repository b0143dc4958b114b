import { describe, expect, it } from 'vitest';
import { FIT_MAX_ZOOM, fitViewport, LABEL_ZOOM, neighbourhood, openViewport, READABLE_ZOOM, showsAnyNode } from './viewport';

const grid = (columns: number, rows: number) =>
  Array.from({ length: columns * rows }, (_, i) => ({ x: (i % columns) * 300, y: Math.floor(i / columns) * 100, width: 220, height: 72 }));

describe('fitViewport', () => {
  it('a graph that fits is centred, and not blown up past the cap', () => {
    const v = fitViewport(grid(1, 1), { width: 1000, height: 500 });
    expect(v.zoom).toBe(FIT_MAX_ZOOM);
    expect(v.x + 110 * v.zoom).toBeCloseTo(500);
    expect(v.y + 36 * v.zoom).toBeCloseTo(250);
  });

  it('a graph too large to fit opens at the readable zoom on its top-left corner', () => {
    const v = fitViewport(grid(8, 40), { width: 1000, height: 400 });
    expect(v.zoom).toBe(READABLE_ZOOM);
    expect(v).toMatchObject({ x: 24, y: 24 });
  });

  it('in between: the zoom that fits', () => {
    const v = fitViewport(grid(2, 3), { width: 448, height: 1000 });
    expect(v.zoom).toBeCloseTo(400 / 520);
    expect(v.zoom).toBeGreaterThanOrEqual(READABLE_ZOOM);
  });

  it('a canvas 390 px wide: still readable', () => {
    expect(fitViewport(grid(3, 11), { width: 390, height: 420 }).zoom).toBe(READABLE_ZOOM);
  });

  it('the selected node: kept in the fitted view, or centred when the fit leaves it out', () => {
    const nodes = grid(8, 40);
    const size = { width: 1000, height: 400 };
    expect(fitViewport(nodes, size, nodes[1])).toEqual(fitViewport(nodes, size));
    const far = nodes[nodes.length - 1];
    const v = fitViewport(nodes, size, far);
    expect(v.zoom).toBe(READABLE_ZOOM);
    expect(v.x + (far.x + far.width / 2) * v.zoom).toBeCloseTo(500);
    expect(v.y + (far.y + far.height / 2) * v.zoom).toBeCloseTo(200);
  });

  it('no nodes; misuse throws', () => {
    expect(fitViewport([], { width: 10, height: 10 })).toEqual({ x: 24, y: 24, zoom: 1 });
    expect(() => fitViewport([], { width: 0, height: 10 })).toThrow(TypeError);
  });
});

describe('openViewport', () => {
  // A chain 0 → 1 → … → 39 laid out in a row, 300 px apart.
  const nodes = Array.from({ length: 40 }, (_, i) => ({ id: `n${i}`, x: i * 300, y: 0, width: 220, height: 72 }));
  const edges = nodes.slice(1).map((n, i) => ({ from: n.id, to: nodes[i].id }));
  const size = { width: 1000, height: 400 };

  it("opens on the selected node's neighbourhood at a zoom where 11 px node text reads at 12 px or more", () => {
    const focus = nodes[20];
    expect(neighbourhood(nodes, edges, focus).map((n) => n.id)).toEqual(['n19', 'n20', 'n21']);
    const v = openViewport(nodes, edges, size, focus);
    expect(v.zoom).toBeGreaterThanOrEqual(LABEL_ZOOM);
    expect(11 * v.zoom).toBeGreaterThanOrEqual(12);
    // The selected node is in view, and so is the rest of its neighbourhood when it fits.
    const left = (b: { x: number }) => b.x * v.zoom + v.x;
    for (const n of [nodes[19], nodes[20], nodes[21]]) {
      expect(left(n)).toBeGreaterThanOrEqual(0);
      expect(left(n) + n.width * v.zoom).toBeLessThanOrEqual(size.width);
    }
  });

  it('a neighbourhood wider than the canvas is centred on the selected node; without one, the graph opens from its start', () => {
    const v = openViewport(nodes, edges, { width: 390, height: 400 }, nodes[5]);
    expect(v.zoom).toBe(LABEL_ZOOM);
    expect(v.x + (nodes[5].x + 110) * v.zoom).toBeCloseTo(195);
    const whole = openViewport(nodes, edges, size, null);
    expect(whole).toMatchObject({ zoom: LABEL_ZOOM, x: 24 });
  });
});

describe('showsAnyNode: a link may aim its viewport at empty space', () => {
  const nodes = [
    { x: 0, y: 0, width: 200, height: 60 },
    { x: 400, y: 300, width: 200, height: 60 },
  ];
  const size = { width: 800, height: 600 };
  it('a viewport over the nodes shows them; one far away, or of no zoom, shows none', () => {
    expect(showsAnyNode(nodes, size, { x: 20, y: 20, zoom: 1 })).toBe(true);
    // Panned so the canvas shows x from 10,000 on: nothing there.
    expect(showsAnyNode(nodes, size, { x: -10_000, y: 0, zoom: 1 })).toBe(false);
    expect(showsAnyNode(nodes, size, { x: 0, y: 50_000, zoom: 0.5 })).toBe(false);
    expect(showsAnyNode(nodes, size, { x: 0, y: 0, zoom: 0 })).toBe(false);
    // Zoomed in on the gap between the two nodes.
    expect(showsAnyNode(nodes, size, { x: -250 * 20, y: -200 * 20, zoom: 20 })).toBe(false);
    // Only a corner of a node in view still counts.
    expect(showsAnyNode(nodes, size, { x: -590, y: -350, zoom: 1 })).toBe(true);
  });
});
