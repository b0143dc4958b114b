// Compiles the command line (src/cli) to one JavaScript module, so an installed package runs on
// Node with its runtime dependencies only (no TypeScript loader). Run by `prepare` (npm ci, npm
// pack) and before the unit tests, which run the compiled CLI.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

export const CLI_OUT = 'dist-cli/envelope-inspector.mjs';

export async function buildCli() {
  await build({
    entryPoints: ['src/cli/index.ts'],
    outfile: CLI_OUT,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // The runtime dependencies (noble, multiformats) stay imports: package.json lists them.
    packages: 'external',
    legalComments: 'none',
    logLevel: 'warning',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildCli();
