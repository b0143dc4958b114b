// The explanation of a rule id or error code, laid out from the catalogue's structured entry
// (ruleExplanation in src/core/explain.ts): the same words `envelope-inspector explain` prints.
// Loaded lazily (RuleRef.tsx): the catalogue's text stays out of the page's first bundle.
import { useEffect, useRef } from 'react';
import { type RuleExplanation, ruleExplanation, suggestRuleIds } from '../../core/explain';
import { ruleMeta } from '../../core/rules';
import { displayText } from '../format';
import { withKeys } from '../list-keys';
import { Dialog } from './Dialog';

interface Props {
  /** What to explain: a rule id, or text that may not be one (a filter's, a link's). */
  id: string;
  /** Opens another explanation in this one's place (a suggestion). */
  onExplain: (id: string) => void;
  onClose: () => void;
}

const heading = 'mt-3 text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-400';

export default function RuleExplanationDialog({ id, onExplain, onClose }: Props) {
  const e = ruleExplanation(id);
  return (
    <Dialog id="explain-title" title={e ? e.id : 'Not a rule id'} onClose={onClose} wide>
      {/* Keyed: a suggestion that replaces the explanation brings a new one, which takes the focus. */}
      {e ? <Explanation key={id} e={e} /> : <NotARule key={id} id={id} onExplain={onExplain} />}
    </Dialog>
  );
}

/**
 * Focus starts at an explanation's first line when it appears (when a suggestion replaces the
 * one before, the button pressed is gone: focus must not fall to the page behind).
 */
function useFocusOnMount<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => ref.current?.focus(), []);
  return ref;
}

function NotARule({ id, onExplain }: { id: string; onExplain: (id: string) => void }) {
  const top = useFocusOnMount<HTMLParagraphElement>();
  const near = suggestRuleIds(id);
  return (
    <>
      <p ref={top} tabIndex={-1} className="text-sm outline-none">
        <bdi className="font-mono">{displayText(id)}</bdi> is not a rule id or error code of the catalogue.
        {near.kind === 'prefix' && ' Rule ids that start with it:'}
        {near.kind === 'spelling' && ' The closest by spelling:'}
        {near.kind === 'family' && ' The rules of its family:'}
        {near.kind === 'none' && ' Rule ids start with agdx/, agentdna/, cbor/, json/ or input/.'}
      </p>
      {near.ids.length > 0 && (
        <ul aria-label="Rule ids" className="mt-2 grid gap-1 text-sm">
          {near.ids.map((s) => (
            <li key={s}>
              <button
                type="button"
                onClick={() => onExplain(s)}
                className="text-left font-mono underline decoration-dotted underline-offset-2 hover:decoration-solid"
              >
                {s}
              </button>
              <span className="ml-2 text-slate-700 dark:text-slate-300">{ruleMeta(s)?.title}</span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function Explanation({ e }: { e: RuleExplanation }) {
  const top = useFocusOnMount<HTMLParagraphElement>();
  return (
    <div data-testid="explanation" className="text-sm">
      <p ref={top} tabIndex={-1} className="font-medium outline-none">
        {e.title}
      </p>
      <p className="mt-1 text-xs text-slate-700 dark:text-slate-300">{e.kind}</p>
      <h3 className={heading}>Why it matters</h3>
      <p className="mt-1">{e.why}</p>
      <h3 className={heading}>What the spec says</h3>
      {e.spec.map((q) => (
        <figure key={`${q.doc}:${q.section}:${q.lines[0]}`} className="mt-1 border-l-4 border-slate-300 pl-3 dark:border-slate-600">
          <blockquote className="grid gap-1">
            {withKeys(q.lines, (line) => line).map(({ key, item: line }) =>
              // Table rows and the elision mark as written; prose as a paragraph.
              line.startsWith('|') || line === '[...]' ? (
                <p key={key} className="font-mono text-xs whitespace-pre-wrap [overflow-wrap:anywhere]">
                  {line}
                </p>
              ) : (
                <p key={key}>{line}</p>
              ),
            )}
          </blockquote>
          <figcaption className="mt-1 text-xs text-slate-700 dark:text-slate-300">
            <cite className="not-italic">
              {q.doc}, “{q.section}”
            </cite>
          </figcaption>
        </figure>
      ))}
      <h3 className={heading}>What usually fixes it</h3>
      <p className="mt-1">{e.fix}</p>
      <h3 className={heading}>Example</h3>
      <pre className="mt-1 rounded bg-slate-100 p-2 text-xs whitespace-pre-wrap [overflow-wrap:anywhere] dark:bg-slate-950">{e.example.join('\n')}</pre>
    </div>
  );
}
