import { defineConfig, devices } from '@playwright/test';

// Debian's Chromium, never a downloaded browser (scripts/ensure-chromium.mjs installs it in CI).
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// E2E_PORT lets two checkouts run their suites side by side (each starts its own preview server).
const PORT = Number(process.env.E2E_PORT ?? 4173);

export default defineConfig({
  testDir: 'e2e',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    // Recording a trace costs about a quarter of the suite's time (3.6 against 2.6 min for the
    // a11y and navigation specs), so CI records one only for a retry: a failure there is retried once.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    ...devices['Desktop Chrome'],
    viewport: { width: 1440, height: 900 },
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  webServer: {
    command: `npx vite preview --port ${PORT} --strictPort --host 127.0.0.1`,
    url: `http://127.0.0.1:${PORT}`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
