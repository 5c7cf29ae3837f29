import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * Comments, docs, tests and bench notes stand on their own: a reader of this repository has no design document,
 * contract section or issue tracker beside it, so a reference to one ("DESIGN §3", "spec §2.4", "issue 25",
 * "the brief") says nothing. State the rule, or name the route, file or decision record instead.
 */
// A bare section sign names a section of a contract the reader does not have ("(§4.4)"); an RFC's section says whose.
const ELSEWHERE = /DESIGN §|DESIGN\.md|\b[Ss]pec §|(?<!RFC \d+ )§\s?\d|\b[Ii]ssues? #?\d+|\bthe brief\b|partner-api\.md|\.\.\/shared\//;
const THIS_FILE = 'test/docs/self-contained.test.ts';

const tracked = (): string[] =>
  execFileSync('git', ['ls-files', '--', 'src', 'docs', 'bench', 'test', 'migrations', 'console/src', 'README.md', 'vitest.config.ts', '.ci'], {
    encoding: 'utf8',
  })
    .split('\n')
    .filter((file) => /\.(ts|tsx|md|graphql|css|html|sh|yml|json)$|^\.ci\//.test(file) && file !== THIS_FILE);

/** Each line of `files` that points outside the repository, as `file:line: text`. */
function referencesElsewhere(files: string[], read: (file: string) => string): string[] {
  return files.flatMap((file) =>
    read(file)
      .split('\n')
      .flatMap((line, i) => (ELSEWHERE.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
  );
}

describe('a repository that stands on its own', () => {
  it('names no document outside it in a comment, doc, test or bench note', () => {
    expect(referencesElsewhere(tracked(), (file) => readFileSync(file, 'utf8'))).toEqual([]);
  });

  it('fails on each kind of outside reference', () => {
    const lines = [
      '// DESIGN §8: one budget',
      ' * the rounding of spec §2.4',
      '/** Issue 23: logs */',
      'as the brief says',
      'see ../shared/spec/partner-api.md',
      '// ——— On-ramp (§4.4) ———',
    ];
    expect(referencesElsewhere(['a.ts'], () => lines.join('\n'))).toHaveLength(lines.length);
    expect(referencesElsewhere(['a.ts'], () => '// decision 018 and docs/api/transfers.md say so')).toEqual([]);
    expect(referencesElsewhere(['a.ts'], () => '// a 405 with the methods it takes (RFC 9110 §15.5.6)')).toEqual([]);
  });
});
