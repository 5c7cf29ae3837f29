import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ChainTestRamp, openOfframp, startChainRamp } from '../support/chain/ramp.js';
import { onPostgres } from '../support/ramp.js';
import { createCustomer } from '../support/data/transfers.js';

/**
 * The sandbox chain lives beside the embedded database (`<DATA_DIR>-chain`): a restart finds the same contracts,
 * balances and blocks, so what the database says happened on chain is still there, and the watcher goes on.
 */
describe.skipIf(onPostgres)('the sandbox chain across a restart', () => {
  const parent = mkdtempSync(join(tmpdir(), 'ramp-chain-restart-'));
  const dataDir = join(parent, 'data');
  let t: ChainTestRamp | undefined;
  afterAll(async () => {
    await t?.close();
    rmSync(parent, { recursive: true, force: true });
  });

  it('keeps the chain with the database: same contracts, the deposit still on its address, the watcher where it was', { timeout: 120_000 }, async () => {
    t = await startChainRamp({ DATA_DIR: dataDir });
    let api = t.client(t.key);
    const customer = await createCustomer(api);
    await t.ramp.chainJobs.runOnce();
    const first = await openOfframp(api, customer);
    const address: string = first.quote.deposit_blockchain_address;
    const sent = await api.post(`/v0/customers/${customer}/offramp-transfer/simulate`, { action: 'crypto_deposit', transfer_id: first.id });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    await t.advance(3);
    expect((await api.get(`/v0/customers/${customer}/offramp-transfer/${first.id}`)).body.status).toBe('processing');
    const contracts = t.chain('polygon').tokens.map((c) => c.contractAddress);
    const head = (await t.chain('polygon').head()).number;
    const key = t.key;
    await t.close();
    t = undefined;

    // The demo partner is there already: this start makes no new one.
    t = await startChainRamp({ DATA_DIR: dataDir, BOOTSTRAP_DEMO_PARTNER: 'false' });
    api = t.client(key);
    expect(t.chain('polygon').tokens.map((c) => c.contractAddress)).toEqual(contracts);
    expect((await t.chain('polygon').head()).number).toBeGreaterThanOrEqual(head);
    expect(await t.balanceOf('polygon', 'usdc', address)).toBe(100_000_000n);
    expect((await api.get(`/v0/customers/${customer}/offramp-transfer/${first.id}`)).body.status).toBe('processing');

    // The watcher goes on from its cursor: a new deposit after the restart is found and funded, the old one not again.
    const second = await openOfframp(api, customer);
    expect(second.quote.deposit_blockchain_address).not.toBe(address);
    await api.post(`/v0/customers/${customer}/offramp-transfer/simulate`, { action: 'crypto_deposit', transfer_id: second.id });
    await t.advance(3);
    expect((await api.get(`/v0/customers/${customer}/offramp-transfer/${second.id}`)).body.status).toBe('processing');
    const credited = await t.sql<{ transfer_id: string }>("select transfer_id from chain_deposits where status = 'credited' order by created_at");
    expect(credited.map((d) => d.transfer_id)).toEqual([first.id, second.id]);
  });
});
