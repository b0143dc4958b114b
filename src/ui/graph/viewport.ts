// Where the graph opens: fitted to the canvas, but never so small its text cannot be read. A graph
// too large to fit at a readable zoom opens at that zoom on its top-left corner (where its first
// layers are), and the person pans from there; one that fits is centred. Pure: no DOM.

/** React Flow's zoom below which node text is specks (11 px text at 0.6 is about 7 px). */
export const READABLE_ZOOM = 0.6;
/** Fitting a small graph never blows it up past this. */
export const FIT_MAX_ZOOM = 1.25;
const PADDING = 24;

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The viewport (React Flow's x, y, zoom) that shows `nodes` on a canvas of `size`; with `focus` (the
 * selected record's node), one that also shows it: when the fit leaves it out, it is centred instead.
 */
export function fitViewport(nodes: readonly Box[], size: { width: number; height: number }, focus: Box | null = null): { x: number; y: number; zoom: number } {
  if (!(size.width > 0 && size.height > 0)) throw new TypeError('fitViewport: the canvas must have a size');
  if (nodes.length === 0) return { x: PADDING, y: PADDING, zoom: 1 };
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const n of nodes) {
    minX = Math.min(minX, n.x);
    minY = Math.min(minY, n.y);
    maxX = Math.max(maxX, n.x + n.width);
    maxY = Math.max(maxY, n.y + n.height);
  }
  const room = { width: Math.max(1, size.width - 2 * PADDING), height: Math.max(1, size.height - 2 * PADDING) };
  const fit = Math.min(room.width / (maxX - minX || 1), room.height / (maxY - minY || 1));
  const zoom = Math.min(FIT_MAX_ZOOM, Math.max(READABLE_ZOOM, fit));
  // Along each axis: centred when the graph fits, else from its start.
  const place = (min: number, max: number, span: number) => {
    const drawn = (max - min) * zoom;
    return drawn <= span ? PADDING + (span - drawn) / 2 - min * zoom : PADDING - min * zoom;
  };
  const fitted = { x: place(minX, maxX, room.width), y: place(minY, maxY, room.height), zoom };
  if (!focus) return fitted;
  const left = focus.x * zoom + fitted.x;
  const top = focus.y * zoom + fitted.y;
  const inView = left >= 0 && top >= 0 && left + focus.width * zoom <= size.width && top + focus.height * zoom <= size.height;
  if (inView) return fitted;
  return { x: size.width / 2 - (focus.x + focus.width / 2) * zoom, y: size.height / 2 - (focus.y + focus.height / 2) * zoom, zoom };
}

/** Whether a viewport on a canvas of `size` shows any part of any of `nodes` (a link's may aim at empty space). */
export function showsAnyNode(nodes: readonly Box[], size: { width: number; height: number }, viewport: { x: number; y: number; zoom: number }): boolean {
  if (!(viewport.zoom > 0)) return false;
  const left = -viewport.x / viewport.zoom;
  const top = -viewport.y / viewport.zoom;
  const right = left + size.width / viewport.zoom;
  const bottom = top + size.height / viewport.zoom;
  return nodes.some((n) => n.x + n.width > left && n.x < right && n.y + n.height > top && n.y < bottom);
}
