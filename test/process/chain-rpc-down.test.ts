import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRamp, type Ramp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { chainRampEnv, startLocalChain, startRpcProxy } from '../support/chain/local-chain.js';
import { fundedOnramp, units } from '../support/chain/payouts.js';
import { apiClient, freshDatabaseEnv } from '../support/ramp.js';
import { createCustomer } from '../support/data/transfers.js';
import { sleep, waitFor } from '../support/clients/webhook-receiver.js';

// Ramp reaches its chain through a proxy the test cuts for 10 s, while payouts are being signed and sent.
describe('the RPC endpoint down for 10 s', () => {
  let chain: Awaited<ReturnType<typeof startLocalChain>>;
  let proxy: Awaited<ReturnType<typeof startRpcProxy>>;
  let database: Awaited<ReturnType<typeof freshDatabaseEnv>>;
  let ramp: Ramp;

  beforeAll(async () => {
    chain = await startLocalChain();
    proxy = await startRpcProxy(chain.rpcUrl);
    database = await freshDatabaseEnv();
    ramp = await createRamp(loadConfig(chainRampEnv(database, proxy.url, { CHAIN_POLL_INTERVAL_MS: '100' })));
    await ramp.listen();
    chain.mining(200);
  }, 120_000);
  afterAll(async () => {
    await ramp?.close().catch(() => undefined);
    await proxy?.close();
    await chain?.stop();
    await database?.drop();
  });

  it('delays payouts but loses and doubles none of them', { timeout: 120_000 }, async () => {
    const api = apiClient(ramp.url(), ramp.demoKey!);
    const customer = await createCustomer(api);
    const polygon = ramp.rails.liveChains().find((c) => c.network === 'polygon')!;
    const usdc = polygon.tokens.find((t) => t.token === 'usdc')!.contractAddress;
    const float = await chain.balanceOf(usdc, polygon.treasury);
    const sql = <T>(query: string, params: unknown[] = []) => ramp.db.fork().execute(query, params) as Promise<T[]>;

    // Five funded just before the cut: some are being signed or broadcast when it comes.
    const before = await Promise.all(Array.from({ length: 5 }, () => fundedOnramp(api, customer, 'polygon')));
    await sleep(150);
    proxy.cut();
    // Five more funded while the chain is unreachable: they wait, unsigned (signing needs the chain's nonce and balance).
    const during = await Promise.all(Array.from({ length: 5 }, () => fundedOnramp(api, customer, 'polygon')));
    await sleep(10_000);
    const signedDuringOutage = await sql('select id from chain_payouts where transfer_id in (?)', [during.map((o) => o.id)]);
    expect(signedDuringOutage).toEqual([]);
    await proxy.restore();

    const onramps = [...before, ...during];
    const ids = onramps.map((o) => o.id);
    await waitFor(
      async () => (await sql<{ n: number }>(`select count(*)::int as n from transfers where id in (?) and status = 'completed'`, [ids]))[0]!.n === 10,
      60_000,
      'the ten on-ramps completed once the endpoint is back',
    );
    const payouts = await sql<{ transfer_id: string; nonce: string }>('select transfer_id, nonce from chain_payouts where transfer_id in (?) order by nonce', [
      ids,
    ]);
    expect(new Set(payouts.map((p) => p.transfer_id)).size).toBe(10);
    const nonces = payouts.map((p) => Number(p.nonce));
    expect(nonces).toEqual(Array.from({ length: 10 }, (_, i) => nonces[0]! + i));
    let total = 0n;
    for (const onramp of onramps) {
      expect(await chain.balanceOf(usdc, onramp.destination)).toBe(units(onramp.amount));
      total += units(onramp.amount);
    }
    expect(float - (await chain.balanceOf(usdc, polygon.treasury))).toBe(total);
  });
});
