import { expect, test, vector } from './fixtures';

test('an Iggy export draws its causal graph: nodes, edges, a ghost for the missing parent, the stream with its gap', async ({ inspector, page }) => {
  await inspector.open();
  await inspector.dropFiles([vector('agdx/made/conversation_http_v07.json')]);
  await expect(inspector.input('conversation_http_v07.json')).toContainText('10 records');
  await page.getByRole('tab', { name: 'Graph' }).click();

  const canvas = page.locator('.react-flow');
  // Five records with ids, the folded stream of five chunks, and the ghost of the absent cause; the
  // graph opens on the selected record's neighbourhood: Fit shows the whole of it.
  await expect(page.getByTestId('graph-counts')).toHaveText('6 nodes · 9 edges · 1 missing · 0 cycles · 1 streams');
  await page.getByRole('button', { name: /^Fit the graph/ }).click();
  await expect(canvas.locator('.react-flow__node')).toHaveCount(7);
  await expect(canvas.locator('[data-node-kind="ghost"]')).toHaveCount(1);
  await expect(canvas.locator('[data-node-kind="ghost"]')).toContainText('missing');
  const stream = canvas.locator('[data-node-kind="stream"]');
  await expect(stream.getByTestId('stream-summary')).toHaveText('5 chunks · gap');
  await expect(stream).toContainText('gap at 2 · 1 dup · 1 after end');
  await expect(page.getByTestId('folded')).toContainText('1 stream (5 chunks)');

  // Clicking a node selects its record in the list and the detail.
  await canvas.locator('.react-flow__node', { hasText: 'response' }).click();
  await expect(inspector.detail.getByRole('heading', { level: 2 })).toContainText('response');
  await expect(inspector.records('conversation_http_v07.json').nth(6)).toHaveAttribute('aria-selected', 'true');

  // Unfolding the stream draws its five chunks in its place (off-screen nodes are not rendered),
  // once the graph has finished centring on the record just selected.
  await inspector.graphAtRest();
  await stream.getByRole('button', { name: 'unfold' }).click();
  await expect(page.getByTestId('graph-counts')).toContainText('10 nodes');
  await expect(canvas.locator('[data-node-kind="stream"]')).toHaveCount(0);

  // Each edge style can be hidden.
  await page.getByLabel('Graph legend').getByText('correlation pair').click();
  await expect(canvas.locator('.react-flow__edge.edge-correlation')).toHaveCount(0);
});

test('an AgentDNA fan-in workflow draws its DAG with the tampered envelope marked', async ({ inspector, page }) => {
  await inspector.open();
  await inspector.dropFiles([vector('agentdna/synthetic/synthetic_tampered_intermediate_payload_only.serialized.json')]);
  await page.getByRole('tab', { name: 'Graph' }).click();
  const canvas = page.locator('.react-flow');
  // Six distinct envelopes; six parent edges: a tree would have five, the fan-in adds one.
  await inspector.showWholeGraph(canvas.locator('[data-node-kind="envelope"]'), 6);
  await expect(canvas.locator('.react-flow__edge.edge-parent_envelope')).toHaveCount(6);
  await expect(canvas.locator('[data-node-kind="envelope"][data-alarm]')).toHaveCount(1);
  await expect(canvas.locator('[data-node-kind="envelope"][data-alarm]')).toContainText('hash BAD');
});
