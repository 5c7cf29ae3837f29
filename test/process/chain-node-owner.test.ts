import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createPublicClient, erc20Abi, getAddress, http } from 'viem';
import { afterEach, describe, expect, it } from 'vitest';
import { fundedOnramp, getOnramp, units } from '../support/chain/payouts.js';
import { type ApiClient, apiClient, onPostgres } from '../support/ramp.js';
import { createCustomer } from '../support/data/transfers.js';
import { waitFor } from '../support/clients/webhook-receiver.js';

const root = join(import.meta.dirname, '../..');

/** `npm start` as a partner runs it: embedded PGlite in `dataDir`, the sandbox chain beside it in `<dataDir>-chain`. */
async function startRamp(dataDir: string, key?: string) {
  const { DATABASE_URL: _, ...env } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: root,
    env: {
      ...env,
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SANDBOX_CHAIN_BLOCK_TIME_SECONDS: '1',
      SANDBOX_CONFIRMATIONS: '1',
      CHAIN_POLL_INTERVAL_MS: '250',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.on('exit', () => running.delete(child));
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Lost a key?')) resolve();
    };
    child.stdout.on('data', read);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`Ramp exited with ${code}:\n${output}`)));
  });
  const url = /GraphQL: +(http:\/\/\S+)\/graphql/.exec(output)![1]!;
  const rpcUrl = /Chain: +(http:\/\/\S+)/.exec(output)![1]!;
  const apiKey = key ?? /\(shown once, keep it\): (rk_sandbox_\w+)/.exec(output)![1]!;
  return { child, api: apiClient(url, apiKey), key: apiKey, rpcUrl };
}
const running = new Set<ChildProcess>();

async function killOutright(child: ChildProcess) {
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

/** Every process that is an anvil writing `stateFile`, asked of the system itself (/proc), not of Ramp's pid file. */
function anvilsWriting(stateFile: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        return basename(args[0]!) === 'anvil' && args[args.indexOf('--state') + 1] === stateFile;
      } catch {
        return false;
      }
    })
    .map(Number);
}

const nodeRecord = (chainDir: string) => JSON.parse(readFileSync(join(chainDir, 'anvil.pid'), 'utf8')) as { pid: number; watchdogPid: number };

async function completedOnramp(api: ApiClient) {
  const customer = await createCustomer(api);
  const onramp = await fundedOnramp(api, customer, 'polygon');
  await waitFor(async () => (await getOnramp(api, customer, onramp.id)).status === 'completed', 60_000, 'the on-ramp completed');
  return onramp;
}

async function usdcBalance(api: ApiClient, rpcUrl: string, holder: string): Promise<bigint> {
  const networks = await api.get('/v0/sandbox/networks');
  const polygon = networks.body.items.find((n: { network: string }) => n.network === 'polygon');
  const usdc = polygon.tokens.find((t: { token: string }) => t.token === 'usdc').contract_address;
  const client = createPublicClient({ transport: http(rpcUrl) });
  return client.readContract({ address: getAddress(usdc), abi: erc20Abi, functionName: 'balanceOf', args: [getAddress(holder)] });
}

// The chain keeps state only beside an embedded database; on PostgreSQL each start has a new chain.
describe.skipIf(onPostgres || !existsSync('/proc/self/cmdline'))('the sandbox node belongs to one Ramp', () => {
  const parents: string[] = [];
  const dataDir = () => {
    const parent = mkdtempSync(join(tmpdir(), 'ramp-chain-owner-'));
    parents.push(parent);
    const dir = join(parent, 'data');
    return { dir, chainDir: `${dir}-chain`, stateFile: join(`${dir}-chain`, 'anvil-state.json') };
  };
  afterEach(async () => {
    for (const child of running) await killOutright(child);
    for (const parent of parents.splice(0)) {
      for (const pid of anvilsWriting(join(parent, 'data-chain', 'anvil-state.json'))) process.kill(pid, 'SIGKILL');
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it('stops its anvil when Ramp is killed outright, and the next start finds the completed payout on chain', { timeout: 180_000 }, async () => {
    const { dir, stateFile } = dataDir();
    const first = await startRamp(dir);
    const [anvil] = anvilsWriting(stateFile);
    const onramp = await completedOnramp(first.api);
    // Killed at once: the chain's periodic dump (every 5 s) may not hold the payout yet; anvil's dump on SIGTERM does.
    await killOutright(first.child);
    await waitFor(() => anvilsWriting(stateFile).length === 0, 10_000, 'the killed Ramp’s anvil stopped');

    const second = await startRamp(dir, first.key);
    expect(anvilsWriting(stateFile)).toEqual([expect.any(Number)]);
    expect(anvilsWriting(stateFile)).not.toContain(anvil);
    expect((await getOnramp(second.api, onramp.customerId, onramp.id)).status).toBe('completed');
    expect(await usdcBalance(second.api, second.rpcUrl, onramp.destination)).toBe(units(onramp.amount));

    const stopped = once(second.child, 'exit');
    second.child.kill('SIGTERM');
    expect((await stopped)[0]).toBe(0);
    expect(anvilsWriting(stateFile)).toEqual([]);
  });

  it('stops an anvil its dead Ramp could not stop before starting another, so no payout is overwritten', { timeout: 240_000 }, async () => {
    const { dir, chainDir, stateFile } = dataDir();
    const first = await startRamp(dir);
    const before = await completedOnramp(first.api);
    // The watchdog dies first, then Ramp: anvil is orphaned, as a Ramp without a watchdog left it, still writing the file.
    const orphan = nodeRecord(chainDir);
    process.kill(orphan.watchdogPid, 'SIGKILL');
    await killOutright(first.child);
    expect(anvilsWriting(stateFile)).toEqual([orphan.pid]);

    const second = await startRamp(dir, first.key);
    const [successor] = anvilsWriting(stateFile);
    expect(anvilsWriting(stateFile)).toEqual([successor]);
    expect(successor).not.toBe(orphan.pid);
    expect(nodeRecord(chainDir).pid).toBe(successor);
    expect(await usdcBalance(second.api, second.rpcUrl, before.destination)).toBe(units(before.amount));
    // The payout a second writer's stale dumps used to erase: made between two restarts.
    const between = await completedOnramp(second.api);
    await killOutright(second.child);

    const third = await startRamp(dir, first.key);
    expect(anvilsWriting(stateFile)).toHaveLength(1);
    for (const onramp of [before, between]) {
      expect((await getOnramp(third.api, onramp.customerId, onramp.id)).status).toBe('completed');
      expect(await usdcBalance(third.api, third.rpcUrl, onramp.destination)).toBe(units(onramp.amount));
    }
  });
});
