// Entry point: `node bin/envelope-inspector.mjs inspect …`.
import { nodeIo, run } from './main';

run(process.argv.slice(2), nodeIo).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`envelope-inspector: internal error: ${(e as Error)?.stack ?? String(e)}\n`);
    process.exitCode = 2;
  },
);
