// Issue 18, ids that collide on screen: one short form (start…end) everywhere an id is shown, the
// whole id in tooltips and in the exported SVG; files that would show as identical rows told apart.
import { readFileSync } from 'node:fs';
import { atEachWidth, expect, test, vector } from './fixtures';

const SHORT = /^[0-9A-Za-z]{6}…[0-9A-Za-z]{4}$/;
const conversation = 'agdx/made/conversation_http_v07.json';
const ids = [
  '01J0Y1ZAG00000000000000001',
  '01J0Y1ZAG00000000000000002',
  '01J0Y1ZAG00000000000000003',
  '01J0Y1ZAG00000000000000004',
  '01J0Y1ZAG00000000000000005',
];
const short = (id: string) => `${id.slice(0, 6)}…${id.slice(-4)}`;

atEachWidth(() => {
  test('distinct records have distinct labels in the list, the graph and the SVG export, with the whole id beside them', async ({ inspector, page }) => {
    await inspector.open();
    await inspector.dropFiles([vector(conversation)]);
    await expect(inspector.input('conversation_http_v07.json')).toContainText('10 records');

    // The list: each record id in its short form, distinct, the whole id in the tooltip.
    const listed = (await inspector.listed('row-id')).filter((r) => r.text !== '—');
    expect(listed.map((r) => r.text)).toEqual(ids.map(short));
    expect(listed.map((r) => r.title?.split('\n')[0])).toEqual(ids.map((id) => `record ${id}`));

    // The detail: the same short form, the whole id in its tooltip.
    await (await inspector.revealRecord('conversation_http_v07.json', 6)).click();
    await expect(inspector.detail.getByTestId('detail-id')).toHaveText(short(ids[1]));
    await expect(inspector.detail.getByTestId('detail-id')).toHaveAttribute('title', ids[1]);

    // The graph: the same short forms on the nodes, the ghost's too, each whole in the node's tooltip.
    await inspector.openGraph();
    const labels = inspector.graph.locator('[data-node-kind="record"] .font-mono');
    await inspector.showWholeGraph(labels, 5);
    const shown = await labels.allTextContents();
    expect(new Set(shown).size).toBe(5);
    for (const label of shown) expect(label).toMatch(SHORT);
    expect([...shown].sort()).toEqual(ids.map(short).sort());
    const ghost = inspector.graph.locator('[data-node-kind="ghost"]');
    const ghostLabel = (await ghost.locator('.font-mono').textContent())!;
    expect(ghostLabel).toMatch(SHORT);
    const ghostTitle = (await ghost.getAttribute('title'))!;
    expect(ghostTitle.split('\n')[1]).toHaveLength(26);
    expect(short(ghostTitle.split('\n')[1])).toBe(ghostLabel);
    for (const id of ids) await expect(inspector.graph.locator(`[data-node-kind="record"][title*="${id}"]`)).toHaveCount(1);

    // The SVG export: the same labels, and every whole id (a <title> per node, and the key below).
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export SVG' }).click()]);
    const svg = readFileSync((await download.path())!, 'utf8');
    for (const id of ids) {
      expect(svg).toContain(`<title>${id}</title>`);
      expect(svg).toContain(`>${short(id)} = ${id}</text>`);
      expect(svg).toContain(`>${short(id)}</text>`);
    }
    expect(svg).toContain(`<title>${ghostTitle.split('\n')[1]}</title>`);
  });

  test('AgentDNA files that would show as identical rows get a line that tells them apart', async ({ inspector }) => {
    await inspector.open();
    const files = [
      'synthetic_tampered_direct_parent_payload_only',
      'synthetic_tampered_intermediate_payload_only',
      'synthetic_tampered_parent_payload_rehashed',
      'synthetic_tampered_tip_payload',
    ].map((f) => `${f}.serialized.json`);
    await inspector.dropFiles(files.map((f) => vector(`agentdna/synthetic/${f}`)));
    await expect(inspector.page.getByRole('status').filter({ hasText: 'Loaded' })).toHaveText('Loaded 4 records from 4 inputs.');
    // The same tip hash and the same signers in all four…
    const tips = await inspector.listed('row-id');
    expect(tips).toHaveLength(4);
    expect(new Set(tips.map((r) => r.text)).size).toBe(1);
    expect(tips[0].text).toMatch(SHORT);
    // …and the file each comes from, on the row.
    const where = await inspector.listed('row-input');
    expect(where.map((r) => r.title)).toEqual(files);
    expect(new Set(where.map((r) => r.text)).size).toBe(4);
  });
});
