import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChainTestRamp, minedReceipt, startChainRamp } from '../support/chain/ramp.js';
import { fundedOnramp, getOnramp, payoutOf, sendAs, setTokenBalance, units } from '../support/chain/payouts.js';
import { createCustomer, wallet } from '../support/data/transfers.js';
import { sleep } from '../support/clients/webhook-receiver.js';

// Each case pays on a network of its own: each network has its own treasury, so balances and nonces do not mix.
describe('on-ramp payouts on a real local chain', () => {
  let t: ChainTestRamp;
  let customer: string;
  beforeAll(async () => {
    t = await startChainRamp({ PAYOUT_REPLACE_AFTER_SECONDS: '1' });
    customer = await createCustomer(t.client(t.key));
  });
  afterAll(() => t?.close());

  it('pays the destination exactly destination_amount on chain, and completes only after the confirmations', async () => {
    const api = t.client(t.key);
    const onramp = await fundedOnramp(api, customer, 'polygon');
    const before = await t.balanceOf('polygon', 'usdc', onramp.destination);
    await t.ramp.chainJobs.runOnce();

    const paying = await getOnramp(api, customer, onramp.id);
    expect(paying.status).toBe('processing');
    const hash = paying.destination_transaction_hash as string;
    const onChain = await t.chain('polygon').lookUpTransaction(hash);
    expect(onChain).toMatchObject({ found: true, succeeded: true });
    if (!onChain.found) throw new Error('not on chain');
    expect(onChain.tokenTransfers).toEqual([
      expect.objectContaining({ to: onramp.destination.toLowerCase(), from: t.chain('polygon').treasury.toLowerCase(), amount: units(onramp.amount) }),
    ]);
    expect((await t.balanceOf('polygon', 'usdc', onramp.destination)) - before).toBe(units(onramp.amount));
    // anvil mines a sent transaction a moment after answering it: on a loaded machine the run's confirmation step
    // looked before the block was there. It is there now (found above), and the next run counts it, paying nothing.
    await t.ramp.chainJobs.runOnce();
    const [row] = await t.sql<{ confirmations: number; required_confirmations: number }>(
      'select confirmations, required_confirmations from transfers where id = ?',
      [onramp.id],
    );
    expect(row).toEqual({ confirmations: 1, required_confirmations: 3 });

    await t.advance(1);
    expect((await getOnramp(api, customer, onramp.id)).status).toBe('processing');
    await t.advance(1);
    const done = await getOnramp(api, customer, onramp.id);
    expect(done).toMatchObject({ status: 'completed', destination_transaction_hash: hash });
    expect(await payoutOf(t, onramp.id)).toMatchObject({ status: 'confirmed', transaction_hash: hash, earlier_hashes: [] });
    // Paid once: another run finds nothing to pay.
    await t.advance(1);
    expect((await t.balanceOf('polygon', 'usdc', onramp.destination)) - before).toBe(units(onramp.amount));
  });

  it('pays for real when the sandbox settles a live-chain on-ramp: processing with its hash, completed after confirmations', async () => {
    const api = t.client(t.key);
    const onramp = await fundedOnramp(api, customer, 'polygon');
    const settled = await api.post(`/v0/customers/${customer}/onramp-transfer/simulate`, { action: 'complete_transfer', transfer_id: onramp.id });
    expect(settled.status).toBe(200);
    expect(settled.body.status).toBe('processing');
    const hash = settled.body.destination_transaction_hash as string;
    expect(await minedReceipt(t.chain('polygon'), hash)).toMatchObject({ status: 'mined', succeeded: true });
    expect(await t.balanceOf('polygon', 'usdc', onramp.destination)).toBe(units(onramp.amount));
    // The sender job finds it paid and pays nothing more.
    await t.advance(2);
    expect(await getOnramp(api, customer, onramp.id)).toMatchObject({ status: 'completed', destination_transaction_hash: hash });
    expect(await t.balanceOf('polygon', 'usdc', onramp.destination)).toBe(units(onramp.amount));
    expect(await t.sql('select id from chain_payouts where transfer_id = ?', [onramp.id])).toHaveLength(1);
  });

  it('fails a transfer clearly when the treasury is short (treasury_insufficient_funds), sends nothing, and keeps its funds for a refund', async () => {
    const api = t.client(t.key);
    const treasury = t.chain('ethereum').treasury;
    const float = await t.balanceOf('ethereum', 'usdc', treasury);
    // The treasury's tokens leave by its own transaction (a nonce Ramp did not sign): Ramp must not reuse that nonce later.
    const elsewhere = wallet('ethereum', 'treasury-drain');
    await sendAs(t, 'ethereum', treasury, elsewhere, float - units('5'));
    const onramp = await fundedOnramp(api, customer, 'ethereum');
    await t.ramp.chainJobs.runOnce();

    expect(await getOnramp(api, customer, onramp.id)).toMatchObject({
      status: 'failed',
      failure_reason: 'treasury_insufficient_funds',
      destination_transaction_hash: null,
    });
    expect(await payoutOf(t, onramp.id)).toBeUndefined();
    expect(await t.balanceOf('ethereum', 'usdc', onramp.destination)).toBe(0n);
    const refunded = await api.post(`/v0/customers/${customer}/onramp-transfer/simulate`, { action: 'refund_transfer', transfer_id: onramp.id });
    expect(refunded.body.status).toBe('refunded');

    // Topped up again, the treasury pays the next one, on the nonce after its own transaction.
    await sendAs(t, 'ethereum', elsewhere, treasury, float - units('5'));
    const next = await fundedOnramp(api, customer, 'ethereum');
    await t.ramp.chainJobs.runOnce();
    expect(await t.balanceOf('ethereum', 'usdc', next.destination)).toBe(units(next.amount));
    expect(Number((await payoutOf(t, next.id))!.nonce)).toBe((await t.chain('ethereum').minedNonce(treasury)) - 1);
  });

  it('replaces a stuck payout under the same nonce with fees at least 12.5 % higher, and completes with the hash the chain took', async () => {
    const api = t.client(t.key);
    const onramp = await fundedOnramp(api, customer, 'base');
    await t.rpc('evm_setAutomine', [false]);
    try {
      await t.ramp.chainJobs.runOnce();
      const first = (await payoutOf(t, onramp.id))!;
      expect(first.status).toBe('sent');
      expect(await t.chain('base').receipt(first.transaction_hash)).toEqual({ status: 'pending' });

      await sleep(1100);
      await t.ramp.chainJobs.runOnce();
      const replaced = (await payoutOf(t, onramp.id))!;
      expect(replaced).toMatchObject({ nonce: first.nonce, status: 'sent', earlier_hashes: [first.transaction_hash] });
      expect(replaced.transaction_hash).not.toBe(first.transaction_hash);
      expect(BigInt(replaced.max_fee_per_gas) * 1000n).toBeGreaterThanOrEqual(BigInt(first.max_fee_per_gas) * 1125n);
      expect(BigInt(replaced.max_priority_fee_per_gas) * 1000n).toBeGreaterThanOrEqual(BigInt(first.max_priority_fee_per_gas) * 1125n);
      expect((await getOnramp(api, customer, onramp.id)).destination_transaction_hash).toBe(replaced.transaction_hash);
    } finally {
      await t.rpc('evm_setAutomine', [true]);
    }
    await t.advance(1);
    await t.advance(2);
    const payout = (await payoutOf(t, onramp.id))!;
    expect(payout, JSON.stringify(payout)).toMatchObject({ status: 'confirmed' });
    expect(await getOnramp(api, customer, onramp.id)).toMatchObject({ status: 'completed', destination_transaction_hash: payout.transaction_hash });
    expect(await minedReceipt(t.chain('base'), payout.transaction_hash)).toMatchObject({ status: 'mined', succeeded: true });
    expect(await t.balanceOf('base', 'usdc', onramp.destination)).toBe(units(onramp.amount));
  });

  it('fails a reverted payout with payout_reverted, keeping the funds held for a refund', async () => {
    const api = t.client(t.key);
    const treasury = t.chain('arbitrum').treasury;
    const float = await t.balanceOf('arbitrum', 'usdc', treasury);
    const onramp = await fundedOnramp(api, customer, 'arbitrum');
    await t.rpc('evm_setAutomine', [false]);
    try {
      await t.ramp.chainJobs.runOnce();
      expect((await payoutOf(t, onramp.id))!.status).toBe('sent');
      // The treasury's balance vanishes before the payout's block: the transfer reverts on chain.
      await setTokenBalance(t, 'arbitrum', treasury, 0n);
      await t.mine(1);
    } finally {
      await t.rpc('evm_setAutomine', [true]);
    }
    await t.ramp.chainJobs.runOnce();
    const payout = (await payoutOf(t, onramp.id))!;
    expect(payout).toMatchObject({ status: 'failed', failure_reason: 'payout_reverted' });
    expect(await minedReceipt(t.chain('arbitrum'), payout.transaction_hash)).toMatchObject({ status: 'mined', succeeded: false });
    expect(await getOnramp(api, customer, onramp.id)).toMatchObject({ status: 'failed', failure_reason: 'payout_reverted' });
    expect(await t.balanceOf('arbitrum', 'usdc', onramp.destination)).toBe(0n);
    const refunded = await api.post(`/v0/customers/${customer}/onramp-transfer/simulate`, { action: 'refund_transfer', transfer_id: onramp.id });
    expect(refunded.body.status).toBe('refunded');
    await setTokenBalance(t, 'arbitrum', treasury, float);
  });
});
