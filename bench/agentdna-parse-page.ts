// The page's side of agentdna_parse_ratio_browser, bundled by bench/run.ts and run in Chromium on a
// blank page: the same measurement as the Node run's, with the hash the page uses (the pure one),
// and the readers alone, JSON.parse with source text access among them (what a fast path would
// have been built on).
import { readJson } from '../src/core/json/lossless';
import { measureParseRatio } from './agentdna-parse';

function median(fn: () => unknown, runs: number): number {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    out.push(performance.now() - t);
  }
  return out.sort((a, b) => a - b)[runs >> 1];
}

(globalThis as unknown as { benchAgentDnaParse: unknown }).benchAgentDnaParse = (bytes: Uint8Array, runs: number) => {
  const text = new TextDecoder().decode(bytes);
  const ratio = measureParseRatio(bytes, text, runs);
  // A reviver that keeps each number's source text: Chromium passes it as context.source.
  const withSource = (_key: string, value: unknown, context?: { source?: string }) => (typeof value === 'number' ? (context?.source ?? value) : value);
  const sourceAccess = JSON.parse('[1.0]', withSource as never)[0] === '1.0';
  return {
    ...ratio,
    jsonParse: median(() => JSON.parse(text), runs),
    jsonParseSource: sourceAccess ? median(() => JSON.parse(text, withSource as never), runs) : -1,
    lossless: median(() => readJson(bytes, { maxDepth: 64 }), runs),
  };
};
