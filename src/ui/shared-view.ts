// What a permalink or bundle preset, in words for the page's "Shared view" banner. A link is made by
// whoever sent it: its filters can hide records (an invalid one, say) and its redaction flag is the
// sender's word, so the page says what the link set, with the count of what its filters hide.
import type { RecordFilter, SharedView } from '../wire/protocol';
import { displayText, groupDigits } from './format';

export const FILTER_FIELDS = ['kind', 'source', 'conversation', 'validity', 'rule'] as const;

/** The list's filter as a link carries it: the fields that are set. */
export function filterToLink(f: RecordFilter): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of FILTER_FIELDS) if (f[k]) out[k] = f[k];
  return out;
}

/** A link's filters back: the list's fields only, whatever else the link holds. */
export function filterFromLink(filters: Record<string, string>): RecordFilter {
  const out: RecordFilter = {};
  for (const k of FILTER_FIELDS) if (Object.hasOwn(filters, k) && typeof filters[k] === 'string' && filters[k]) out[k] = filters[k];
  return out;
}

/** Members of a link's filters that are no filter here: ignored, and the banner says so (names escaped). */
export function ignoredFilters(filters: Record<string, string>): string[] {
  return Object.keys(filters)
    .filter((k) => !(FILTER_FIELDS as readonly string[]).includes(k))
    .map(displayText);
}

export function sameFilter(a: RecordFilter, b: RecordFilter): boolean {
  return FILTER_FIELDS.every((k) => (a[k] || '') === (b[k] || ''));
}

/** A filter in words, as the list applies it (session.filter): `validity = valid · kind = response`. */
export function describeFilter(f: RecordFilter): string {
  const parts: string[] = [];
  if (f.kind) parts.push(`kind = ${displayText(f.kind)}`);
  if (f.source) parts.push(`source contains "${displayText(f.source)}"`);
  if (f.conversation) parts.push(`conversation starts with ${displayText(f.conversation)}`);
  if (f.validity)
    parts.push(f.validity === 'problem' ? 'any problem (not decoded, an error or a warning, or a bad signature)' : `validity = ${displayText(f.validity)}`);
  // An id, any start of ids, a word in ids or in rule titles (src/core/rule-filter.ts).
  if (f.rule) parts.push(`rule "${displayText(f.rule.trim())}"`);
  return parts.join(' · ');
}

/** How many records a filter hides: `3 of 7 records hidden`; null while the count is not in yet. */
export function hiddenWords(shown: number | null, total: number): string | null {
  if (shown === null) return null;
  return `${groupDigits(total - shown)} of ${groupDigits(total)} record${total === 1 ? '' : 's'} hidden`;
}

/** What the link says of redaction, and where that claim does not hold; null when it claims none. */
export function redactionWords(view: Pick<SharedView, 'redacted' | 'notBlank'>): string | null {
  if (!view.redacted) return null;
  const claim = 'the sender says bodies were redacted: signatures over them cannot be re-checked.';
  if (!view.notBlank) return claim;
  const n = view.notBlank;
  return `${claim} But ${groupDigits(n)} record${n === 1 ? '' : 's'} of the link ${n === 1 ? 'has a body' : 'have bodies'} that ${n === 1 ? 'is' : 'are'} not blank: the claim does not hold for ${n === 1 ? 'it' : 'them'}, and ${n === 1 ? 'its verdict is' : 'their verdicts are'} over the bodies as received.`;
}

/** What the link's keys (none, ever) mean for trust, against the opener's registry of `entries`. */
export function keysWords(entries: number): string {
  return `none: a link never carries keys. Signatures are trusted only as your own registry backs them (${entries ? `${groupDigits(entries)} entr${entries === 1 ? 'y' : 'ies'}` : 'it is empty, so nothing is trusted'}).`;
}

/** What a link's graph viewport is, in words: where the Graph tab opens, and what happens if it shows nothing. */
export function viewportWords(viewport: SharedView['viewport']): string {
  if (viewport === null) return 'none: the Graph tab opens fitted to the graph.';
  const n = (v: number) => String(Math.round(v * 100) / 100);
  return `the Graph tab opens at x ${n(viewport.x)}, y ${n(viewport.y)}, zoom ${n(viewport.zoom)}, as the sender left it (a viewport that shows no node of the graph is fitted to the graph instead, and says so).`;
}
