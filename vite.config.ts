import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

// A strict Content-Security-Policy: no inline script, no eval, nothing fetched from elsewhere.
// The built page carries it in a <meta> (for any static host); `vite preview` also sends it as a
// header, where frame-ancestors (ignored in a meta) can be set too. The dev server has none: its
// hot reload injects inline scripts.
const CSP = [
  "default-src 'self'",
  // 'wasm-unsafe-eval' lets the workers compile libsecp256k1's WebAssembly (AgentDNA signatures);
  // it allows no eval of JavaScript.
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

function contentSecurityPolicy(): Plugin {
  return {
    name: 'envelope-inspector-csp',
    apply: 'build',
    transformIndexHtml: () => [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CSP }, injectTo: 'head-prepend' }],
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), contentSecurityPolicy()],
  worker: { format: 'es' },
  build: { target: 'es2022', sourcemap: true },
  preview: {
    port: 4173,
    strictPort: true,
    headers: {
      'Content-Security-Policy': `${CSP}; frame-ancestors 'none'`,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      // Cross-origin isolation: nothing from elsewhere may load, and the benchmark can measure the
      // memory of the page and its workers (performance.measureUserAgentSpecificMemory).
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Embedder-Policy': 'require-corp',
    },
  },
  server: { port: 5173 },
});
