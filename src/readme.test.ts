// The README's first screen (its first 40 lines) is what a newcomer reads: what it is, the two
// commands, a screenshot, and a tour of five steps; the rest lives in docs/, and every link there resolves.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '..');
const read = (p: string) => readFileSync(resolve(ROOT, p), 'utf8');

/** The relative links and images of a Markdown file, each resolved from its folder. */
function localLinks(file: string): string[] {
  const text = read(file);
  const targets = [...text.matchAll(/\]\(([^)\s]+)\)|src="([^"]+)"/g)].map((m) => m[1] ?? m[2]);
  return targets.filter((t) => !/^[a-z]+:/.test(t) && !t.startsWith('#')).map((t) => resolve(ROOT, dirname(file), t.split('#')[0]));
}

describe('the README', () => {
  const first = read('README.md').split('\n').slice(0, 40).join('\n');

  it('holds the two commands, a screenshot and a five-step tour in its first 40 lines', () => {
    expect(first).toContain('npm ci && npm start');
    expect(first).toContain('npm ci && npm test');
    const shot = /!\[[^\]]{20,}\]\((docs\/[\w-]+\.png)\)/.exec(first);
    expect(shot, 'a screenshot with its words').not.toBeNull();
    expect(existsSync(resolve(ROOT, shot![1]))).toBe(true);
    const steps = [...first.matchAll(/^(\d)\. \*\*[^*]+\*\*/gm)].map((m) => Number(m[1]));
    expect(steps).toEqual([1, 2, 3, 4, 5]);
  });

  it('says what it is before anything else', () => {
    const intro = first.split('```')[0];
    expect(intro).toMatch(/AGDX/);
    expect(intro).toMatch(/AgentDNA/);
    expect(intro).toMatch(/nothing is uploaded/);
  });

  it('and the docs it sends readers to link only to files that exist', () => {
    for (const file of ['README.md', 'docs/guide.md', 'docs/architecture.md']) {
      const links = localLinks(file);
      expect(links.length, file).toBeGreaterThan(0);
      for (const l of links) expect(existsSync(l), `${file} → ${l}`).toBe(true);
    }
  });
});
