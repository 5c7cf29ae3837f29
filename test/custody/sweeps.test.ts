import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChainTestRamp, minedReceipt, openOfframp, startChainRamp } from '../support/chain/ramp.js';
import { createCustomer } from '../support/data/transfers.js';
import { sleep } from '../support/clients/webhook-receiver.js';
import type { ApiClient } from '../support/ramp.js';

/** Deposit addresses Ramp can spend from: a confirmed deposit is swept to the network's treasury with a key Ramp holds. */
describe('sweeping deposits to the treasury', () => {
  let t: ChainTestRamp;
  let api: ApiClient;
  let customer: string;
  beforeAll(async () => {
    // A top-up stuck for a second is replaced (the last test); the others' are mined at once.
    t = await startChainRamp({ SANDBOX_CHAIN_SWEEPS: 'on', PAYOUT_REPLACE_AFTER_SECONDS: '1' });
    api = t.client(t.key);
    customer = await createCustomer(api);
    await t.ramp.chainJobs.runOnce();
  });
  afterAll(() => t?.close());

  const sweepsOf = (transferId: string) =>
    t.sql<{ status: string; gas_transaction_hash: string | null; sweep_transaction_hash: string | null; amount: string; failure_reason: string | null }>(
      `select s.status, s.gas_transaction_hash, s.sweep_transaction_hash, s.amount::text as amount, s.failure_reason
       from chain_sweeps s join chain_deposits d on d.id = s.deposit_id where d.transfer_id = ?`,
      [transferId],
    );

  const ledgerOf = () => t.sql('select account, currency, amount::text as amount from ledger_entries order by account, currency, amount');

  /** A transfer's sweep as stored, the hashes it replaced read as arrays on both databases. */
  async function sweepOf(transferId: string) {
    const [row] = await t.sql<{
      status: string;
      gas_transaction_hash: string | null;
      gas_earlier_hashes: string[] | string;
      gas_max_fee_per_gas: string;
      sweep_transaction_hash: string | null;
      sweep_earlier_hashes: string[] | string;
      max_fee_per_gas: string;
    }>(
      `select s.status, s.gas_transaction_hash, s.gas_earlier_hashes, s.gas_max_fee_per_gas::text as gas_max_fee_per_gas,
              s.sweep_transaction_hash, s.sweep_earlier_hashes, s.max_fee_per_gas::text as max_fee_per_gas
       from chain_sweeps s join chain_deposits d on d.id = s.deposit_id where d.transfer_id = ?`,
      [transferId],
    );
    const list = (hashes: string[] | string) => (typeof hashes === 'string' ? (JSON.parse(hashes) as string[]) : hashes);
    return { ...row!, gas_earlier_hashes: list(row!.gas_earlier_hashes), sweep_earlier_hashes: list(row!.sweep_earlier_hashes) };
  }

  /** An off-ramp whose 100 USDC deposit is on chain with all but its last confirmation, and the treasury's balance then. */
  async function depositOneBlockShort() {
    const chain = t.chain('polygon');
    const transfer = await openOfframp(api, customer);
    const treasuryBefore = await t.balanceOf('polygon', 'usdc', chain.treasury);
    await api.post(`/v0/customers/${customer}/offramp-transfer/simulate`, { action: 'crypto_deposit', transfer_id: transfer.id });
    await t.ramp.chainJobs.runOnce();
    await t.advance(1);
    return { chain, transfer, treasuryBefore, address: transfer.quote.deposit_blockchain_address as string };
  }

  it('tops the deposit address up with gas, sends the whole deposit to the treasury, and posts nothing to the ledger', async () => {
    const chain = t.chain('polygon');
    const transfer = await openOfframp(api, customer);
    const address: string = transfer.quote.deposit_blockchain_address;
    const treasuryBefore = await t.balanceOf('polygon', 'usdc', chain.treasury);
    const sent = await api.post(`/v0/customers/${customer}/offramp-transfer/simulate`, { action: 'crypto_deposit', transfer_id: transfer.id });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(await chain.nativeBalance(address)).toBe(0n);

    // Not before the deposit is confirmed: an unconfirmed deposit may still leave the chain.
    await t.ramp.chainJobs.runOnce();
    await t.advance(1);
    expect(await sweepsOf(transfer.id)).toEqual([]);
    await t.advance(1); // the third confirmation: credited, and its sweep opened and its gas sent
    const ledgerAtCredit = await ledgerOf();
    const [funding] = await sweepsOf(transfer.id);
    expect(funding).toMatchObject({ status: 'funding', amount: '100.000000000000000000', sweep_transaction_hash: null });
    expect(funding!.gas_transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);

    await t.advance(1); // the gas mined: the token transfer signed and sent
    const [sweeping] = await sweepsOf(transfer.id);
    expect(sweeping).toMatchObject({ status: 'sweeping' });
    await t.advance(1); // the token transfer mined, not yet with the network's confirmations: it may still leave the chain
    expect((await sweepsOf(transfer.id))[0]).toMatchObject({ status: 'sweeping' });
    await t.advance(3);
    const [swept] = await sweepsOf(transfer.id);
    expect(swept).toMatchObject({ status: 'swept', failure_reason: null });

    const receipt = await chain.lookUpTransaction(swept!.sweep_transaction_hash!);
    expect(receipt).toMatchObject({ found: true, succeeded: true });
    expect(await t.balanceOf('polygon', 'usdc', address)).toBe(0n);
    expect(await t.balanceOf('polygon', 'usdc', chain.treasury)).toBe(treasuryBefore + 100_000_000n);
    // The sweep moved custody, not ownership: the transfer's ledger is as it was at the credit.
    expect(await ledgerOf()).toEqual(ledgerAtCredit);

    // Once swept, never again.
    await t.advance(2);
    expect(await sweepsOf(transfer.id)).toHaveLength(1);
  });

  it('sends a top-up and a sweep again when a reorganisation removes them, and moves the deposit once', async () => {
    const { chain, transfer, treasuryBefore, address } = await depositOneBlockShort();
    // The chain as it was before the top-up: what follows is reorganised away below.
    const snapshot = await t.rpc<string>('evm_snapshot');
    await t.advance(1); // credited: the top-up signed, sent and mined
    await t.advance(1); // the sweep signed, sent and mined
    const [before] = await sweepsOf(transfer.id);
    expect(before).toMatchObject({ status: 'sweeping' });
    expect(await minedReceipt(chain, before!.gas_transaction_hash!)).toMatchObject({ status: 'mined' });
    expect(await minedReceipt(chain, before!.sweep_transaction_hash!)).toMatchObject({ status: 'mined' });

    await t.rpc('evm_revert', [snapshot]);
    await t.mine(1);
    expect(await chain.receipt(before!.gas_transaction_hash!)).toEqual({ status: 'pending' });
    expect(await chain.receipt(before!.sweep_transaction_hash!)).toEqual({ status: 'pending' });

    // Both sent again, the top-up first (it holds the treasury's nonce sequence), then followed to their confirmations.
    for (let i = 0; i < 6 && (await sweepsOf(transfer.id))[0]!.status !== 'swept'; i++) await t.advance(1);
    const [swept] = await sweepsOf(transfer.id);
    expect(swept).toMatchObject({
      status: 'swept',
      gas_transaction_hash: before!.gas_transaction_hash,
      sweep_transaction_hash: before!.sweep_transaction_hash,
    });
    expect(await minedReceipt(chain, swept!.gas_transaction_hash!)).toMatchObject({ status: 'mined', succeeded: true });
    expect(await t.balanceOf('polygon', 'usdc', address)).toBe(0n);
    expect(await t.balanceOf('polygon', 'usdc', chain.treasury)).toBe(treasuryBefore + 100_000_000n);

    // The treasury's sequence goes on: its next payout is mined, not queued behind a missing nonce.
    expect(await chain.minedNonce(chain.treasury)).toBe(
      Number(
        (
          await t.sql<{ next_nonce: string }>('select next_nonce from chain_senders where chain = ? and address = ?', [chain.key, chain.treasury.toLowerCase()])
        )[0]!.next_nonce,
      ),
    );
  });

  it('signs a stuck top-up again under its nonce at higher fees, so the treasury’s sequence moves on', async () => {
    const { chain, transfer, treasuryBefore } = await depositOneBlockShort();
    const gasOf = () => sweepOf(transfer.id);
    await t.rpc('evm_setAutomine', [false]);
    let first: Awaited<ReturnType<typeof gasOf>>;
    try {
      await t.advance(1); // credited: the top-up signed and sent, and left in the mempool
      first = await gasOf();
      expect(first).toMatchObject({ status: 'funding', gas_earlier_hashes: [] });
      expect(await chain.receipt(first.gas_transaction_hash!)).toEqual({ status: 'pending' });

      await sleep(1100);
      await t.ramp.chainJobs.runOnce();
      const replaced = await gasOf();
      expect(replaced).toMatchObject({ status: 'funding', gas_earlier_hashes: [first.gas_transaction_hash] });
      expect(replaced.gas_transaction_hash).not.toBe(first.gas_transaction_hash);
      expect(BigInt(replaced.gas_max_fee_per_gas) * 1000n).toBeGreaterThanOrEqual(BigInt(first.gas_max_fee_per_gas) * 1125n);
    } finally {
      await t.rpc('evm_setAutomine', [true]);
    }
    for (let i = 0; i < 8 && (await gasOf()).status !== 'swept'; i++) await t.advance(1);
    const swept = await gasOf();
    expect(swept.status).toBe('swept');
    expect(await minedReceipt(chain, swept.gas_transaction_hash!)).toMatchObject({ status: 'mined', succeeded: true });
    expect(await t.balanceOf('polygon', 'usdc', chain.treasury)).toBe(treasuryBefore + 100_000_000n);
  });

  it('signs a stuck sweep again under its address’s nonce at higher fees, paid by the gas its top-up left room for', async () => {
    const { chain, transfer, treasuryBefore } = await depositOneBlockShort();
    await t.advance(1); // credited: the top-up signed, sent and mined
    const sweep = () => sweepOf(transfer.id);
    expect((await sweep()).status).toBe('funding');
    await t.rpc('evm_setAutomine', [false]);
    let first: Awaited<ReturnType<typeof sweep>>;
    try {
      await t.ramp.chainJobs.runOnce(); // the top-up mined: the sweep signed, sent, and left in the mempool
      first = await sweep();
      expect(first).toMatchObject({ status: 'sweeping', sweep_earlier_hashes: [] });
      expect(await chain.receipt(first.sweep_transaction_hash!)).toEqual({ status: 'pending' });

      await sleep(1100);
      await t.ramp.chainJobs.runOnce();
      const replaced = await sweep();
      expect(replaced).toMatchObject({ status: 'sweeping', sweep_earlier_hashes: [first.sweep_transaction_hash] });
      expect(replaced.sweep_transaction_hash).not.toBe(first.sweep_transaction_hash);
      expect(BigInt(replaced.max_fee_per_gas) * 1000n).toBeGreaterThanOrEqual(BigInt(first.max_fee_per_gas) * 1125n);
    } finally {
      await t.rpc('evm_setAutomine', [true]);
    }
    for (let i = 0; i < 8 && (await sweep()).status !== 'swept'; i++) await t.advance(1);
    const swept = await sweep();
    expect(swept.status).toBe('swept');
    expect(await minedReceipt(chain, swept.sweep_transaction_hash!)).toMatchObject({ status: 'mined', succeeded: true });
    expect(await t.balanceOf('polygon', 'usdc', transfer.quote.deposit_blockchain_address)).toBe(0n);
    expect(await t.balanceOf('polygon', 'usdc', chain.treasury)).toBe(treasuryBefore + 100_000_000n);
  });
});
