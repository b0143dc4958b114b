// The canvas's words: the font it writes in, and writing them.
/**
 * The canvas writes in the page's own font at the size of the text around it (11 px), read once per
 * canvas: the same family the page's text already resolved, symbol fallbacks (⚠ ⟲) included, so a
 * frame never waits for a font of its own to be found.
 */
const fonts = new WeakMap<HTMLCanvasElement | OffscreenCanvas, string>();
export function fontOf(canvas: HTMLCanvasElement | OffscreenCanvas): string {
  let font = fonts.get(canvas);
  if (font === undefined) {
    const family = typeof getComputedStyle === 'function' && 'isConnected' in canvas && canvas.isConnected ? getComputedStyle(canvas).fontFamily : '';
    font = `11px ${family || 'ui-sans-serif, system-ui, sans-serif'}`;
    fonts.set(canvas, font);
  }
  return font;
}

/** Words at (x, y), in a colour. */
export function text(ctx: CanvasRenderingContext2D, s: string, x: number, y: number, color: string, align: CanvasTextAlign = 'left'): void {
  ctx.fillStyle = color;
  ctx.textAlign = align;
  ctx.fillText(s, x, y);
}
