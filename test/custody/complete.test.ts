import { encodeFunctionData, erc20Abi, getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Network, Token } from '../../src/domain/money.js';
import { type ChainTestRamp, openOfframp, startChainRamp } from '../support/chain/ramp.js';
import type { ApiClient } from '../support/ramp.js';
import { createCustomer, idempotencyKey, txHash } from '../support/data/transfers.js';

/** `complete` with a hash on a live chain: looked up and verified, never trusted. */
describe('completing an off-ramp with its deposit hash on a live chain', () => {
  let t: ChainTestRamp;
  let api: ApiClient;
  let customer: string;
  let wallets = 20_000;
  beforeAll(async () => {
    t = await startChainRamp();
    api = t.client(t.key);
    customer = await createCustomer(api);
    await t.ramp.chainJobs.runOnce();
  });
  afterAll(() => t?.close());

  /** A real token transfer from a fresh customer wallet: its hash. */
  const send = (network: Network, token: Token, to: string, amount: bigint) =>
    t.ramp.rails.sandboxChain!.sendFromCustomer(t.chain(network).tokens.find((c) => c.token === token)!, wallets++, to, amount);
  const complete = (id: string, hash: string) =>
    api.post(`/v0/customers/${customer}/offramp-transfer/${id}/complete`, { deposit_transaction_hash: hash }, idempotencyKey());
  const statusOf = async (id: string) =>
    (await t.sql<{ status: string; confirmations: number | null }>('select status, confirmations from transfers where id = ?', [id]))[0]!;
  const movementsOf = async (id: string) =>
    (await t.sql<{ movement: string }>('select movement from ledger_transactions where transfer_id = ?', [id])).map((m) => m.movement);

  it('refuses each forged hash with its code (422), the transfer left pending', async () => {
    const transfer = await openOfframp(api, customer);
    const address = transfer.quote.deposit_blockchain_address;
    const forged: [string, string][] = [
      [txHash('polygon'), 'deposit_transaction_not_found'],
      [await send('polygon', 'usdc', '0x000000000000000000000000000000000000dead', 100_000_000n), 'deposit_wrong_recipient'],
      [await send('polygon', 'usdt', address, 100_000_000n), 'deposit_wrong_token'],
      [await send('base', 'usdc', address, 100_000_000n), 'deposit_wrong_token'],
      [await send('polygon', 'usdc', address, 99_999_999n), 'deposit_underpaid'],
    ];
    await t.mine(3);
    for (const [hash, code] of forged) {
      const refused = await complete(transfer.id, hash);
      expect([refused.status, refused.body.code], hash).toEqual([422, code]);
    }
    expect((await statusOf(transfer.id)).status).toBe('pending');
    expect(await movementsOf(transfer.id)).toEqual([]);
  });

  it('refuses a reverted transaction with deposit_transaction_failed', async () => {
    const transfer = await openOfframp(api, customer);
    // A wallet with gas and no tokens: its transfer is mined, and reverts.
    const from = '0x00000000000000000000000000000000000b0b01';
    await t.rpc('anvil_setBalance', [from, '0xde0b6b3a7640000']);
    await t.rpc('anvil_impersonateAccount', [from]);
    const usdc = t.chain('polygon').tokens.find((c) => c.token === 'usdc')!.contractAddress;
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [getAddress(transfer.quote.deposit_blockchain_address), 100_000_000n] });
    const hash = await t.rpc<string>('eth_sendTransaction', [{ from, to: usdc, data, gas: '0x30000' }]);
    const refused = await complete(transfer.id, hash);
    expect([refused.status, refused.body.code]).toEqual([422, 'deposit_transaction_failed']);
    expect((await statusOf(transfer.id)).status).toBe('pending');
  });

  it('answers UnprocessableError with the code in GraphQL', async () => {
    const transfer = await openOfframp(api, customer);
    const res = await api.graphql(
      `mutation ($id: ID!, $hash: String!) { completeOfframpTransfer(input: { transferId: $id, depositTransactionHash: $hash }) {
        __typename ... on UnprocessableError { code } } }`,
      { id: transfer.id, hash: txHash('polygon') },
    );
    expect(res.body.data?.completeOfframpTransfer).toEqual({ __typename: 'UnprocessableError', code: 'DEPOSIT_TRANSACTION_NOT_FOUND' });
  });

  it('accepts a right hash not yet confirmed: pending with its confirmations, then processing after the network count', async () => {
    const transfer = await openOfframp(api, customer);
    const hash = await send('polygon', 'usdc', transfer.quote.deposit_blockchain_address, 100_000_000n);
    const accepted = await complete(transfer.id, hash);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.status).toBe('pending');
    expect(await statusOf(transfer.id)).toEqual({ status: 'pending', confirmations: 1 });
    await t.advance(1);
    expect(await statusOf(transfer.id)).toEqual({ status: 'pending', confirmations: 2 });
    await t.advance(1);
    expect((await statusOf(transfer.id)).status).toBe('processing');
    expect(await movementsOf(transfer.id)).toEqual(['deposit']);
  });

  it('credits at once a hash already confirmed, and the watcher seeing the same log credits nothing more', async () => {
    const transfer = await openOfframp(api, customer);
    const hash = await send('polygon', 'usdc', transfer.quote.deposit_blockchain_address, 100_000_000n);
    await t.mine(2);
    const done = await complete(transfer.id, hash);
    expect([done.status, done.body.status]).toEqual([200, 'processing']);
    await t.advance(3);
    expect(await movementsOf(transfer.id)).toEqual(['deposit']);
    const deposits = await t.sql<{ status: string }>('select status from chain_deposits where transfer_id = ?', [transfer.id]);
    expect(deposits.map((d) => d.status)).toEqual(['credited']);
  });

  it('credits once when the watcher saw the deposit before complete named it', async () => {
    const transfer = await openOfframp(api, customer);
    const hash = await send('polygon', 'usdc', transfer.quote.deposit_blockchain_address, 100_000_000n);
    await t.ramp.chainJobs.runOnce();
    expect(await statusOf(transfer.id)).toEqual({ status: 'pending', confirmations: 1 });
    await t.mine(1);
    const accepted = await complete(transfer.id, hash);
    expect([accepted.status, accepted.body.status]).toEqual([200, 'pending']);
    expect(await statusOf(transfer.id)).toEqual({ status: 'pending', confirmations: 2 });
    await t.advance(1);
    expect((await statusOf(transfer.id)).status).toBe('processing');
    await t.advance(1);
    expect(await movementsOf(transfer.id)).toEqual(['deposit']);
    // Done: completing again is a conflict, as before.
    expect((await complete(transfer.id, hash)).status).toBe(409);
  });

  it('credits once when complete and the watcher race for the same confirmed log', async () => {
    const transfer = await openOfframp(api, customer);
    const hash = await send('polygon', 'usdc', transfer.quote.deposit_blockchain_address, 100_000_000n);
    await t.mine(2);
    const [done] = await Promise.all([complete(transfer.id, hash), t.ramp.chainJobs.runOnce()]);
    // Whichever came first credited it; the other found it credited (complete: 409, the transfer no longer pending).
    expect([200, 409]).toContain(done.status);
    expect((await statusOf(transfer.id)).status).toBe('processing');
    expect(await movementsOf(transfer.id)).toEqual(['deposit']);
    expect((await t.sql<{ status: string }>('select status from chain_deposits where transfer_id = ?', [transfer.id])).map((d) => d.status)).toEqual([
      'credited',
    ]);
  });

  it('sends a real deposit from simulateCryptoDeposit in GraphQL, which the watcher funds', async () => {
    const transfer = await openOfframp(api, customer, { source_network: 'arbitrum', source_token: 'usdt' });
    const res = await api.graphql(
      `mutation ($id: ID!) { simulateCryptoDeposit(input: { transferId: $id }) { __typename ... on SimulateCryptoDepositPayload { transfer { status } } } }`,
      { id: transfer.id },
    );
    expect(res.body.data?.simulateCryptoDeposit, JSON.stringify(res.body)).toEqual({
      __typename: 'SimulateCryptoDepositPayload',
      transfer: { status: 'PENDING' },
    });
    expect(await t.balanceOf('arbitrum', 'usdt', transfer.quote.deposit_blockchain_address)).toBe(100_000_000n);
    await t.advance(2);
    expect((await statusOf(transfer.id)).status).toBe('processing');
  });

  it('checks only the form of the hash on a simulated network (solana), as before', async () => {
    const transfer = await openOfframp(api, customer, { source_network: 'solana' });
    const done = await complete(transfer.id, txHash('solana'));
    expect([done.status, done.body.status]).toEqual([200, 'processing']);
  });

  it('simulates a crypto deposit at once on a simulated network, with a made-up hash: less than the deposit amount fails underpaid', async () => {
    const paid = await openOfframp(api, customer, { source_network: 'solana' });
    const short = await openOfframp(api, customer, { source_network: 'solana' });
    const simulate = (id: string, amount?: string) =>
      api.post(`/v0/customers/${customer}/offramp-transfer/simulate`, { action: 'crypto_deposit', transfer_id: id, ...(amount && { amount }) });
    const done = await simulate(paid.id);
    expect([done.status, done.body.status]).toEqual([200, 'processing']);
    expect(done.body.quote.deposit_transaction_hash).toMatch(/^\w{40,}$/);
    const failed = await simulate(short.id, '10');
    expect([failed.status, failed.body.status]).toEqual([200, 'failed']);
    const onramp = await api.post(`/v0/customers/${customer}/onramp-transfer/simulate`, { action: 'crypto_deposit', transfer_id: paid.id });
    expect([onramp.status, onramp.body.code]).toEqual([400, 'validation_failed']);
  });
});
