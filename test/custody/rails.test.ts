import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidAddress } from '../../src/domain/identifiers/chain.js';
import { type ChainTestRamp, openOfframp, startChainRamp } from '../support/chain/ramp.js';
import { createCustomer } from '../support/data/transfers.js';

describe('the sandbox on a real local chain', () => {
  let t: ChainTestRamp;
  beforeAll(async () => {
    t = await startChainRamp();
  });
  afterAll(() => t?.close());

  it('gives each off-ramp transfer an address of its own, derived from the deposit xpub and never reused', async () => {
    const api = t.client(t.key);
    const customer = await createCustomer(api);
    const first = await openOfframp(api, customer, { source_network: 'polygon' });
    const second = await openOfframp(api, customer, { source_network: 'base' });
    const addresses = [first.quote.deposit_blockchain_address, second.quote.deposit_blockchain_address];
    expect(new Set(addresses).size, JSON.stringify(addresses)).toBe(2);
    for (const address of addresses) expect(isValidAddress('polygon', address)).toBe(true);
    const rows = await t.sql<{ deposit_address_index: string; deposit_blockchain_address: string }>(
      'select deposit_address_index, deposit_blockchain_address from transfers where id in (?, ?) order by deposit_address_index',
      [first.id, second.id],
    );
    expect(rows.map((r) => t.chain('polygon').depositAddress(Number(r.deposit_address_index)))).toEqual(rows.map((r) => r.deposit_blockchain_address));
  });
});
