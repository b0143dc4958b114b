// `vite preview` of this checkout's build for a script that drives a browser (the bench, the
// screenshots): started on a strict port in its own process group, so stopping it stops vite too,
// not only the npx wrapper (killing npx alone left vite running and holding the checkout's one
// preview: the next e2e run could not start its own). Playwright's e2e run starts its own (webServer).
import { spawn } from 'node:child_process';

/**
 * Starts the server and waits until it answers; `bypassLock` lets it run beside another preview of
 * the same checkout (an e2e run's). Throws when it exits first (the port is someone else's) or
 * does not answer within `tries` half-seconds.
 * @param {{ port: number; bypassLock?: boolean; tries?: number }} options
 * @returns {Promise<{ base: string; stop: () => void }>}
 */
export async function startPreview({ port, bypassLock = false, tries = 120 }) {
  const base = `http://127.0.0.1:${port}/`;
  const answers = () =>
    fetch(base).then(
      (r) => r.ok,
      () => false,
    );
  // Someone's server already answers there: ours would exit (--strictPort), but not before theirs
  // answered the first check below, and the caller would measure or photograph theirs.
  if (await answers()) throw new Error(`vite preview could not start on port ${port} (in use? choose another port)`);
  const args = ['vite', 'preview', '--port', String(port), '--strictPort', '--host', '127.0.0.1', ...(bypassLock ? ['--bypass-lock'] : [])];
  const server = spawn('npx', args, { stdio: 'ignore', detached: true });
  let exited = false;
  server.on('exit', () => (exited = true));
  const stop = () => {
    // The group may be gone already (the server exited on its own): nothing to stop then.
    try {
      if (server.pid) process.kill(-server.pid, 'SIGTERM');
    } catch {}
  };
  for (let tried = 0; ; tried++) {
    if (exited) throw new Error(`vite preview could not start on port ${port} (in use? choose another port)`);
    if (await answers()) return { base, stop };
    if (tried >= tries) {
      stop();
      throw new Error(`vite preview did not answer on ${base}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}
