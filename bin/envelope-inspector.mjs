#!/usr/bin/env node
// The command line, compiled from src/cli by `npm run build:cli` (run by `prepare` on npm ci and npm pack).
try {
  await import('../dist-cli/envelope-inspector.mjs');
} catch (e) {
  if (e?.code !== 'ERR_MODULE_NOT_FOUND' || !String(e.message).includes('dist-cli')) throw e;
  process.stderr.write('envelope-inspector: not built yet: run `npm run build:cli` in the checkout\n');
  process.exitCode = 2;
}
