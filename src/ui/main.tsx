import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from './App';
import { ExplainProvider } from './components/RuleRef';
import './index.css';

// What the worker answers changes only when the page says so (a load, a key change): App
// invalidates those queries then, so nothing goes stale on a timer.
const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, gcTime: 5 * 60_000, retry: false } } });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <ExplainProvider>
        <App />
      </ExplainProvider>
    </QueryClientProvider>
  </StrictMode>,
);
