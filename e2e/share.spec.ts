import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { run, type CliIo } from '../src/cli/main';
import { expect, test, vector, InspectorPage } from './fixtures';

const keyFile = readFileSync(vector('agdx/made/keys.json'), 'utf8');
const publicKeys: string[] = JSON.parse(keyFile).keys.map((k: { public_key: string }) => k.public_key);

/** Builds a view: keys registered, two files loaded, record #4 of the sequence selected, graph open. */
async function buildView(inspector: InspectorPage) {
  const page = inspector.page;
  await inspector.open();
  await page.getByRole('button', { name: /^Keys/ }).click();
  await page.getByLabel(/^Key \(hex/).fill(keyFile);
  await page.getByRole('button', { name: 'Add key' }).click();
  await page.getByRole('button', { name: 'Close' }).click();
  await inspector.dropFiles([vector('agdx/made/conversation.cborseq'), vector('agdx/made/signed_command.bin')]);
  await inspector.records('conversation.cborseq').nth(4).click();
  await page.getByRole('tab', { name: 'Graph' }).click();
  await expect(page.getByTestId('graph-counts')).toBeVisible();
}

async function permalink(inspector: InspectorPage): Promise<string> {
  await inspector.page.getByRole('button', { name: 'Share' }).click();
  const link = inspector.page.getByLabel('Permalink');
  await expect(link).toHaveValue(/#v1\./);
  await expect(inspector.page.getByTestId('link-size')).toContainText('characters');
  return link.inputValue();
}

test("a permalink reopens the same view in a fresh browser, re-checked against that browser's keys, with no key in it", async ({ inspector, browser }) => {
  await buildView(inspector);
  const url = await permalink(inspector);

  // No key material: neither in the URL nor in what its fragment inflates to.
  const fragment = url.split('#')[1];
  const inflated = inflateRawSync(Buffer.from(fragment.slice(3), 'base64url').subarray(8));
  for (const k of publicKeys) {
    expect(url).not.toContain(k);
    expect(inflated.includes(Buffer.from(k, 'hex'))).toBe(false);
    expect(url).not.toContain(Buffer.from(k, 'hex').toString('base64url').slice(0, 20));
  }

  const context = await browser.newContext();
  const other = new InspectorPage(await context.newPage());
  await other.page.goto(url);
  await expect(other.records('conversation.cborseq').nth(4)).toHaveAttribute('aria-selected', 'true');
  await expect(other.page.getByRole('tab', { name: 'Graph' })).toHaveAttribute('aria-selected', 'true');
  await expect(other.detail.getByRole('heading', { level: 2 })).toContainText('response');
  await expect(
    other
      .records('conversation.cborseq')
      .nth(5)
      .getByLabel(/Valid: no/),
  ).toBeVisible();
  // The opener has no keys: the signed record is checked against their (empty) registry.
  await expect(other.records('signed_command.bin').getByLabel('Signed: unknown key')).toBeVisible();
  await context.close();
});

test('back and forward move between views', async ({ inspector, page }) => {
  await inspector.open();
  await inspector.dropFiles([vector('agdx/made/conversation.cborseq')]);
  const rows = inspector.records('conversation.cborseq');
  await rows.nth(1).click();
  await rows.nth(4).click();
  await page.getByRole('tab', { name: 'Graph' }).click();
  await page.goBack();
  await expect(page.getByRole('tab', { name: 'Record' })).toHaveAttribute('aria-selected', 'true');
  await expect(rows.nth(4)).toHaveAttribute('aria-selected', 'true');
  await page.goBack();
  await expect(rows.nth(1)).toHaveAttribute('aria-selected', 'true');
  await page.goForward();
  await expect(rows.nth(4)).toHaveAttribute('aria-selected', 'true');
});

test('a damaged, truncated or newer link opens to a clear message and the app stays usable', async ({ inspector, browser }) => {
  await buildView(inspector);
  const url = await permalink(inspector);
  const [base, fragment] = url.split('#');
  const i = Math.floor(fragment.length / 2);
  const changed = fragment.slice(0, i) + (fragment[i] === 'A' ? 'B' : 'A') + fragment.slice(i + 1);
  const cases: [string, RegExp][] = [
    [changed, /damaged/],
    [fragment.slice(0, fragment.length - 40), /damaged or cut short/],
    [fragment.replace(/^v1\./, 'v7.'), /newer Envelope Inspector/],
  ];
  for (const [frag, message] of cases) {
    const context = await browser.newContext();
    const other = new InspectorPage(await context.newPage());
    await other.page.goto(`${base}#${frag}`);
    await expect(other.page.getByRole('alert')).toContainText(message);
    // Still usable: a file drops and decodes.
    await other.dropFiles([vector('agdx/laser-wire-0.0.1/agent_event.bin')]);
    await expect(other.records('agent_event.bin').getByLabel('Valid: yes')).toBeVisible();
    await context.close();
  }
});

test("a bundle file reopens the same view when dropped, and the exported report equals the CLI's", async ({ inspector, browser }) => {
  await buildView(inspector);
  const page = inspector.page;
  await page.getByRole('button', { name: 'Share' }).click();
  const [bundle] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download bundle' }).click()]);
  const bundlePath = test.info().outputPath('view.eibundle');
  await bundle.saveAs(bundlePath);

  // The report is exported from the toolbar's Export menu.
  await page.keyboard.press('Escape');
  await page
    .getByRole('banner')
    .getByRole('button', { name: /^Export/ })
    .click();
  const [reportDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('list', { name: 'Export' }).getByRole('button', { name: 'Report (JSON)' }).click(),
  ]);
  const exported = JSON.parse(readFileSync((await reportDownload.path())!, 'utf8'));
  let cliOut = '';
  const io: CliIo = {
    readFile: async (p) => new Uint8Array(readFileSync(p)),
    readStdin: async () => new Uint8Array(),
    stdout: (t) => (cliOut += t),
    stderr: () => {},
  };
  await run(
    ['inspect', '--json', '--keys', vector('agdx/made/keys.json'), vector('agdx/made/conversation.cborseq'), vector('agdx/made/signed_command.bin')],
    io,
  );
  const cli = JSON.parse(cliOut);
  const normalise = (r: { generator?: string; inputs: { name: string }[] }) => ({
    ...r,
    generator: undefined,
    inputs: r.inputs.map((i) => ({ ...i, name: i.name.split('/').pop() })),
  });
  expect(normalise(exported)).toEqual(normalise(cli));

  const context = await browser.newContext();
  const other = new InspectorPage(await context.newPage());
  await other.open();
  await other.dropFiles([bundlePath]);
  await expect(other.records('conversation.cborseq').nth(4)).toHaveAttribute('aria-selected', 'true');
  await expect(other.page.getByRole('tab', { name: 'Graph' })).toHaveAttribute('aria-selected', 'true');
  await expect(other.records('signed_command.bin')).toHaveCount(1);
  await context.close();
});

test('a link shared with bodies redacted says its signatures cannot be re-checked', async ({ inspector, browser }) => {
  await buildView(inspector);
  const page = inspector.page;
  await page.getByRole('button', { name: 'Share' }).click();
  const link = page.getByLabel('Permalink');
  const full = await link.inputValue();
  await page.getByLabel(/Redact bodies/).check();
  await expect(link).not.toHaveValue(full);
  const url = await link.inputValue();
  const context = await browser.newContext();
  const other = new InspectorPage(await context.newPage());
  await other.page.goto(url);
  await expect(other.page.getByRole('region', { name: 'Shared view' })).toContainText('signatures over them cannot be re-checked');
  await other.records('signed_command.bin').click();
  await expect(other.page.getByTestId('signature')).toContainText('redacted');
  await expect(other.detail.getByLabel('Body')).not.toContainText('plan the trip');
  await context.close();
});

test("a permalink carries the list's filters, and the opener sees the same narrowed list", async ({ inspector, browser }) => {
  const page = inspector.page;
  await inspector.open();
  await inspector.dropFiles([vector('agdx/made/conversation.cborseq')]);
  await page.getByLabel('Kind').selectOption('response');
  const shown = page.getByTestId('shown');
  await expect(shown).toHaveText(/^[1-9][\d,]* of [\d,]+$/);
  const narrowed = await shown.textContent();
  const url = await permalink(inspector);

  const context = await browser.newContext();
  const other = new InspectorPage(await context.newPage());
  await other.page.goto(url);
  await expect(other.page.getByLabel('Kind')).toHaveValue('response');
  await expect(other.page.getByTestId('shown')).toHaveText(narrowed!);
  await context.close();
});

test('a redacted share of an AgentDNA workflow carries no payload text in the decoded link', async ({ inspector, browser }) => {
  const file = vector('agentdna/synthetic/synthetic_valid_fanin_dag.serialized.json');
  const payloads: string[] = [];
  const collect = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(collect);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) k === 'payload' && typeof x === 'string' ? payloads.push(x) : collect(x);
  };
  collect(JSON.parse(readFileSync(file, 'utf8')));
  const page = inspector.page;
  await inspector.open();
  await inspector.dropFiles([file]);
  await expect(inspector.records('synthetic_valid_fanin_dag.serialized.json')).toHaveCount(1);
  await page.getByRole('button', { name: 'Share' }).click();
  const link = page.getByLabel('Permalink');
  await expect(link).toHaveValue(/#v1\./);
  const full = await link.inputValue();
  await page.getByLabel(/Redact bodies/).check();
  await expect(link).not.toHaveValue(full);
  await expect(page.getByTestId('redaction')).toContainText(`blanked ${payloads.length} AgentDNA payloads`);
  const url = await link.inputValue();
  const inflated = inflateRawSync(Buffer.from(url.split('#')[1].slice(3), 'base64url').subarray(8)).toString('utf8');
  expect(inflateRawSync(Buffer.from(full.split('#')[1].slice(3), 'base64url').subarray(8)).toString('utf8')).toContain('Orchestrator completed');
  for (const p of payloads) {
    expect(inflated).not.toContain(p);
    expect(inflated).not.toContain(JSON.stringify(p).slice(1, -1));
  }
  expect(inflated).not.toMatch(/Orchestrator|Summarize|produce_task_spec|boom/);

  const context = await browser.newContext();
  const other = new InspectorPage(await context.newPage());
  await other.page.goto(url);
  await expect(other.page.getByRole('region', { name: 'Shared view' })).toContainText('signatures over them cannot be re-checked');
  await other.records('synthetic_valid_fanin_dag.serialized.json').click();
  await expect(other.page.getByTestId('signature')).toContainText('redacted');
  await expect(other.detail.getByLabel('Body')).not.toContainText('Orchestrator');
  await context.close();
});

test('parts redaction cannot blank are listed input by input, and no link is made until the person decides', async ({ inspector, browser }) => {
  // An Iggy export whose payload base64 escapes its slashes: it cannot be found in the text to blank.
  const { encodeEnvelope } = await import('../src/core/agdx/canonical');
  const { toBase64 } = await import('../src/core/bytes');
  const { writeFileSync } = await import('node:fs');
  const b64 = toBase64(encodeEnvelope({ kind: 'event', conversation: new Uint8Array(16).fill(2), source: 'planner', body: new Uint8Array(48).fill(0xff) }));
  const escaped = test.info().outputPath('escaped-export.json');
  writeFileSync(escaped, `{"messages":[{"offset":1,"payload":"${b64.replace(/\//g, '\\/')}"}]}`);
  const page = inspector.page;
  await inspector.open();
  await inspector.dropFiles([escaped, vector('agdx/made/signed_command.bin')]);
  await expect(inspector.records('signed_command.bin')).toHaveCount(1);
  await page.getByRole('button', { name: 'Share' }).click();
  const link = page.getByLabel('Permalink');
  await expect(link).toHaveValue(/#v1\./);
  await page.getByLabel(/Redact bodies/).check();
  const alert = page.getByTestId('unblankable');
  await expect(alert).toContainText('escaped-export.json');
  await expect(alert).toContainText("its payload's base64 could not be found");
  await expect(alert).toContainText('no link is made until you do');
  await expect(link).toHaveValue('');
  await expect(page.getByRole('button', { name: 'Copy link' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Download bundle' })).toBeDisabled();
  await page.getByLabel('Leave these inputs out of the link').check();
  await expect(link).toHaveValue(/#v1\./);
  const url = await link.inputValue();
  const context = await browser.newContext();
  const other = new InspectorPage(await context.newPage());
  await other.page.goto(url);
  await expect(other.records('signed_command.bin')).toHaveCount(1);
  await expect(other.records('escaped-export.json')).toHaveCount(0);
  await context.close();
});
