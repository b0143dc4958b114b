// Takes the README's and docs/guide.md's screenshots: the app with its samples at 1440 wide (the
// compact list, a finding selected), at 390 wide (the graph, on a phone), a comparison of two
// records at 1440 wide (the whole pane, its aligned byte diff), the timeline of the deadlines
// vector at 1440 wide (its late answer selected), and the Sessions tab of the sample conversation
// tree. Needs `npm run build`.
// Run: node scripts/screenshot.mjs [wide.png] [narrow.png] [compare.png] [timeline.png] [sessions.png]   (starts vite preview itself)
// ONLY=compare (or wide, narrow, timeline, sessions) takes that one alone.
import { chromium } from '@playwright/test';
import { startPreview } from './preview-server.mjs';

// SCREENSHOT_PORT lets two checkouts take theirs side by side. The server goes down with this script, whatever happens.
const port = Number(process.env.SCREENSHOT_PORT ?? 4180);
const server = await startPreview({ port });
const { base } = server;
try {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const colorScheme = process.env.SCHEME ?? 'light';

  const take = (name) => !process.env.ONLY || process.env.ONLY === name;

  // Wide: a first visit (the samples load by themselves), the note about them read and dismissed.
  if (take('wide')) {
    const wide = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme });
    await wide.goto(base);
    await wide.getByRole('button', { name: 'Dismiss this note' }).click();
    // Every sample in the compact list; the status with a bad operation selected.
    await wide.getByRole('listbox', { name: 'Records' }).locator('[data-input="agent_invalid_status_bad_operation.bin"]').click();
    // The finding's message is its row's button (its rule id opens an explanation instead).
    await wide.locator('tr[data-rule="agdx/matrix/operation"] td').nth(2).getByRole('button').click();
    await wide.waitForTimeout(300);
    await wide.screenshot({ path: process.argv[2] ?? 'docs/screenshot.png' });
  }

  // Narrow: the graph of the samples on a phone, scrolled to the view below the list.
  if (take('narrow')) {
    const narrow = await browser.newPage({ viewport: { width: 390, height: 844 }, colorScheme, deviceScaleFactor: 2 });
    await narrow.goto(base);
    await narrow.getByRole('button', { name: 'Dismiss this note' }).click();
    await narrow.getByRole('tab', { name: 'Graph' }).click();
    await narrow.locator('.react-flow__node').first().waitFor();
    await narrow.getByRole('tablist', { name: 'View' }).evaluate((el) => el.scrollIntoView());
    await narrow.waitForTimeout(400);
    await narrow.screenshot({ path: process.argv[3] ?? 'docs/screenshot-narrow.png' });
  }

  // Compare: the sequence's command with its invalid twin (#5), from "Compare with…" in the
  // command's detail; the comparison takes the whole pane.
  if (take('compare')) {
    const page = await browser.newPage({ viewport: { width: 1440, height: 1150 }, colorScheme });
    await page.goto(base);
    await page.getByRole('button', { name: 'Dismiss this note' }).click();
    await page.getByRole('listbox', { name: 'Records' }).locator('[data-input="conversation.cborseq"][data-index="0"]').click();
    await page.getByRole('article', { name: 'Record detail' }).getByRole('button', { name: 'Compare with…' }).click();
    await page.getByRole('dialog').getByRole('combobox').fill('#5');
    await page.getByRole('dialog').getByRole('option').first().waitFor();
    await page.keyboard.press('Enter');
    await page.getByTestId('signature-meaning').waitFor();
    await page.getByTestId('aligned-hunk').first().waitFor();
    // No focus ring in the picture.
    await page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
    await page.waitForTimeout(400);
    await page.screenshot({ path: process.argv[4] ?? 'docs/screenshot-compare.png' });
  }

  // The timeline: one conversation with a missed deadline, one passed unanswered, clock skew and a
  // stream with a gap; the late answer selected (its finding below), the timeline given more room.
  if (take('timeline')) {
    const timeline = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme });
    await timeline.goto(`${base}?samples=none`);
    await timeline.getByLabel('Choose record files').setInputFiles('vectors/agdx/made/deadlines.cborseq');
    await timeline.getByRole('status').filter({ hasText: 'Loaded 12 records' }).waitFor();
    await timeline.getByRole('tab', { name: 'Timeline' }).click();
    await timeline.getByTestId('timeline-canvas').and(timeline.locator('[data-drawn]')).waitFor();
    await timeline.getByTestId('timeline-missed').click();
    const split = timeline.getByRole('separator', { name: /^Resize/ });
    await split.focus();
    await split.press('ArrowDown');
    await split.blur();
    await timeline.waitForTimeout(400);
    await timeline.screenshot({ path: process.argv[5] ?? 'docs/screenshot-timeline.png' });
  }
  // Sessions: the sample conversation tree of the laser-sdk 0.7 dialect, booker's paused state selected.
  if (take('sessions')) {
    const sessions = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme });
    await sessions.goto(`${base}?samples=none`);
    await sessions.getByLabel('Choose record files').setInputFiles('vectors/agdx/sessions/sessions_tree_http_v07.json');
    await sessions.getByRole('status').filter({ hasText: 'Loaded 24 records' }).waitFor();
    await sessions.getByRole('tab', { name: 'Sessions' }).click();
    await sessions.locator('[data-session]').first().waitFor();
    await sessions.getByRole('list', { name: 'Lifecycle of Book flights' }).getByRole('button', { name: 'paused' }).click();
    await sessions.waitForTimeout(400);
    await sessions.screenshot({ path: process.argv[6] ?? 'docs/screenshot-sessions.png' });
  }
  await browser.close();
} finally {
  server.stop();
}
