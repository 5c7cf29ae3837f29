import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RailsCallInTransaction } from '../../src/platform/db/unit-of-work.js';
import { type ChainTestRamp, openOfframp, startChainRamp } from '../support/chain/ramp.js';
import { startLocalChain } from '../support/chain/local-chain.js';
import type { ApiClient } from '../support/ramp.js';
import { startRpcRecorder } from '../support/chain/rpc-recorder.js';
import { deploySplitPayer } from '../support/chain/split-payer.js';
import { ageTransfer, createCustomer, ledgerSums } from '../support/data/transfers.js';

/**
 * Deposits that cannot be griefed: whoever knows a deposit address can send to it, so what arrives
 * there within the transfer's window adds up, and the watcher asks the node for Ramp's deposits only.
 * Ramp joins a chain of the test's own through a proxy that records every RPC call.
 */
describe('deposits to one address add up', () => {
  let chain: Awaited<ReturnType<typeof startLocalChain>>;
  let recorder: Awaited<ReturnType<typeof startRpcRecorder>>;
  let t: ChainTestRamp;
  let api: ApiClient;
  let customer: string;
  let wallets = 0;
  beforeAll(async () => {
    chain = await startLocalChain();
    recorder = await startRpcRecorder(chain.rpcUrl);
    t = await startChainRamp({ SANDBOX_CHAIN_RPC_URL: recorder.url });
    api = t.client(t.key);
    customer = await createCustomer(api);
    await t.ramp.chainJobs.runOnce();
  });
  afterAll(async () => {
    await t?.close();
    await recorder?.close();
    await chain?.stop();
  });

  const usdc = () => t.chain('polygon').tokens.find((c) => c.token === 'usdc')!;
  /** A customer's wallet of its own sends `amount` base units to `to`, in one transaction. */
  const send = (to: string, amount: bigint) => t.ramp.rails.sandboxChain!.sendFromCustomer(usdc(), 7_000 + wallets++, to, amount);
  const stateOf = async (id: string) => {
    const [row] = await t.sql<{ status: string; failure_reason: string | null; received: string | null; confirmations: number | null }>(
      'select status, failure_reason, deposit_received_amount::text as received, confirmations from transfers where id = ?',
      [id],
    );
    return row!;
  };
  const depositsOf = async (id: string) =>
    (
      await t.sql<{ amount: string; status: string; tx_hash: string }>(
        'select amount::text as amount, status, tx_hash from chain_deposits where transfer_id = ? order by block_number, log_index',
        [id],
      )
    ).map((d) => [Number(d.amount), d.status, d.tx_hash] as const);
  const movementsOf = async (id: string) =>
    (await t.sql<{ movement: string }>('select movement from ledger_transactions where transfer_id = ? order by created_at, movement', [id])).map(
      (m) => m.movement,
    );
  const heldFor = async (id: string) => {
    const [row] = await t.sql<{ held: string }>(
      `select coalesce(sum(amount), 0)::text as held from ledger_entries where transfer_id = ? and account = 'customer_funds'`,
      [id],
    );
    return Number(row!.held);
  };

  it('credits the real deposit when dust arrived first: the dust adds to it, its excess held for return', async () => {
    const transfer = await openOfframp(api, customer);
    const address = transfer.quote.deposit_blockchain_address;
    await send(address, 1n);
    await t.advance(3);
    expect(await stateOf(transfer.id)).toMatchObject({ status: 'pending', failure_reason: null, received: null });
    expect((await depositsOf(transfer.id)).map(([amount, status]) => [amount, status])).toEqual([[0.000001, 'confirmed']]);

    await send(address, 100_000_000n);
    await t.advance(3);
    expect(await stateOf(transfer.id)).toMatchObject({ status: 'processing', received: '100.000001000000000000' });
    expect((await depositsOf(transfer.id)).map(([, status]) => status)).toEqual(['credited', 'credited']);
    expect(await movementsOf(transfer.id)).toEqual(['deposit', 'excess_return']);
  });

  it('credits once, with the sum, a deposit paid as two 50 USDC logs of one transaction', async () => {
    const transfer = await openOfframp(api, customer);
    const wallet = '0x00000000000000000000000000000000000b0b03';
    await t.ramp.rails.sandboxChain!.faucet(usdc(), wallet, 1n);
    const payer = await deploySplitPayer(t, wallet);
    await t.ramp.rails.sandboxChain!.faucet(usdc(), payer.address, 100_000_000n);
    const hash = (await payer.pay(usdc().contractAddress, transfer.quote.deposit_blockchain_address, 50_000_000n, 2)).toLowerCase();
    await t.advance(3);
    expect(await stateOf(transfer.id)).toMatchObject({ status: 'processing', failure_reason: null, received: '100.000000000000000000' });
    expect(await depositsOf(transfer.id)).toEqual([
      [50, 'credited', hash],
      [50, 'credited', hash],
    ]);
    expect(await movementsOf(transfer.id)).toEqual(['deposit']);
    // More blocks and polls credit nothing more.
    await t.advance(2);
    expect(await movementsOf(transfer.id)).toEqual(['deposit']);
  });

  it('waits while the deposits fall short, and fails the transfer underpaid only when its window closes, the sum held', async () => {
    const transfer = await openOfframp(api, customer);
    const address = transfer.quote.deposit_blockchain_address;
    await send(address, 30_000_000n);
    await send(address, 20_000_000n);
    await t.advance(3);
    await t.ramp.jobs.runOnce();
    expect(await stateOf(transfer.id)).toMatchObject({ status: 'pending', received: null });
    expect((await depositsOf(transfer.id)).map(([amount, status]) => [amount, status])).toEqual([
      [30, 'confirmed'],
      [20, 'confirmed'],
    ]);
    expect(await movementsOf(transfer.id)).toEqual([]);

    await ageTransfer(t, transfer.id);
    await t.ramp.jobs.runOnce();
    expect(await stateOf(transfer.id)).toMatchObject({ status: 'failed', failure_reason: 'underpaid', received: '50.000000000000000000' });
    expect((await depositsOf(transfer.id)).map(([, status]) => status)).toEqual(['credited', 'credited']);
    expect(await movementsOf(transfer.id)).toEqual(['deposit']);
    expect(Math.abs(await heldFor(transfer.id))).toBe(50);
    for (const total of Object.values(await ledgerSums(t))) expect(Number(total)).toBe(0);
  });

  it('expires a transfer to which nothing was sent, as before', async () => {
    const transfer = await openOfframp(api, customer);
    await t.advance(1);
    await ageTransfer(t, transfer.id);
    await t.ramp.jobs.runOnce();
    expect(await stateOf(transfer.id)).toMatchObject({ status: 'expired', received: null });
  });

  it("asks the node for token transfers to Ramp's deposit addresses only, never another recipient's", async () => {
    const transfer = await openOfframp(api, customer);
    const address = transfer.quote.deposit_blockchain_address.toLowerCase();
    const stranger = '0x000000000000000000000000000000000000beef';
    await send(stranger, 5_000_000n);
    await send(address, 100_000_000n);
    recorder.calls.length = 0;
    await t.advance(3);
    const getLogs = recorder.calls.filter((c) => c.method === 'eth_getLogs');
    expect(getLogs.length).toBeGreaterThan(0);
    const topic = (a: string) => `0x${a.slice(2).padStart(64, '0')}`;
    const asked = getLogs.flatMap((c) => ((c.params[0] as { topics: (string | string[] | null)[] }).topics[2] ?? []) as string[]);
    expect(asked).toContain(topic(address));
    expect(asked).not.toContain(topic(stranger));
    const answered = getLogs.flatMap((c) => (c.result as { topics: string[] }[]).map((log) => log.topics[2]));
    expect(answered).toContain(topic(address));
    expect(answered).not.toContain(topic(stranger));
    expect((await stateOf(transfer.id)).status).toBe('processing');
  });

  it('asks for at most 100 recipients a call, however many addresses wait', async () => {
    for (let made = 0; made < 100; made += 10) await Promise.all(Array.from({ length: 10 }, () => openOfframp(api, customer)));
    recorder.calls.length = 0;
    await t.advance(1);
    const recipients = recorder.calls
      .filter((c) => c.method === 'eth_getLogs')
      .map((c) => ((c.params[0] as { topics: (string | string[] | null)[] }).topics[2] ?? []) as string[]);
    expect(recipients.length).toBeGreaterThanOrEqual(2);
    for (const chunk of recipients) expect(chunk.length).toBeLessThanOrEqual(100);
    expect(new Set(recipients.flat()).size).toBeGreaterThan(100);
  }, 60_000);

  it('applies nothing when another instance moved the cursor while this one read the chain', async () => {
    const transfer = await openOfframp(api, customer);
    await send(transfer.quote.deposit_blockchain_address, 100_000_000n);
    await t.mine(3);
    const head = await t.rpc<{ number: string; hash: string }>('eth_getBlockByNumber', ['latest', false]);
    const moved = { number: BigInt(head.number).toString(), hash: head.hash.toLowerCase() };
    // Another instance reads and applies the range while this one is still asking the node for its logs.
    const polygonLogs = (call: { method: string; params?: unknown[] }) =>
      call.method === 'eth_getLogs' && JSON.stringify(call.params).toLowerCase().includes(usdc().contractAddress.toLowerCase());
    recorder.hooks.beforeForwarding = async (calls) => {
      if (!calls.some(polygonLogs)) return;
      recorder.hooks.beforeForwarding = null;
      await t.sql(`update chain_cursors set block_number = ?, block_hash = ? where chain_key = 'sandbox:polygon'`, [moved.number, moved.hash]);
    };
    await t.ramp.chainJobs.runOnce();
    expect(recorder.hooks.beforeForwarding).toBeNull();
    expect(await depositsOf(transfer.id)).toEqual([]);
    const [cursor] = await t.sql<{ number: string; hash: string }>(
      `select block_number::text as number, block_hash as hash from chain_cursors where chain_key = 'sandbox:polygon'`,
    );
    expect(cursor).toEqual(moved);
  });

  it('refuses a chain call inside a database transaction: the guard is wired on the watched chain', async () => {
    await expect(t.ramp.db.fork().transactional(() => t.chain('polygon').head())).rejects.toThrow(RailsCallInTransaction);
  });
});
