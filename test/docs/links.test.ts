import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { slug } from '../../src/modules/docs/guide.js';

// The written docs hold together: every relative link reaches a file, every #anchor a heading of it; every setting
// Ramp reads is documented; the README stays a five-minute read.
const root = join(import.meta.dirname, '../..');
const markdownUnder = (dir: string): string[] =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? markdownUnder(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : [],
  );
const files = ['README.md', ...markdownUnder('docs'), ...markdownUnder('bench/results')];
const read = (file: string) => readFileSync(join(root, file), 'utf8');
/** Headings outside code blocks, as GitHub anchors them. */
const anchorsOf = (file: string) =>
  new Set(
    read(file)
      .replace(/^```[\s\S]*?^```$/gm, '')
      .split('\n')
      .filter((line) => /^#{1,6} /.test(line))
      .map((line) => slug(line.replace(/^#+ /, '').replace(/`/g, ''))),
  );

describe('the docs', () => {
  it('link only to files that exist, and to headings those files have', () => {
    const broken: string[] = [];
    for (const file of files) {
      const text = read(file).replace(/^```[\s\S]*?^```$/gm, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?:|mailto:|\/)/.test(target!)) continue;
        const [path, anchor] = target!.split('#') as [string, string | undefined];
        const resolved = path ? join(dirname(file), path) : file;
        if (!existsSync(join(root, resolved))) broken.push(`${file}: ${target} (no such file)`);
        else if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) broken.push(`${file}: ${target} (no such heading)`);
        else if (anchor && statSync(join(root, resolved)).isDirectory()) broken.push(`${file}: ${target} (a folder has no headings)`);
      }
    }
    expect(files.length).toBeGreaterThan(40);
    expect(broken).toEqual([]);
  });

  it('document every environment variable Ramp reads, in docs/operations/configuration.md', () => {
    const settings = [...read('src/config.ts').matchAll(/^ {2}([A-Z][A-Z0-9_]+): /gm)].map((m) => m[1]!);
    expect(settings.length).toBeGreaterThan(30);
    const documented = read('docs/operations/configuration.md');
    expect(settings.filter((name) => !documented.includes(`| \`${name}\``) && !documented.includes(` / \`${name}\``))).toEqual([]);
  });

  it('keep the README a five-minute read that points into docs/', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
    for (const command of ['npm start', 'npm test']) expect(readme).toContain(command);
    for (const target of ['docs/api/', 'docs/operations/', 'docs/engineering/', 'docs/engineering/dependencies.md']) expect(readme).toContain(`](${target}`);
  });

  it('keep benchmark runs in bench/results/, dated, and out of the README and the partner guide', () => {
    const runs = readdirSync(join(root, 'bench/results')).filter((name) => name.endsWith('.md'));
    expect(runs.length).toBeGreaterThan(0);
    for (const name of runs) expect(name).toMatch(/^\d{4}-\d{2}-\d{2}.*\.md$/);
    for (const file of files.filter((f) => f === 'README.md' || f.startsWith('docs/api/'))) {
      expect({ file, runs: /req\/s|pairs\/s|deliveries\/s/.test(read(file)) }).toEqual({ file, runs: false });
    }
    expect(relative(root, join(root, 'bench/results'))).toBe('bench/results');
  });
});
