import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url);

/** What `.gitattributes` says of a file, as git itself reads it. */
const linguistGenerated = (path: string) =>
  execFileSync('git', ['check-attr', 'linguist-generated', '--', path], { cwd: root, encoding: 'utf8' }).trim().split(': ').at(-1);

describe('generated files', () => {
  it.each(['schema.graphql', 'openapi.json', 'package-lock.json'])('%s is marked linguist-generated', (path) => {
    expect(linguistGenerated(path)).toBe('true');
  });

  it('hand-written files are not', () => {
    expect(linguistGenerated('README.md')).toBe('unspecified');
    expect(linguistGenerated('package.json')).toBe('unspecified');
  });
});
