import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
/**
 * npm as a user's shell runs it in the checkout, with node_modules/.bin (the `node` devDependency's Node 24) first on
 * PATH. Without the npm_config_* variables an `npm run` hands its scripts (this test may run under one): they would
 * override the project's .npmrc.
 */
const shellEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_config_')));
const npm = (args: string[]) => run('npm', args, { cwd: root, env: { ...shellEnv, PATH: `${join(root, 'node_modules', '.bin')}:${process.env.PATH}` } });

// A fresh `npm install` on the machine's Node 20 printed 56 EBADENGINE blocks and a warning on
// @scarf/scarf's install script. .npmrc says why installs show errors only; these keep that reason true.
describe('npm install', () => {
  it('shows errors only (the project’s .npmrc sets loglevel=error)', async () => {
    expect((await npm(['config', 'get', 'loglevel'])).stdout.trim()).toBe('error');
  });

  it('warns of nothing on the Node the scripts run on: every package’s engines accept it, and no install script is left unreviewed', async () => {
    const pinned = JSON.parse(readFileSync(join(root, 'node_modules', 'node', 'package.json'), 'utf8')).version;
    expect(JSON.parse((await npm(['version', '--json'])).stdout).node, 'npm runs on the node devDependency').toBe(pinned);
    const { stdout, stderr } = await npm(['ci', '--dry-run', '--offline', '--no-audit', '--no-fund', '--loglevel=warn']);
    expect(`${stdout}${stderr}`).not.toMatch(/EBADENGINE|install-scripts|npm warn/);
  }, 60_000);
});
