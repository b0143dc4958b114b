// Takes the README screenshot: the app with its samples, a finding selected. Needs `npm run build`.
// Run: node scripts/screenshot.mjs   (starts vite preview itself)
import { chromium } from '@playwright/test';
import { spawn } from 'node:child_process';

// The server goes down with this script, whatever happens.
const server = spawn('npx', ['vite', 'preview', '--port', '4180', '--strictPort', '--host', '127.0.0.1'], { stdio: 'ignore' });
try {
  await new Promise((r) => setTimeout(r, 2500));
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: process.env.SCHEME ?? 'light' });
  await page.goto('http://127.0.0.1:4180/');
  await page.getByLabel('Kind').selectOption('status');
  await page.getByRole('listbox', { name: 'Records' }).locator('[data-input="agent_invalid_status_bad_operation.bin"]').click();
  await page.locator('tr[data-rule="agdx/matrix/operation"]').click();
  await page.waitForTimeout(300);
  await page.screenshot({ path: process.argv[2] ?? 'docs/screenshot.png' });
  await browser.close();
} finally {
  server.kill();
}
