import { expect, test, vector } from './fixtures';

test('the Agents view shows the quarantined and the dead agent, as of any point of the log; Runs shows the states in order', async ({ inspector, page }) => {
  await inspector.open();
  await inspector.dropFiles([vector('agdx/made/registry_log_http_v07.json')]);
  // The input's header counts them (the list itself draws only the rows in and near the view).
  await expect(inspector.input('registry_log_http_v07.json')).toContainText('13 records');
  await page.getByRole('tab', { name: 'Agents' }).click();

  const agents = page.getByRole('table', { name: 'Agents' });
  await expect(agents.getByRole('row', { name: 'Agent rogue' })).toHaveAttribute('data-quarantined', 'true');
  await expect(agents.getByRole('row', { name: 'Agent booker' })).toHaveAttribute('data-alive', 'false');
  await expect(agents.getByRole('row', { name: 'Agent planner' })).toHaveAttribute('data-alive', 'true');

  // Before the first quarantine (log position 3 of 13): rogue is not quarantined, booker still alive.
  const slider = page.getByLabel('As of');
  await slider.fill('3');
  await expect(page.getByTestId('as-of')).toContainText('record 4 of 13');
  await expect(agents.getByRole('row', { name: 'Agent booker' })).toHaveAttribute('data-alive', 'true');
  await expect(agents.getByRole('row', { name: 'Agent rogue' })).toHaveCount(0);
  // Between the quarantine and its lifting (position 5): quarantined; after the lifting (position 8): lifted.
  await slider.fill('5');
  await expect(agents.getByRole('row', { name: 'Agent rogue' })).toHaveAttribute('data-quarantined', 'true');
  await slider.fill('8');
  await expect(agents.getByRole('row', { name: 'Agent rogue' })).toHaveAttribute('data-quarantined', 'false');
  await expect(agents.getByRole('row', { name: 'Agent rogue' })).toContainText('lifted');

  // From a row to the records behind it.
  await agents
    .getByRole('row', { name: 'Agent rogue' })
    .getByRole('button', { name: /record 5/ })
    .click();
  await expect(inspector.detail.getByRole('heading', { level: 2 })).toContainText('event');
  await expect(inspector.findings.locator('tr[data-rule="agdx/fold/quarantined"]')).toHaveCount(1);

  // The slider is shared by Agents and Runs: back to the whole log.
  await page.getByRole('tab', { name: 'Runs' }).click();
  await page.getByRole('button', { name: 'Whole log' }).click();
  const states = page.getByRole('list', { name: 'States of run-9' }).getByRole('button');
  await expect(states).toHaveText(['submitted', 'working', 'completed (final)', 'working']);
  await expect(page.getByRole('listitem', { name: 'Run run-9' })).toContainText('1 state(s) after the terminal one');
});
