/**
 * Breaking-change check of schema.graphql (CI runs it): diffs the schema against the version before
 * the last commit that changed it and prints every change. A breaking change fails the check unless
 * that commit's message says so with a `BREAKING CHANGE:` footer, so a break is always deliberate
 * and announced (it is what partners read in the changelog).
 */
import { CriticalityLevel, diff } from '@graphql-inspector/core';
import { buildSchema } from 'graphql';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const say = (line: string) => process.stdout.write(`${line}\n`);
const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();

const current = readFileSync('schema.graphql', 'utf8');
// Uncommitted changes compare with HEAD (a preview before committing); otherwise the last change is checked.
const uncommitted = git('status', '--porcelain', '--', 'schema.graphql') !== '';
const last = uncommitted ? 'HEAD' : git('log', '-n', '1', '--format=%H', '--', 'schema.graphql');
let previous: string;
try {
  previous = git('show', `${uncommitted ? 'HEAD' : `${last}^`}:schema.graphql`);
} catch {
  say('schema.graphql has no earlier version in this history: nothing to compare');
  process.exit(0);
}

const changes = await diff(buildSchema(previous), buildSchema(current));
const breaking = changes.filter((c) => c.criticality.level === CriticalityLevel.Breaking);
const mark = { [CriticalityLevel.Breaking]: 'BREAKING ', [CriticalityLevel.Dangerous]: 'dangerous', [CriticalityLevel.NonBreaking]: 'safe     ' };
say(`schema.graphql: ${changes.length} changes since ${uncommitted ? 'HEAD (uncommitted)' : `${last.slice(0, 10)}^`} (${breaking.length} breaking)`);
for (const change of changes) say(`  ${mark[change.criticality.level]} ${change.message}`);

if (uncommitted) {
  if (breaking.length) say('\nCommit these with a "BREAKING CHANGE: <why, and what clients change>" footer.');
  process.exit(0);
}
const message = git('log', '-n', '1', '--format=%B', last);
if (breaking.length && !/^BREAKING CHANGE:/m.test(message)) {
  process.stderr.write(`\n${breaking.length} breaking changes, but commit ${last.slice(0, 10)} has no "BREAKING CHANGE:" footer saying why.\n`);
  process.exit(1);
}
