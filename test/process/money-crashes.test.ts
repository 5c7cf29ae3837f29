import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ramp } from '../../src/app.js';
import { sandboxAddress } from '../../src/domain/identifiers/chain.js';
import { instances, sharedDatabaseEnv, startChild } from '../support/crash.js';
import { chainRampEnv, startLocalChain } from '../support/chain/local-chain.js';
import { fundedOnramp, units } from '../support/chain/payouts.js';
import { apiClient } from '../support/ramp.js';
import { openOfframp } from '../support/chain/ramp.js';
import { createCustomer } from '../support/data/transfers.js';
import { waitFor } from '../support/clients/webhook-receiver.js';

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

  it('pays an on-ramp once when the payout sender dies after its commit, before the broadcast', { timeout: 180_000 }, async () => {
    const maker = await ramps.start();
    const onramp = await fundedOnramp(apiClient(maker.url(), key), await createCustomer(apiClient(maker.url(), key)), 'ethereum');
    await ramps.close(maker);

    // The sender job signs, stores and commits the payout on its first tick, then dies.
    const child = await startChild({ ...env, CHAIN_POLL_INTERVAL_MS: '50', TEST_CRASH_AT: 'payout-signed' });
    const died = await Promise.race([child.exited, new Promise<null>((resolve) => setTimeout(() => resolve(null), 60_000))]);
    expect(died?.signal, child.output().slice(-2000)).toBe('SIGKILL');

    const successor = await ramps.start();
    const sql = sqlOf(successor);
    const ethereum = successor.rails.liveChains().find((c) => c.network === 'ethereum')!;
    const usdc = ethereum.tokens.find((t) => t.token === 'usdc')!.contractAddress;
    const [stored] = await sql<{ status: string; transaction_hash: string; nonce: string }>(
      'select status, transaction_hash, nonce from chain_payouts where transfer_id = ?',
      [onramp.id],
    );
    expect(stored).toMatchObject({ status: 'signed' });
    expect(await ethereum.lookUpTransaction(stored!.transaction_hash)).toEqual({ found: false });
    await waitFor(
      async () => {
        // A block a tick, whichever test ran before: the payout's confirmations rise.
        await chain.client.request({ method: 'anvil_mine' as never, params: ['0x1'] as never });
        await successor.chainJobs.runOnce();
        return (await sql<{ status: string }>('select status from transfers where id = ?', [onramp.id]))[0]!.status === 'completed';
      },
      60_000,
      'the on-ramp completed after the restart',
    );
    expect(await sql('select transaction_hash, nonce from chain_payouts where transfer_id = ?', [onramp.id])).toEqual([
      { transaction_hash: stored!.transaction_hash, nonce: stored!.nonce },
    ]);
    expect(await chain.balanceOf(usdc, onramp.destination)).toBe(units(onramp.amount));
    // The stored nonce was the one spent, once: the treasury's sequence has no gap and no second payout.
    expect(await ethereum.minedNonce(ethereum.treasury)).toBe(Number(stored!.nonce) + 1);
    // The transfer names the hash that was stored before the crash and then sent.
    expect(await sql('select payout_transaction_hash from transfers where id = ?', [onramp.id])).toEqual([
      { payout_transaction_hash: stored!.transaction_hash },
    ]);
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
    // Followed until it has the confirmations, then left alone: sending it again mints nothing more.
    await waitFor(
      async () => {
        await chain.client.request({ method: 'anvil_mine' as never, params: ['0x1'] as never });
        await successor.chainJobs.runOnce();
        return (await sql<{ status: string }>('select status from chain_mints where "to" = ?', [address.toLowerCase()]))[0]!.status === 'confirmed';
      },
      30_000,
      'the mint confirmed',
    );
    await successor.chainJobs.runOnce();
    expect(await chain.balanceOf(usdcOf(successor), address)).toBe(units('12.5'));
    await ramps.close(successor);
  });

  /** A credited off-ramp deposit of 100 USDC on polygon, made by an instance that sweeps nothing. */
  async function creditedDeposit() {
    const maker = await ramps.start();
    const api = apiClient(maker.url(), key);
    const customer = await createCustomer(api);
    const transfer = await openOfframp(api, customer);
    const sent = await api.post(`/v0/customers/${customer}/offramp-transfer/simulate`, { action: 'crypto_deposit', transfer_id: transfer.id });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const sql = sqlOf(maker);
    await waitFor(
      async () => {
        await chain.client.request({ method: 'anvil_mine' as never, params: ['0x1'] as never });
        await maker.chainJobs.runOnce();
        return (await sql<{ status: string }>('select status from chain_deposits where transfer_id = ?', [transfer.id]))[0]?.status === 'credited';
      },
      30_000,
      'the deposit credited',
    );
    const treasury = polygonOf(maker).treasury;
    const before = await chain.balanceOf(usdcOf(maker), treasury);
    await ramps.close(maker);
    return { address: transfer.quote.deposit_blockchain_address as string, treasury, before, transferId: transfer.id as string };
  }

  for (const point of ['top-up-signed', 'sweep-signed'] as const) {
    it(`moves a deposit to the treasury once when the sweeper dies at ${point}, after its commit`, { timeout: 180_000 }, async () => {
      const deposit = await creditedDeposit();
      const child = await startChild({ ...env, SANDBOX_CHAIN_SWEEPS: 'on', CHAIN_POLL_INTERVAL_MS: '50', TEST_CRASH_AT: point });
      const died = await Promise.race([child.exited, new Promise<null>((resolve) => setTimeout(() => resolve(null), 60_000))]);
      expect(died?.signal, child.output().slice(-2000)).toBe('SIGKILL');

      const successor = await ramps.start({ SANDBOX_CHAIN_SWEEPS: 'on' });
      const sql = sqlOf(successor);
      const sweepOf = async () =>
        (
          await sql<{ status: string; gas_transaction_hash: string | null; sweep_transaction_hash: string | null }>(
            'select s.status, s.gas_transaction_hash, s.sweep_transaction_hash from chain_sweeps s join chain_deposits d on d.id = s.deposit_id where d.transfer_id = ?',
            [deposit.transferId],
          )
        )[0]!;
      const stored = await sweepOf();
      // Stored and committed before the crash, never broadcast: the chain has not seen it.
      const pending = point === 'top-up-signed' ? stored.gas_transaction_hash! : stored.sweep_transaction_hash!;
      expect(await polygonOf(successor).lookUpTransaction(pending)).toEqual({ found: false });
      expect(await chain.balanceOf(usdcOf(successor), deposit.treasury)).toBe(deposit.before);

      await waitFor(
        async () => {
          await successor.chainJobs.runOnce();
          return (await sweepOf()).status === 'swept';
        },
        60_000,
        'the sweep completed after the restart',
      );
      const swept = await sweepOf();
      expect(swept.gas_transaction_hash).toBe(stored.gas_transaction_hash);
      if (point === 'sweep-signed') expect(swept.sweep_transaction_hash).toBe(stored.sweep_transaction_hash);
      expect(await chain.balanceOf(usdcOf(successor), deposit.address)).toBe(0n);
      expect(await chain.balanceOf(usdcOf(successor), deposit.treasury)).toBe(deposit.before + 100_000_000n);
      await ramps.close(successor);
    });
  }
});
