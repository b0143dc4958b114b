// Issue 18, badges that read alike: "Signature valid, not trusted" looks different from "valid,
// trusted" (its own tone, not green, readable) and says why, in the list, the detail and the graph.
import { readFileSync } from 'node:fs';
import { atEachWidth, coloursOf, contrast, expect, test, vector } from './fixtures';

const keyFile = readFileSync(vector('agdx/made/keys.json'), 'utf8');

atEachWidth(() => {
  test('a not-trusted badge differs from a trusted one and says why: list, detail, graph', async ({ inspector, page }) => {
    await inspector.open();
    // The test key registered for source-agent (signed_command.bin is its) and the other for other-agent.
    await inspector.addKeys(keyFile);
    await expect(page.getByRole('button', { name: 'Keys (2)' })).toBeVisible();
    await inspector.dropFiles([vector('agdx/made/signed_command.bin'), vector('agdx/made/signed_by_other_agent.bin')]);

    // A compact row: a mark each, named in full, in different tones (their colours are checked below, in words).
    let trusted = inspector.signatureBadge(inspector.records('signed_command.bin'));
    let untrusted = inspector.signatureBadge(inspector.records('signed_by_other_agent.bin'));
    await expect(trusted).toHaveAttribute('aria-label', 'Signed: signature valid, trusted');
    await expect(untrusted).toHaveAttribute('aria-label', 'Signed: signature valid, not trusted: key of other-agent');
    await expect(trusted).toHaveAttribute('data-tone', 'good');
    await expect(untrusted).toHaveAttribute('data-tone', 'untrusted');
    for (const mark of [trusted, untrusted]) {
      const { fg, bg } = await coloursOf(mark);
      expect(contrast(fg, bg)).toBeGreaterThanOrEqual(4.5);
    }

    // A comfortable row says it in words.
    await inspector.setDensity('comfortable');
    trusted = inspector.signatureBadge(inspector.records('signed_command.bin'));
    untrusted = inspector.signatureBadge(inspector.records('signed_by_other_agent.bin'));
    await expect(trusted).toHaveText('Signature valid, trusted');
    await expect(untrusted).toHaveText('Signature valid, not trusted: key of other-agent');
    await expect(untrusted).toBeVisible();
    // The whole badge is on screen, not cut off at the row's edge.
    expect(await untrusted.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);

    // Different colours; the not-trusted one is not green, and its text is readable (WCAG AA).
    const good = await coloursOf(trusted);
    const warn = await coloursOf(untrusted);
    expect(warn.bg).not.toEqual(good.bg);
    const [r, g, b] = warn.bg;
    expect(g > r && g > b, `not green: rgb(${warn.bg})`).toBe(false);
    expect(good.bg[1] > good.bg[0] && good.bg[1] > good.bg[2], `the trusted one is green: rgb(${good.bg})`).toBe(true);
    expect(contrast(warn.fg, warn.bg)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(good.fg, good.bg)).toBeGreaterThanOrEqual(4.5);

    // The detail header says the same.
    await inspector.records('signed_by_other_agent.bin').click();
    await expect(inspector.signatureBadge(inspector.detail)).toHaveText('Signature valid, not trusted: key of other-agent');
    await expect(inspector.signatureBadge(inspector.detail)).toHaveAttribute('data-tone', 'untrusted');

    // And the graph: both records share a record id, so each node also carries its place.
    await inspector.openGraph();
    const pills = inspector.graph.getByTestId('node-signature');
    await expect(pills).toHaveCount(2);
    await expect(pills.filter({ hasText: 'not trusted: key of other-agent' })).toHaveAttribute('data-tone', 'untrusted');
    await expect(pills.filter({ hasText: 'sig trusted' })).toHaveAttribute('data-tone', 'good');
  });
});
