// Issue 25: the Sessions tab over the sample conversation tree of the laser-sdk 0.7 dialect and the
// 0.7 vectors, at 1440 and 390 wide, by keyboard: the tab bar offers Sessions (not Runs) for a 0.7
// log, both when 0.0.1 records are loaded too; each session with its states in order, its parent,
// budget and cost, its parked work; choosing a session filters the record list to it.
import { atEachWidth, expect, test, vector } from './fixtures';

atEachWidth(({ width }) => {
  test(`the Sessions tab lists each session's lifecycle, parent, budget and parked work, by keyboard (${width})`, async ({ inspector, page }) => {
    await inspector.open();
    await inspector.dropFiles([vector('agdx/sessions/sessions_tree_http_v07.json')]);
    await expect(inspector.input('sessions_tree_http_v07.json')).toContainText('24 records');
    const tabs = page.getByRole('tab');
    await expect(tabs).toHaveText(['Record', 'Graph', 'Timeline', 'Agents', 'Sessions', 'Compare']);

    // From the open tab to Sessions with the arrow keys (the ARIA tabs pattern).
    await page.getByRole('tab', { name: 'Record' }).focus();
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('tab', { name: 'Sessions' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tab', { name: 'Sessions' })).toBeFocused();

    const panel = page.getByRole('region', { name: 'Sessions' });
    await expect(panel.getByRole('heading', { name: /Sessions \(2\)/ })).toBeVisible();
    const planner = panel.getByRole('list', { name: 'Lifecycle of Trip planning' }).getByRole('button');
    await expect(planner).toHaveText(['submitted', 'working', 'completed']);
    const booker = panel.getByRole('list', { name: 'Lifecycle of Book flights' }).getByRole('button');
    await expect(booker).toHaveText(['submitted', 'working', 'paused', 'working', 'completed']);
    // booker's session is drawn under planner's, its parent.
    const child = panel.getByRole('listitem', { name: 'Session Trip planning' }).getByRole('listitem', { name: 'Session Book flights' });
    await expect(child).toBeVisible();
    const plannerCard = panel.locator('[data-session]').first();
    await expect(plannerCard).toContainText('1500 of 20000 in + out');
    await expect(plannerCard).toContainText('4200 of 60000 µ');
    await expect(panel.locator('[data-unparked="true"]')).toContainText('booker held offset 12');

    // Choosing a session by keyboard filters the list to its conversation.
    const choose = panel.getByRole('button', { name: 'Book flights' });
    await choose.focus();
    await page.keyboard.press('Enter');
    await expect(choose).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('shown')).toContainText('16 of 24');
    await page.keyboard.press('Enter');
    await expect(choose).toHaveAttribute('aria-pressed', 'false');

    // A state of the strip opens its record.
    await booker.nth(2).focus();
    await page.keyboard.press('Enter');
    await expect(inspector.detail.getByRole('heading', { level: 2 })).toContainText('status');
  });
});

test('the tab bar shows Runs for 0.0.1 records, Sessions for 0.7 ones, and both when both are loaded', async ({ inspector, page }) => {
  await inspector.open();
  await inspector.dropFiles([vector('agdx/made/registry_log_http_v07.json')]);
  await expect(inspector.input('registry_log_http_v07.json')).toContainText('13 records');
  await expect(page.getByRole('tab', { name: 'Runs' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Sessions' })).toHaveCount(0);
  await inspector.dropFiles([vector('agdx/made/registry_log_http_v07.json'), vector('agdx/laser-sdk-ts-0.7.0/iggy_export.json')]);
  // The list is windowed (the second input's header may be below it): the status line counts both.
  await expect(page.getByRole('status').filter({ hasText: 'Loaded' })).toHaveText('Loaded 48 records from 2 inputs.');
  await expect(page.getByRole('tab', { name: 'Runs' })).toBeVisible();
  await page.getByRole('tab', { name: 'Sessions' }).click();
  // The vectors' session lane (conversation 2, under parent 4): the parent is not in the log, a ghost.
  await expect(page.locator('[data-ghost="00000000000000000000000004"]')).toBeVisible();
});
