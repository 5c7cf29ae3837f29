import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRamp, type Ramp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { chainRampEnv, startLocalChain } from '../support/chain/local-chain.js';
import { fundedOnramp, units } from '../support/chain/payouts.js';
import { apiClient, freshDatabaseEnv, onPostgres } from '../support/ramp.js';
import { createCustomer } from '../support/data/transfers.js';
import { waitFor } from '../support/clients/webhook-receiver.js';

// Two instances, one PostgreSQL database, one chain: both run the payout sender of every network.
describe.runIf(onPostgres)('two instances paying on-ramps on one chain', () => {
  let chain: Awaited<ReturnType<typeof startLocalChain>>;
  let database: Awaited<ReturnType<typeof freshDatabaseEnv>>;
  const instances: Ramp[] = [];

  beforeAll(async () => {
    chain = await startLocalChain();
    database = await freshDatabaseEnv();
    const env = chainRampEnv(database, chain.rpcUrl, { CHAIN_POLL_INTERVAL_MS: '50' });
    // One after the other: the first sets the chain up, the second finds it set up.
    for (let i = 0; i < 2; i++) {
      const ramp = await createRamp(loadConfig(env));
      await ramp.listen();
      instances.push(ramp);
    }
    chain.mining(200);
  });
  afterAll(async () => {
    for (const ramp of instances) await ramp.close().catch(() => undefined);
    await chain?.stop();
    await database?.drop();
  });

  it('pays 50 on-ramps made on both at once: one payout each, distinct nonces, every destination paid exactly once', async () => {
    const [a, b] = instances as [Ramp, Ramp];
    const key = a.demoKey!;
    const apis = [apiClient(a.url(), key), apiClient(b.url(), key)];
    const customer = await createCustomer(apis[0]!);
    const polygon = a.rails.liveChains().find((c) => c.network === 'polygon')!;
    const usdc = polygon.tokens.find((t) => t.token === 'usdc')!.contractAddress;
    const float = await chain.balanceOf(usdc, polygon.treasury);
    const onramps: Awaited<ReturnType<typeof fundedOnramp>>[] = [];
    for (let round = 0; round < 5; round++) {
      onramps.push(...(await Promise.all(Array.from({ length: 10 }, (_, i) => fundedOnramp(apis[i % 2]!, customer, 'polygon')))));
    }
    const ids = onramps.map((o) => o.id);
    const sql = <T>(query: string, params: unknown[] = []) => a.db.fork().execute(query, params) as Promise<T[]>;
    await waitFor(
      async () => (await sql<{ n: number }>(`select count(*)::int as n from transfers where id in (?) and status = 'completed'`, [ids]))[0]!.n === 50,
      90_000,
      'the 50 on-ramps completed',
    );

    const payouts = await sql<{ transfer_id: string; nonce: string; sender: string; transaction_hash: string }>(
      'select transfer_id, nonce, sender, transaction_hash from chain_payouts where transfer_id in (?) order by nonce',
      [ids],
    );
    expect(payouts).toHaveLength(50);
    expect(new Set(payouts.map((p) => p.transfer_id)).size).toBe(50);
    const nonces = payouts.map((p) => Number(p.nonce));
    expect(new Set(nonces).size).toBe(50);
    // One sender, no gaps: every nonce it signed was mined, by one of the two instances.
    expect(nonces).toEqual(Array.from({ length: 50 }, (_, i) => nonces[0]! + i));
    expect(await polygon.minedNonce(polygon.treasury)).toBe(nonces.at(-1)! + 1);

    let total = 0n;
    for (const onramp of onramps) {
      expect(await chain.balanceOf(usdc, onramp.destination)).toBe(units(onramp.amount));
      total += units(onramp.amount);
    }
    const transfers = await sql<{ id: string; payout_transaction_hash: string }>('select id, payout_transaction_hash from transfers where id in (?)', [ids]);
    const hashOf = new Map(payouts.map((p) => [p.transfer_id, p.transaction_hash]));
    for (const t of transfers) expect(t.payout_transaction_hash).toBe(hashOf.get(t.id));
    // The treasury paid the sum of the 50 and not a unit more.
    expect(float - (await chain.balanceOf(usdc, polygon.treasury))).toBe(total);
  });
});
