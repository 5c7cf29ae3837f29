import { encodeFunctionData, erc20Abi, getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChainTestRamp, openOfframp, startChainRamp } from '../support/chain/ramp.js';
import { ageTransfer, createCustomer, ledgerSums } from '../support/data/transfers.js';
import { type ApiClient, onPostgres } from '../support/ramp.js';

/** The watcher: deposits found without `complete`, confirmed after the network's count, undone by reorganisations. */
describe('deposits on a live chain', () => {
  let t: ChainTestRamp;
  let api: ApiClient;
  let customer: string;
  beforeAll(async () => {
    t = await startChainRamp();
    api = t.client(t.key);
    customer = await createCustomer(api);
    // The watcher's cursor starts now, so each test's blocks are the only new ones.
    await t.ramp.chainJobs.runOnce();
  });
  afterAll(() => t?.close());

  const simulate = (transferId: string, amount?: string) =>
    api.post(`/v0/customers/${customer}/offramp-transfer/simulate`, { action: 'crypto_deposit', transfer_id: transferId, ...(amount && { amount }) });
  const stateOf = async (id: string) => {
    const [row] = await t.sql<{
      status: string;
      confirmations: number | null;
      required_confirmations: number | null;
      deposit_transaction_hash: string | null;
      failure_reason: string | null;
      funds_received_at: Date | null;
    }>('select status, confirmations, required_confirmations, deposit_transaction_hash, failure_reason, funds_received_at from transfers where id = ?', [id]);
    return row!;
  };
  const depositsOf = (id: string) =>
    t.sql<{ status: string; tx_hash: string; amount: string }>(
      'select status, tx_hash, amount::text as amount from chain_deposits where transfer_id = ? order by block_number, log_index',
      [id],
    );
  const eventsOf = async (id: string) =>
    (await t.sql<{ type: string }>('select type from events where entity_id = ? order by cursor', [id])).map((e) => e.type);
  const movementsOf = async (id: string) =>
    (await t.sql<{ movement: string }>('select movement from ledger_transactions where transfer_id = ? order by created_at, movement', [id])).map(
      (m) => m.movement,
    );

  it('detects a deposit nobody completed, shows its confirmations rising, and funds the transfer at the network count', async () => {
    const transfer = await openOfframp(api, customer);
    const sent = await simulate(transfer.id);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.status).toBe('pending');
    const address = transfer.quote.deposit_blockchain_address;
    expect(await t.balanceOf('polygon', 'usdc', address)).toBe(100_000_000n);

    await t.ramp.chainJobs.runOnce();
    expect(await stateOf(transfer.id)).toMatchObject({ status: 'pending', confirmations: 1, required_confirmations: 3 });
    const [deposit] = await depositsOf(transfer.id);
    expect(deposit).toMatchObject({ status: 'observed', amount: '100.000000000000000000' });
    expect((await stateOf(transfer.id)).deposit_transaction_hash).toBe(deposit!.tx_hash);

    await t.advance(1);
    expect(await stateOf(transfer.id)).toMatchObject({ status: 'pending', confirmations: 2 });
    await t.advance(1);
    expect(await stateOf(transfer.id)).toMatchObject({ status: 'processing', confirmations: 3 });
    expect((await depositsOf(transfer.id))[0]!.status).toBe('credited');
    expect(await eventsOf(transfer.id)).toEqual([
      'offramp_transfer.created',
      'offramp_transfer.deposit.updated',
      'offramp_transfer.deposit.updated',
      'offramp_transfer.status.updated',
    ]);
    // Credited once: more blocks and polls post nothing more.
    await t.advance(2);
    expect(await movementsOf(transfer.id)).toEqual(['deposit']);
    const got = await api.get(`/v0/customers/${customer}/offramp-transfer/${transfer.id}`);
    expect(got.body.status).toBe('processing');
  });

  it('fails an underpaid transfer when its window closes short and converts an overpaid one, holding the excess for return', async () => {
    const under = await openOfframp(api, customer);
    const over = await openOfframp(api, customer);
    expect((await simulate(under.id, '60')).status).toBe(200);
    expect((await simulate(over.id, '150.5')).status).toBe(200);
    await t.advance(2);
    // Short, within its window: more may come.
    expect(await stateOf(under.id)).toMatchObject({ status: 'pending', failure_reason: null });
    expect(await movementsOf(under.id)).toEqual([]);
    await ageTransfer(t, under.id);
    await t.ramp.jobs.runOnce();
    expect(await stateOf(under.id)).toMatchObject({ status: 'failed', failure_reason: 'underpaid' });
    expect(await stateOf(over.id)).toMatchObject({ status: 'processing' });
    expect(await movementsOf(under.id)).toEqual(['deposit']);
    expect(await movementsOf(over.id)).toEqual(['deposit', 'excess_return']);
    const [excess] = await t.sql<{ amount: string }>(
      `select amount::text as amount from ledger_entries where transfer_id = ? and movement = 'excess_return' and account = 'customer_funds'`,
      [over.id],
    );
    expect(excess!.amount).toBe('50.500000000000000000');
    for (const total of Object.values(await ledgerSums(t))) expect(Number(total)).toBe(0);
  });

  it('adds up two deposits to one address in chain order: a short first one waits for the next, and the sum funds the transfer', async () => {
    const transfer = await openOfframp(api, customer);
    await simulate(transfer.id, '60');
    await simulate(transfer.id, '100');
    // Each send is one block (the customer's wallet is funded without a transaction): one more, and the first has its 3 confirmations.
    await t.ramp.chainJobs.runOnce();
    await t.advance(1);
    expect(await stateOf(transfer.id)).toMatchObject({ status: 'pending', failure_reason: null });
    expect((await depositsOf(transfer.id)).map((d) => [d.amount, d.status])).toEqual([
      ['60.000000000000000000', 'confirmed'],
      ['100.000000000000000000', 'observed'],
    ]);
    await t.advance(1);
    expect(await stateOf(transfer.id)).toMatchObject({ status: 'processing' });
    expect((await depositsOf(transfer.id)).map((d) => d.status)).toEqual(['credited', 'credited']);
    expect(await movementsOf(transfer.id)).toEqual(['deposit', 'excess_return']);
  });

  it('follows the first of two deposits mined in one block until it funds the transfer; the second, arriving after, is late', async () => {
    const transfer = await openOfframp(api, customer);
    const usdc = t.chain('polygon').tokens.find((c) => c.token === 'usdc')!;
    const wallet = '0x00000000000000000000000000000000000b0b02';
    await t.ramp.rails.sandboxChain!.faucet(usdc, wallet, 200_000_000n);
    await t.rpc('anvil_impersonateAccount', [wallet]);
    await t.rpc('evm_setAutomine', [false]);
    const pay = (amount: bigint) =>
      t.rpc<string>('eth_sendTransaction', [
        {
          from: wallet,
          to: usdc.contractAddress,
          data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [getAddress(transfer.quote.deposit_blockchain_address), amount] }),
          gas: '0x30000',
        },
      ]);
    const first = await pay(100_000_000n);
    await pay(100_000_000n);
    await t.rpc('evm_mine');
    await t.rpc('evm_setAutomine', [true]);
    await t.ramp.chainJobs.runOnce();
    expect(await stateOf(transfer.id)).toMatchObject({ status: 'pending', confirmations: 1, deposit_transaction_hash: first.toLowerCase() });
    await t.advance(1);
    expect(await stateOf(transfer.id)).toMatchObject({ status: 'pending', confirmations: 2, deposit_transaction_hash: first.toLowerCase() });
    await t.advance(1);
    expect(await stateOf(transfer.id)).toMatchObject({ status: 'processing', deposit_transaction_hash: first.toLowerCase() });
    expect((await depositsOf(transfer.id)).map((d) => d.status).sort()).toEqual(['credited', 'late']);
  });

  it('labels a deposit late when its transfer no longer waits, posting nothing', async () => {
    const transfer = await openOfframp(api, customer);
    expect((await api.post(`/v0/customers/${customer}/offramp-transfer/${transfer.id}/cancel`)).status).toBe(200);
    await t.ramp.rails.sandboxChain!.sendFromCustomer(t.chain('polygon').tokens[0]!, 9_000, transfer.quote.deposit_blockchain_address, 100_000_000n);
    await t.advance(3);
    expect((await depositsOf(transfer.id)).map((d) => d.status)).toEqual(['late']);
    expect(await movementsOf(transfer.id)).toEqual([]);
  });

  it('does not expire a transfer whose deposit was observed in time, and funds it when confirmed', async () => {
    const transfer = await openOfframp(api, customer);
    await simulate(transfer.id);
    await t.ramp.chainJobs.runOnce();
    await ageTransfer(t, transfer.id);
    await t.ramp.jobs.runOnce();
    expect((await stateOf(transfer.id)).status).toBe('pending');
    await t.advance(2);
    expect((await stateOf(transfer.id)).status).toBe('processing');
  });

  // PGlite has one connection: a second instance holding the cursor is a PostgreSQL matter.
  it.runIf(onPostgres)('leaves a chain to the instance holding its cursor, and takes it over once that instance lets go', async () => {
    const transfer = await openOfframp(api, customer);
    await simulate(transfer.id);
    await t.ramp.db.fork().transactional(async (other) => {
      await other.execute(`select 1 from chain_cursors where chain_key = 'sandbox:polygon' for update`);
      await t.ramp.chainJobs.runOnce();
      expect(await depositsOf(transfer.id)).toEqual([]);
    });
    await t.ramp.chainJobs.runOnce();
    expect((await depositsOf(transfer.id)).map((d) => d.status)).toEqual(['observed']);
  });

  it('un-observes an unconfirmed deposit whose block left the chain: removed, pending again, announced', async () => {
    const transfer = await openOfframp(api, customer);
    const snapshot = await t.rpc<string>('evm_snapshot');
    await simulate(transfer.id);
    await t.advance(1);
    expect(await stateOf(transfer.id)).toMatchObject({ status: 'pending', confirmations: 2 });

    await t.rpc('evm_revert', [snapshot]);
    await t.advance(4);
    expect(await stateOf(transfer.id)).toMatchObject({ status: 'pending', confirmations: null, deposit_transaction_hash: null });
    expect((await depositsOf(transfer.id)).map((d) => d.status)).toEqual(['removed']);
    // Seen with 2 confirmations, then gone.
    expect(await eventsOf(transfer.id)).toEqual(['offramp_transfer.created', 'offramp_transfer.deposit.updated', 'offramp_transfer.deposit.updated']);
    expect(await movementsOf(transfer.id)).toEqual([]);
  });

  it('reverses a credited deposit whose block left the chain with a new ledger entry, failing the transfer deposit_reversed', async () => {
    const transfer = await openOfframp(api, customer, { source_amount: '42.000000' });
    const snapshot = await t.rpc<string>('evm_snapshot');
    await simulate(transfer.id, '50');
    await t.advance(2);
    expect((await stateOf(transfer.id)).status).toBe('processing');

    await t.rpc('evm_revert', [snapshot]);
    await t.advance(5);
    const after = await stateOf(transfer.id);
    expect(after).toMatchObject({ status: 'failed', failure_reason: 'deposit_reversed', funds_received_at: null });
    expect((await depositsOf(transfer.id)).map((d) => d.status)).toEqual(['reversed']);
    expect((await movementsOf(transfer.id)).sort()).toEqual(['deposit', 'deposit_reversal', 'excess_return']);
    for (const total of Object.values(await ledgerSums(t))) expect(Number(total)).toBe(0);
    const [held] = await t.sql<{ held: string }>(
      `select coalesce(sum(amount), 0)::text as held from ledger_entries where transfer_id = ? and account = 'customer_funds'`,
      [transfer.id],
    );
    expect(Number(held!.held)).toBe(0);
    // The money is gone: nothing to refund.
    const refund = await api.post(`/v0/customers/${customer}/offramp-transfer/simulate`, { action: 'refund_transfer', transfer_id: transfer.id });
    expect(refund.status).toBe(409);
  });
});
