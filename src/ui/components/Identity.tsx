// An identity (an AGDX source, an AgentDNA DID) as the page shows it: by the name your registry
// gives it, with the identity itself in the tooltip, or as written when the registry names it not.
// Both are strings a record or a registry controls: shown through displayText, inside <bdi>.
import { Fragment, useMemo } from 'react';
import { isDidEntry } from '../../core/keys/keys';
import { shortDid } from '../../core/short-id';
import { displayText } from '../format';
import { useRegistry } from '../registry-context';

/** `value` by its registered name (the identity in the tooltip), else `value` as `shorten` writes it. */
export function Identity({ value, shorten = (s) => s }: { value: string; shorten?: (s: string) => string }) {
  const { name } = useRegistry();
  const n = name(value);
  if (n === null) return <bdi>{displayText(shorten(value))}</bdi>;
  return (
    <bdi title={displayText(value)} data-identity={value} className="underline decoration-dotted underline-offset-2">
      {displayText(n)}
    </bdi>
  );
}

/**
 * Text (a summary, a reason, a sentence of a comparison) in which every DID your registry names is
 * written as its name, the DID in the tooltip. The rest is shown as it is, escaped.
 */
export function NamedText({ text }: { text: string }) {
  const { keys, name } = useRegistry();
  // Each named DID as written in full, and as summaries shorten it (start and end, core/short-id.ts shortDid).
  const forms = useMemo(() => {
    const out = new Map<string, string>();
    for (const e of keys) {
      if (!isDidEntry(e) || name(e.did) === null) continue;
      out.set(e.did, e.did);
      if (!out.has(shortDid(e.did))) out.set(shortDid(e.did), e.did);
    }
    return out;
  }, [keys, name]);
  const parts = useMemo(
    () =>
      splitOn(
        text,
        [...forms.keys()].sort((a, b) => b.length - a.length),
      ),
    [text, forms],
  );
  return <>{parts.map((p) => (p.did ? <Identity key={p.at} value={forms.get(p.text)!} /> : <Fragment key={p.at}>{displayText(p.text)}</Fragment>))}</>;
}

/** `text` cut at every occurrence of one of `needles` (the longest first where they overlap); `at` is where each piece starts. */
export function splitOn(text: string, needles: readonly string[]): { text: string; did: boolean; at: number }[] {
  const out: { text: string; did: boolean; at: number }[] = [];
  let from = 0;
  let plain = 0;
  while (needles.length > 0 && from < text.length) {
    let at = -1;
    let found = '';
    for (const n of needles) {
      const i = text.indexOf(n, from);
      if (i >= 0 && (at < 0 || i < at || (i === at && n.length > found.length))) {
        at = i;
        found = n;
      }
    }
    if (at < 0) break;
    if (at > plain) out.push({ text: text.slice(plain, at), did: false, at: plain });
    out.push({ text: found, did: true, at });
    from = plain = at + found.length;
  }
  if (plain < text.length || out.length === 0) out.push({ text: text.slice(plain), did: false, at: plain });
  return out;
}
