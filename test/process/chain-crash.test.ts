import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRamp, type Ramp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { chainRampEnv, startLocalChain } from '../support/local-chain.js';
import { fundedOnramp, units } from '../support/payouts.js';
import { apiClient, freshDatabaseEnv, onPostgres } from '../support/ramp.js';
import { createCustomer } from '../support/transfers.js';
import { waitFor } from '../support/webhook-receiver.js';

/** Runs `src/main.ts` in a child process until it ends (here: until it kills itself). */
function runUntilExit(env: Record<string, string>): Promise<{ signal: NodeJS.Signals | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGTERM'), 60_000);
  return new Promise((resolve) =>
    child.on('exit', (_, signal) => {
      clearTimeout(timer);
      resolve({ signal, output });
    }),
  );
}

// The process dies after the payout is signed and stored, before it is broadcast: the next instance pays it, once.
describe.runIf(onPostgres)('a crash between storing a payout and broadcasting it', () => {
  let chain: Awaited<ReturnType<typeof startLocalChain>>;
  let database: Awaited<ReturnType<typeof freshDatabaseEnv>>;
  let env: Record<string, string>;
  const instances: Ramp[] = [];
  const start = async (extra: Record<string, string>) => {
    const ramp = await createRamp(loadConfig({ ...env, ...extra }));
    await ramp.listen();
    instances.push(ramp);
    return ramp;
  };

  beforeAll(async () => {
    chain = await startLocalChain();
    database = await freshDatabaseEnv();
    env = chainRampEnv(database, chain.rpcUrl);
  });
  afterAll(async () => {
    for (const ramp of instances) await ramp.close().catch(() => undefined);
    await chain?.stop();
    await database?.drop();
  });

  it('pays exactly once after a restart, with the transaction stored before the crash', async () => {
    // An instance that pays nothing (its chain jobs off) makes the funded on-ramp.
    const maker = await start({ CHAIN_POLL_INTERVAL_MS: '0' });
    const api = apiClient(maker.url(), maker.demoKey!);
    const onramp = await fundedOnramp(api, await createCustomer(api), 'polygon');
    await maker.close();
    instances.pop();

    const crashed = await runUntilExit({ ...env, CHAIN_POLL_INTERVAL_MS: '50', TEST_CRASH_AFTER_PAYOUT_SIGNED: 'true' });
    expect(crashed.signal, crashed.output.slice(-2000)).toBe('SIGKILL');

    const successor = await start({ CHAIN_POLL_INTERVAL_MS: '0' });
    const sql = <T>(query: string, params: unknown[] = []) => successor.db.fork().execute(query, params) as Promise<T[]>;
    const [stored] = await sql<{ status: string; transaction_hash: string; nonce: string }>(
      'select status, transaction_hash, nonce from chain_payouts where transfer_id = ?',
      [onramp.id],
    );
    expect(stored).toMatchObject({ status: 'signed' });
    const polygon = successor.rails.liveChains().find((c) => c.network === 'polygon')!;
    const usdc = polygon.tokens.find((t) => t.token === 'usdc')!.contractAddress;
    // Stored, never broadcast: the chain has not seen it, and nothing was paid.
    expect(await polygon.lookUpTransaction(stored!.transaction_hash)).toEqual({ found: false });
    expect(await chain.balanceOf(usdc, onramp.destination)).toBe(0n);

    // The successor's chain jobs broadcast what was stored, then follow it to completion.
    chain.mining(200);
    await waitFor(
      async () => {
        await successor.chainJobs.runOnce();
        return (await sql<{ status: string }>('select status from transfers where id = ?', [onramp.id]))[0]!.status === 'completed';
      },
      30_000,
      'the payout completed after the restart',
    );
    const payouts = await sql<{ transaction_hash: string; nonce: string }>('select transaction_hash, nonce from chain_payouts where transfer_id = ?', [
      onramp.id,
    ]);
    expect(payouts).toEqual([{ transaction_hash: stored!.transaction_hash, nonce: stored!.nonce }]);
    expect(await chain.balanceOf(usdc, onramp.destination)).toBe(units(onramp.amount));
    expect(await polygon.minedNonce(polygon.treasury)).toBe(Number(stored!.nonce) + 1);
    const [transfer] = await sql<{ payout_transaction_hash: string }>('select payout_transaction_hash from transfers where id = ?', [onramp.id]);
    expect(transfer!.payout_transaction_hash).toBe(stored!.transaction_hash);
  });
});
