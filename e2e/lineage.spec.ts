// Issue 25, item 3: the graph joins a spawned conversation to its parent (laser-sdk 0.7's `parent`)
// with an edge of its own, toggled from its legend entry by keyboard, at 1440 and 390 wide; a parent
// conversation not loaded is a ghost; record nodes are named by the reference's display types.
import { atEachWidth, expect, test, vector } from './fixtures';

/** The booker's session, spawned by the planner's handoff, as the edge's name says it. */
const SPAWN_EDGE = 'spawned by: from session.submitted 01KBE5…W007 to agent.handoff 01KBE5…W006';

atEachWidth(({ width }) => {
  test(`the sample conversation tree draws the parent → child edge, its legend entry toggling it by keyboard (${width})`, async ({ inspector, page }) => {
    await inspector.open();
    await inspector.samplesButton.click();
    await inspector.samplesMenu.getByRole('button', { name: 'Sessions: a laser-sdk 0.7 conversation tree' }).click();
    await expect(inspector.input('sessions_tree_http_v07.json')).toContainText('24 records');
    await inspector.openGraph();
    // Six causal and correlation edges, and the one lineage edge.
    await expect(page.getByTestId('graph-counts')).toHaveText('24 nodes · 7 edges · 0 missing · 0 cycles · 0 streams');
    const canvas = inspector.graph;
    await inspector.showWholeGraph(canvas.locator('.react-flow__node'), 24);

    // Nodes are named by their display types.
    await expect(canvas.locator('[data-node-kind="record"]').filter({ hasText: 'agent.handoff' })).toContainText('command · planner → booker');
    await expect(canvas.locator('[data-node-kind="record"]').filter({ hasText: 'session.paused' })).toHaveCount(1);

    const spawn = canvas.getByRole('group', { name: SPAWN_EDGE });
    const lineage = canvas.locator('.react-flow__edge.edge-lineage');
    const correlations = canvas.locator('.react-flow__edge.edge-correlation');
    await expect(spawn).toHaveCount(1);
    await expect(lineage).toHaveCount(1);
    await expect(correlations).toHaveCount(5);

    // Its legend entry, reached with Shift+Tab from the canvas (after the export buttons), toggled with Space.
    const toggle = page.getByLabel('Graph legend').getByRole('checkbox', { name: 'spawned by' });
    await expect(toggle).toBeChecked();
    await inspector.tabTo(toggle, { key: 'Shift+Tab', max: 8 });
    await page.keyboard.press('Space');
    await expect(toggle).not.toBeChecked();
    await expect(lineage).toHaveCount(0);
    await expect(correlations).toHaveCount(5);
    await page.keyboard.press('Space');
    await expect(toggle).toBeChecked();
    await expect(spawn).toHaveCount(1);
  });
});

test('the 0.7 vectors: a parent conversation not in the log is a ghost the spawned conversation points at', async ({ inspector, page }) => {
  await inspector.open();
  await inspector.dropFiles([vector('agdx/laser-sdk-ts-0.7.0/iggy_export.json')]);
  await expect(page.getByRole('status').filter({ hasText: 'Loaded' })).toHaveText(/^Loaded \d+ records from 1 input\.$/);
  await inspector.openGraph();
  const canvas = inspector.graph;
  const ghosts = canvas.locator('[data-node-kind="ghost"]').filter({ hasText: 'missing conversation' });
  await inspector.showWholeGraph(ghosts, 2);
  await expect(ghosts.first()).toContainText('000000…0004');
  await expect(canvas.getByRole('group', { name: /^spawned by: from .* to missing conversation 000000…0004$/ })).toHaveCount(1);
  await expect(canvas.locator('.react-flow__edge.edge-lineage')).toHaveCount(2);
});
