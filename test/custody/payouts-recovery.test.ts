import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { globalIdOf } from '../../src/graphql/types/global-ids.js';
import { type ChainTestRamp, minedReceipt, startChainRamp } from '../support/chain/ramp.js';
import { fundedOnramp, getOnramp, payoutOf, sendAs, setTokenBalance, units } from '../support/chain/payouts.js';
import { createCustomer } from '../support/data/transfers.js';

describe('on-ramp payouts when the chain does not go as planned', () => {
  let t: ChainTestRamp;
  let customer: string;
  beforeAll(async () => {
    // Automatic progress on, run by hand (t.ramp.jobs.runOnce()): it must leave live-chain on-ramps to their payout.
    t = await startChainRamp({ AUTO_SETTLE_DELAY_MS: '0' });
    customer = await createCustomer(t.client(t.key));
  });
  afterAll(() => t?.close());

  it('sends a payout again when the block that held it is reorganised away, and pays it once', async () => {
    const api = t.client(t.key);
    const onramp = await fundedOnramp(api, customer, 'polygon');
    const snapshot = await t.rpc<string>('evm_snapshot');
    await t.ramp.chainJobs.runOnce();
    const mined = (await payoutOf(t, onramp.id))!;
    expect(mined.status).toBe('mined');

    // The chain goes back to before the payout's block, and on without it.
    await t.rpc('evm_revert', [snapshot]);
    await t.mine(1);
    expect(await t.chain('polygon').receipt(mined.transaction_hash)).toEqual({ status: 'pending' });
    await t.ramp.chainJobs.runOnce();
    const again = (await payoutOf(t, onramp.id))!;
    expect(again).toMatchObject({ status: 'sent', transaction_hash: mined.transaction_hash, nonce: mined.nonce });
    const [row] = await t.sql<{ confirmations: number }>('select confirmations from transfers where id = ?', [onramp.id]);
    expect(row!.confirmations).toBe(0);

    // Broadcast again (the same transaction, the same nonce), it is mined anew and completes.
    expect(await minedReceipt(t.chain('polygon'), mined.transaction_hash)).toMatchObject({ status: 'mined', succeeded: true });
    await t.advance(1);
    await t.advance(2);
    expect(await getOnramp(api, customer, onramp.id)).toMatchObject({ status: 'completed', destination_transaction_hash: mined.transaction_hash });
    expect(await t.balanceOf('polygon', 'usdc', onramp.destination)).toBe(units(onramp.amount));
  });

  it('fails a payout the chain dropped (its nonce taken by another transaction) with payout_dropped, funds held', async () => {
    const api = t.client(t.key);
    const treasury = t.chain('base').treasury;
    const onramp = await fundedOnramp(api, customer, 'base');
    await t.rpc('evm_setAutomine', [false]);
    try {
      await t.ramp.chainJobs.runOnce();
      const sent = (await payoutOf(t, onramp.id))!;
      expect(sent.status).toBe('sent');
      // The node forgets it, and the treasury's key spends the same nonce elsewhere.
      await t.rpc('anvil_dropTransaction', [sent.transaction_hash]);
      await sendAs(t, 'base', treasury, treasury, 1n);
      await t.mine(1);
    } finally {
      await t.rpc('evm_setAutomine', [true]);
    }
    await t.ramp.chainJobs.runOnce();
    expect(await payoutOf(t, onramp.id)).toMatchObject({ status: 'failed', failure_reason: 'payout_dropped' });
    expect(await getOnramp(api, customer, onramp.id)).toMatchObject({
      status: 'failed',
      failure_reason: 'payout_dropped',
      destination_transaction_hash: null,
    });
    expect(await t.balanceOf('base', 'usdc', onramp.destination)).toBe(0n);

    // The sender goes on past the nonce it lost: the next payout is paid.
    const next = await fundedOnramp(api, customer, 'base');
    await t.ramp.chainJobs.runOnce();
    expect(await t.balanceOf('base', 'usdc', next.destination)).toBe(units(next.amount));
  });

  it('never completes a live-chain on-ramp by automatic progress: it waits for its payout, while a simulated network settles', async () => {
    const api = t.client(t.key);
    const live = await fundedOnramp(api, customer, 'ethereum');
    const simulated = await fundedOnramp(api, customer, 'solana');
    await t.ramp.jobs.runOnce();
    expect(await getOnramp(api, customer, live.id)).toMatchObject({ status: 'processing', destination_transaction_hash: null });
    expect((await getOnramp(api, customer, simulated.id)).status).toBe('completed');

    await t.ramp.chainJobs.runOnce();
    await t.advance(2);
    const done = await getOnramp(api, customer, live.id);
    expect(done.status).toBe('completed');
    expect(await minedReceipt(t.chain('ethereum'), done.destination_transaction_hash)).toMatchObject({ status: 'mined', succeeded: true });
  });

  it('pays for real when GraphQL simulateTransferSettlement settles a live-chain on-ramp', async () => {
    const api = t.client(t.key);
    const onramp = await fundedOnramp(api, customer, 'arbitrum');
    const res = await api.graphql(
      `mutation ($id: ID!) { simulateTransferSettlement(input: { transferId: $id }) {
        __typename ... on SimulateTransferSettlementPayload { transfer { status ... on OnrampTransfer { destinationTransactionHash } } } } }`,
      { id: globalIdOf('OnrampTransfer', onramp.id) },
    );
    const transfer = res.body.data?.simulateTransferSettlement?.transfer;
    expect(transfer?.status, JSON.stringify(res.body)).toBe('PROCESSING');
    expect(await minedReceipt(t.chain('arbitrum'), transfer.destinationTransactionHash)).toMatchObject({ status: 'mined', succeeded: true });
    expect(await t.balanceOf('arbitrum', 'usdc', onramp.destination)).toBe(units(onramp.amount));
  });

  it('reserves what payouts not yet mined will take: a treasury covering one of two pending payouts fails the second', async () => {
    const api = t.client(t.key);
    const treasury = t.chain('arbitrum').treasury;
    const float = await t.balanceOf('arbitrum', 'usdc', treasury);
    const first = await fundedOnramp(api, customer, 'arbitrum');
    await setTokenBalance(t, 'arbitrum', treasury, (units(first.amount) * 3n) / 2n);
    await t.rpc('evm_setAutomine', [false]);
    try {
      await t.ramp.chainJobs.runOnce();
      expect((await payoutOf(t, first.id))!.status).toBe('sent');
      // On chain the treasury still holds 1.5 payouts; one of them is already promised.
      const second = await fundedOnramp(api, customer, 'arbitrum');
      await t.ramp.chainJobs.runOnce();
      expect(await getOnramp(api, customer, second.id)).toMatchObject({ status: 'failed', failure_reason: 'treasury_insufficient_funds' });
      await t.mine(1);
    } finally {
      await t.rpc('evm_setAutomine', [true]);
    }
    await t.advance(2);
    expect((await getOnramp(api, customer, first.id)).status).toBe('completed');
    expect(await t.balanceOf('arbitrum', 'usdc', first.destination)).toBe(units(first.amount));
    await setTokenBalance(t, 'arbitrum', treasury, float);
  });
});
