// The graph as a standalone SVG (and PNG through a canvas): drawn from the laid-out model, so the
// export shows every node, not only those on screen. All text is made valid XML and escaped.
// graphToSvg and xmlText are pure (no DOM): svgToPng alone needs a browser.
import { EDGE_KINDS } from '../../core/graph/model';
import { shortId } from '../../core/short-id';
import type { GraphRender } from '../../wire/graph';

/**
 * Characters XML 1.0 does not allow at all: C0 controls but tab, LF and CR; lone surrogates
 * (JavaScript strings may hold them, UTF-8 cannot); U+FFFE and U+FFFF. One of them makes the whole
 * SVG fail to parse (and the PNG with it).
 */
const XML_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Text (from records: names, ids, kinds) as XML character data or an attribute value: every
 * character XML 1.0 forbids becomes U+FFFD (so its place shows), and the markup characters are
 * escaped.
 */
export function xmlText(text: string): string {
  if (typeof text !== 'string') throw new TypeError('xmlText: text must be a string');
  return text.replace(XML_FORBIDDEN, '\ufffd').replace(/[&<>"']/g, (c) => XML_ESCAPES[c]);
}

const esc = xmlText;
/** The first `n` characters (code points, so no surrogate pair is cut in two). */
const firstChars = (s: string, n: number) => (s.length <= n ? s : Array.from(s).slice(0, n).join(''));

/** A whole id in the export is cut at this many characters (a hostile ref may be of any length; real ids are at most 64). */
const FULL_ID_CHARS = 128;
const ID_KEY_LINE = 14;
const ID_KEY_COLUMN = 540;

/**
 * The ids the nodes show short (start…end), each with its whole form: a PNG has no tooltips, so
 * the export lists them below the drawing, once each, in the order the nodes come.
 */
export function idKey(graph: GraphRender): { short: string; full: string }[] {
  const seen = new Set<string>();
  const out: { short: string; full: string }[] = [];
  for (const n of graph.nodes) {
    const full = n.fullId;
    if (!full || seen.has(full)) continue;
    const short = shortId(full);
    // Only what a face shows short (a ghost's log position is shown whole).
    if (short === full || !(n.title.includes(short) || n.subtitle.includes(short))) continue;
    seen.add(full);
    out.push({ short, full: firstChars(full, FULL_ID_CHARS) });
  }
  return out;
}

export function graphToSvg(graph: GraphRender, visibleVia: ReadonlySet<string>): string {
  const pad = 20;
  const maxX = Math.max(0, ...graph.nodes.map((n) => n.x + n.width)) + pad;
  const drawnMaxY = Math.max(0, ...graph.nodes.map((n) => n.y + n.height)) + pad;
  const minX = Math.min(0, ...graph.nodes.map((n) => n.x)) - pad;
  const minY = Math.min(0, ...graph.nodes.map((n) => n.y)) - pad;
  const key = idKey(graph);
  const columns = Math.max(1, Math.floor((maxX - minX - pad) / ID_KEY_COLUMN));
  const keyRows = Math.ceil(key.length / columns);
  const maxY = key.length ? drawnMaxY + 2 * ID_KEY_LINE + keyRows * ID_KEY_LINE + pad : drawnMaxY;
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${minX} ${minY} ${maxX - minX} ${maxY - minY}" width="${maxX - minX}" height="${maxY - minY}" font-family="sans-serif" font-size="11">`,
  );
  out.push(
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#475569"/></marker></defs>',
  );
  out.push(`<rect x="${minX}" y="${minY}" width="${maxX - minX}" height="${maxY - minY}" fill="#ffffff"/>`);
  for (const e of graph.edges) {
    if (!visibleVia.has(e.via)) continue;
    const a = byId.get(e.from);
    const b = byId.get(e.to);
    if (!a || !b) continue;
    const x1 = a.x;
    const y1 = a.y + a.height / 2;
    const x2 = b.x + b.width;
    const y2 = b.y + b.height / 2;
    const mid = (x1 + x2) / 2;
    const { color, dash } = EDGE_KINDS[e.via];
    out.push(
      `<path d="M${x1},${y1} C${mid},${y1} ${mid},${y2} ${x2},${y2}" fill="none" stroke="${color}" stroke-width="1.5"${dash ? ` stroke-dasharray="${dash}"` : ''} marker-end="url(#arrow)"><title>${esc(e.via)}</title></path>`,
    );
  }
  for (const n of graph.nodes) {
    const stroke = n.kind === 'ghost' ? '#94a3b8' : n.alarm ? '#ef4444' : '#cbd5e1';
    const fill = n.alarm ? '#fef2f2' : n.kind === 'ghost' ? '#f8fafc' : '#ffffff';
    // The node's whole id as its tooltip in an SVG viewer (and in the key below, for the PNG).
    const tooltip = n.fullId ? `<title>${esc(firstChars(n.fullId, FULL_ID_CHARS))}</title>` : '';
    out.push(
      `<g>${tooltip}<rect x="${n.x}" y="${n.y}" width="${n.width}" height="${n.height}" rx="6" fill="${fill}" stroke="${stroke}" stroke-width="2"${n.kind === 'ghost' ? ' stroke-dasharray="5 3"' : ''}/>`,
    );
    out.push(`<text x="${n.x + 8}" y="${n.y + 18}" font-weight="bold">${esc(n.title)}</text>`);
    // The id, then where the record is when others share its id, and its deadline marks (as the node shows them).
    const marks = [n.place, ...n.timing.map((t) => t.mark)].filter(Boolean).join(' · ');
    out.push(`<text x="${n.x + 8}" y="${n.y + 34}" fill="#475569">${esc(marks ? `${n.subtitle} · ${marks}` : n.subtitle)}</text>`);
    out.push(`<text x="${n.x + 8}" y="${n.y + 50}">${esc(firstChars(n.detail, 40))}</text></g>`);
  }
  if (key.length) {
    const top = drawnMaxY + ID_KEY_LINE;
    out.push(
      `<g font-family="monospace" font-size="10" fill="#334155"><text x="${minX + pad}" y="${top}" font-family="sans-serif" font-size="11" font-weight="bold">Ids in full</text>`,
    );
    key.forEach((k, i) => {
      const x = minX + pad + Math.floor(i / keyRows) * ID_KEY_COLUMN;
      const y = top + ID_KEY_LINE * (1 + (i % keyRows));
      out.push(`<text x="${x}" y="${y}">${esc(k.short)} = ${esc(k.full)}</text>`);
    });
    out.push('</g>');
  }
  out.push('</svg>');
  return out.join('\n');
}

export async function svgToPng(svg: string): Promise<Blob> {
  const img = new Image();
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  try {
    await new Promise<void>((resolve, reject) => {
      img.onload = () => resolve();
      img.onerror = () => reject(new Error('the SVG did not render'));
      img.src = url;
    });
    const scale = Math.min(2, 16000 / Math.max(img.width, img.height, 1));
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(img.width * scale));
    canvas.height = Math.max(1, Math.round(img.height * scale));
    const ctx = canvas.getContext('2d')!;
    ctx.scale(scale, scale);
    ctx.drawImage(img, 0, 0);
    return await new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the PNG could not be made'))), 'image/png'));
  } finally {
    URL.revokeObjectURL(url);
  }
}
