// Issue 18, bytes: the hex view shows its ASCII column whole (16 bytes a row where that fits, else
// 8), and a finding's span reads both in hex (as the hex view numbers bytes) and in decimal.
import { readFileSync } from 'node:fs';
import { atEachWidth, expect, test, vector } from './fixtures';

const file = 'agdx/laser-wire-0.0.1/agent_invalid_status_bad_operation.bin';

atEachWidth((size) => {
  test('the hex view shows its ASCII column whole', async ({ inspector }) => {
    await inspector.open();
    await inspector.dropFiles([vector(file)]);
    await inspector.records('agent_invalid_status_bad_operation.bin').click();
    await inspector.hex.scrollIntoViewIfNeeded();
    await expect(inspector.hex.locator('[data-ascii]').first()).toBeVisible();
    const fit = await inspector.hexAsciiFit();
    expect(fit.asciiRight, JSON.stringify(fit)).toBeLessThanOrEqual(fit.viewRight);
    expect(fit.scrolls).toBe(false);
    expect(fit.perRow).toBe(size.width < 600 ? 8 : 16);
    // Every byte of the record is in the ASCII column: the visible rows' characters, one per byte.
    const bytes = readFileSync(vector(file));
    const first = await inspector.hex.locator('[data-ascii]').first().textContent();
    expect(first).toHaveLength(fit.perRow);
    expect(first).toBe([...bytes.subarray(0, fit.perRow)].map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '·')).join(''));
  });

  test('a finding span reads in hex and in decimal', async ({ inspector }) => {
    await inspector.open();
    await inspector.dropFiles([vector(file)]);
    await inspector.records('agent_invalid_status_bad_operation.bin').click();
    const row = inspector.findings.locator('tr[data-rule="agdx/matrix/operation"]');
    const bytes = readFileSync(vector(file));
    const at = bytes.indexOf(Buffer.from('telemetry')) - 1;
    const end = at + 10;
    await expect(row).toContainText(`[0x${at.toString(16)}, 0x${end.toString(16)}) ${at}–${end}`);
    // The hex view's offsets are the same numbers.
    await row.click();
    await expect(inspector.hex.locator('[data-selected]').first()).toHaveAttribute('data-offset', String(at));
  });
});
