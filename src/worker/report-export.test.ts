// The page's export (report@1 and its Markdown summary) pinned to its bytes over a few loads: a
// change to how reports are made must leave what the page writes as it is.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseKeys } from '../core/keys/keys';
import { InspectorSession } from './session';

const root = resolve(__dirname, '../..');
const read = (p: string) => new Uint8Array(readFileSync(resolve(root, p)));
const filesIn = (dir: string) =>
  readdirSync(resolve(root, dir))
    .filter((f) => !f.endsWith('.md') && statSync(resolve(root, dir, f)).isFile())
    .sort()
    .map((f) => join(dir, f));
const digest = (text: string) => createHash('sha256').update(text).digest('hex');

/** The export's digests after loading `files`, the registry `keys` set before the load, or after it with `keysAfter`. */
async function exported(files: string[], keys?: string, keysAfter = false): Promise<{ json: string; markdown: string }> {
  const session = new InspectorSession();
  if (keys && !keysAfter) await session.setKeys(parseKeys(read(keys)).keys);
  await session.load(files.map((f) => ({ name: f, data: new Blob([read(f)]) })));
  if (keys && keysAfter) await session.setKeys(parseKeys(read(keys)).keys);
  const { json, markdown } = session.report();
  return { json: digest(json), markdown: digest(markdown) };
}

describe("the page's export", () => {
  it('of the samples', async () => {
    expect(await exported(filesIn('public/samples'))).toMatchInlineSnapshot(`
      {
        "json": "180c22e14b7b8dc753f6c8fd57cfd23f5292fedf187cba4a0c1a496816489d00",
        "markdown": "ccab31bd08712d8dc5bdc3c32370bcd4a3b6c093e4f9e5da0d7782dac16dc5e2",
      }
    `);
  });
  it('of the made AGDX vectors, with their keys', async () => {
    expect(await exported(filesIn('vectors/agdx/made'), 'vectors/agdx/made/keys.json')).toMatchInlineSnapshot(`
      {
        "json": "cdb7091982c7dfe85c00358614df305c61a10fe6f94c856fc51bfa763a88fd29",
        "markdown": "421059065eda40faafc69079b4ec451d7155192d12b6675695e27e52360fc724",
      }
    `);
  });
  it('of the made AGDX vectors, their keys set after the load', async () => {
    expect(await exported(filesIn('vectors/agdx/made'), 'vectors/agdx/made/keys.json', true)).toMatchInlineSnapshot(`
      {
        "json": "cdb7091982c7dfe85c00358614df305c61a10fe6f94c856fc51bfa763a88fd29",
        "markdown": "421059065eda40faafc69079b4ec451d7155192d12b6675695e27e52360fc724",
      }
    `);
  });
  it('of the laser SDK vectors', async () => {
    expect(await exported(filesIn('vectors/agdx/laser-sdk-ts-0.7.0'))).toMatchInlineSnapshot(`
      {
        "json": "3b44d4cbd2fce163d16945f81f2a2cda1fb48b5abe9a288588f56d3a619070f6",
        "markdown": "2f201777fc3eed5d9707ab875615b50e497f74c0df2c723dee370019e3656ddf",
      }
    `);
  });
  it('of the AgentDNA synthetic workflows', async () => {
    expect(await exported(filesIn('vectors/agentdna/synthetic'))).toMatchInlineSnapshot(`
      {
        "json": "e3c7650cc4f42b9c32aae47c92080064f111cfd3caf8bdc8872b61a7da9df1a9",
        "markdown": "ae118a827f3a20485502a543d1e2ae19fb9bb0cd502464030254e887b9fd0dd8",
      }
    `);
  });
  it('of the hostile vectors', async () => {
    expect(await exported(filesIn('vectors/hostile'))).toMatchInlineSnapshot(`
      {
        "json": "901f22a0c151a2628fc133129fb4b7bb7d08ed4bb0601cccb5bd20a36a69b161",
        "markdown": "c63ad362f75bb3e2ed7ba28f7ba20ab9bde4a1c4759a6bd8248a80782f4fe4a2",
      }
    `);
  });
  it('of the laser wire vectors', async () => {
    expect(await exported(filesIn('vectors/agdx/laser-wire-0.0.1'))).toMatchInlineSnapshot(`
      {
        "json": "e5d755430525b4489b24679ebac88dbfde01289f81e7f79239354cd708c59534",
        "markdown": "a777b906da4a092c9d3edac3b1a7dfde3ac74ac7f3e06750ef668de87a044e31",
      }
    `);
  });
  it('of the sessions vectors and a conversation', async () => {
    expect(await exported([...filesIn('vectors/agdx/sessions'), 'public/samples/conversation.cborseq'])).toMatchInlineSnapshot(`
      {
        "json": "e752c0be105fe605d7709b1ab22fac7e8505ebd9e59ef0941ada394fb2b44474",
        "markdown": "87ebcfa3b74de90b1f9e7b0c4d7098d70d75103f18259235c39a8e26c09d23c0",
      }
    `);
  });
});
