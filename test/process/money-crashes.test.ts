import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ramp } from '../../src/app.js';
import { sandboxAddress } from '../../src/domain/identifiers/chain.js';
import { instances, sharedDatabaseEnv, startChild } from '../support/crash.js';
import { chainRampEnv, startLocalChain } from '../support/local-chain.js';
import { fundedOnramp, units } from '../support/payouts.js';
import { apiClient } from '../support/ramp.js';
import { createCustomer } from '../support/transfers.js';
import { waitFor } from '../support/webhook-receiver.js';

/**
 * Each money path dies right after it stored and committed what it must send, before this process sends it (a
 * SIGKILL: no exit handler runs). The next instance, on the same database, sends it: on chain the recipient holds
 * exactly its amount, once.
 */
describe('a crash on each money path, between storing what must be sent and sending it', () => {
  let chain: Awaited<ReturnType<typeof startLocalChain>>;
  let database: Awaited<ReturnType<typeof sharedDatabaseEnv>>;
  let env: Record<string, string>;
  let key: string;
  const ramps = instances(() => env);

  beforeAll(async () => {
    chain = await startLocalChain();
    database = await sharedDatabaseEnv();
    env = chainRampEnv(database, chain.rpcUrl, { CHAIN_POLL_INTERVAL_MS: '0' });
    const first = await ramps.start();
    key = first.demoKey!;
    await ramps.close(first);
  }, 120_000);
  afterAll(async () => {
    await ramps.close();
    await chain?.stop();
    await database?.drop();
  });

  const sqlOf =
    (ramp: Ramp) =>
    <T>(query: string, params: unknown[] = []) =>
      ramp.db.fork().execute(query, params) as Promise<T[]>;
  const polygonOf = (ramp: Ramp) => ramp.rails.liveChains().find((c) => c.network === 'polygon')!;
  const usdcOf = (ramp: Ramp) => polygonOf(ramp).tokens.find((t) => t.token === 'usdc')!.contractAddress;

  /** A request the child dies answering: no answer reaches the client. */
  const diesAnswering = (request: Promise<unknown>) =>
    request.then(
      () => 'answered',
      () => 'no answer',
    );

  it('pays a sandbox settlement once when the process dies after its commit, before the broadcast', { timeout: 180_000 }, async () => {
    const maker = await ramps.start();
    const onramp = await fundedOnramp(apiClient(maker.url(), key), await createCustomer(apiClient(maker.url(), key)), 'polygon');
    await ramps.close(maker);

    const child = await startChild({ ...env, TEST_CRASH_AT: 'settle-committed' });
    const settling = apiClient(child.url, key).post(`/v0/customers/${onramp.customerId}/onramp-transfer/simulate`, {
      action: 'complete_transfer',
      transfer_id: onramp.id,
    });
    expect(await diesAnswering(settling)).toBe('no answer');
    const died = await child.exited;
    expect(died.signal, died.output.slice(-2000)).toBe('SIGKILL');

    const successor = await ramps.start();
    const sql = sqlOf(successor);
    const [stored] = await sql<{ status: string; transaction_hash: string; nonce: string }>(
      'select status, transaction_hash, nonce from chain_payouts where transfer_id = ?',
      [onramp.id],
    );
    // Committed with the settlement, never broadcast: nothing paid yet.
    expect(stored).toMatchObject({ status: 'signed' });
    expect(await chain.balanceOf(usdcOf(successor), onramp.destination)).toBe(0n);

    chain.mining(200);
    await waitFor(
      async () => {
        await successor.chainJobs.runOnce();
        return (await sql<{ status: string }>('select status from transfers where id = ?', [onramp.id]))[0]!.status === 'completed';
      },
      60_000,
      'the settled on-ramp completed after the restart',
    );
    expect(await sql('select transaction_hash, nonce from chain_payouts where transfer_id = ?', [onramp.id])).toEqual([
      { transaction_hash: stored!.transaction_hash, nonce: stored!.nonce },
    ]);
    expect(await chain.balanceOf(usdcOf(successor), onramp.destination)).toBe(units(onramp.amount));
    await ramps.close(successor);
  });

  it('mints a faucet request once when the process dies after its commit, before the broadcast', { timeout: 180_000 }, async () => {
    const child = await startChild({ ...env, TEST_CRASH_AT: 'mint-signed' });
    const address = sandboxAddress('polygon', randomUUID());
    const minting = apiClient(child.url, key).post('/v0/sandbox/faucet', { network: 'polygon', token: 'usdc', address, amount: '12.5' });
    expect(await diesAnswering(minting)).toBe('no answer');
    const died = await child.exited;
    expect(died.signal, died.output.slice(-2000)).toBe('SIGKILL');

    const successor = await ramps.start();
    const sql = sqlOf(successor);
    const [stored] = await sql<{ status: string; transaction_hash: string }>('select status, transaction_hash from chain_mints where "to" = ?', [
      address.toLowerCase(),
    ]);
    expect(stored).toMatchObject({ status: 'signed' });
    expect(await chain.balanceOf(usdcOf(successor), address)).toBe(0n);

    await waitFor(
      async () => {
        await successor.chainJobs.runOnce();
        return (await chain.balanceOf(usdcOf(successor), address)) === units('12.5');
      },
      30_000,
      'the stored mint was sent after the restart',
    );
    // Followed until mined, then left alone: sending it again mints nothing more.
    await successor.chainJobs.runOnce();
    await successor.chainJobs.runOnce();
    expect(await chain.balanceOf(usdcOf(successor), address)).toBe(units('12.5'));
    expect(await sql('select status from chain_mints where "to" = ?', [address.toLowerCase()])).toEqual([{ status: 'mined' }]);
    await ramps.close(successor);
  });
});
