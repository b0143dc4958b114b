// A rule id or error code, wherever the page shows one, is a button that opens its explanation from
// the rule catalogue (src/core/rules.ts, laid out by RuleExplanation.tsx). The catalogue's text is
// large: the explanation panel and the catalogue load only when the first explanation opens.
import { createContext, lazy, type ReactNode, Suspense, useContext, useState } from 'react';

const RuleExplanation = lazy(() => import('./RuleExplanation'));

/** Opens the explanation of a rule id (or of text that may not be one: the panel says so and suggests). */
const ExplainContext = createContext<(id: string) => void>(() => {});

/** Holds the one explanation open at a time, drawn over the page. */
export function ExplainProvider({ children }: { children: ReactNode }) {
  const [id, setId] = useState<string | null>(null);
  return (
    <ExplainContext value={setId}>
      {children}
      {id !== null && (
        <Suspense fallback={null}>
          <RuleExplanation id={id} onExplain={setId} onClose={() => setId(null)} />
        </Suspense>
      )}
    </ExplainContext>
  );
}

/** The function that opens an explanation, for a control of a panel's own (the filter's Explain). */
export function useExplain(): (id: string) => void {
  return useContext(ExplainContext);
}

/** A rule id or error code as a button: activating it opens what it means, from the catalogue. */
export function RuleRef({ id, className = '', tabIndex }: { id: string; className?: string; tabIndex?: number }) {
  const explain = useExplain();
  return (
    <button
      type="button"
      tabIndex={tabIndex}
      aria-haspopup="dialog"
      title={`What ${id} means, and what usually fixes it`}
      onClick={() => explain(id)}
      data-rule-ref={id}
      className={`rounded-sm text-left font-mono underline decoration-dotted underline-offset-2 [overflow-wrap:anywhere] hover:decoration-solid focus-visible:outline-2 focus-visible:outline-teal-600 ${className}`}
    >
      {id}
    </button>
  );
}
