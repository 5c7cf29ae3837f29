import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxAddress } from '../../src/domain/identifiers/chain.js';
import { type ChainTestRamp, minedReceipt, startChainRamp } from '../support/chain/ramp.js';
import type { ApiClient } from '../support/ramp.js';
import { idempotencyKey } from '../support/data/transfers.js';
import { sleep } from '../support/clients/webhook-receiver.js';

const FEE_CEILING_GWEI = 50;

/**
 * The faucet's mints are followed like payouts: to the chain's confirmations, sent again when a reorganisation drops
 * them, and signed again under their nonce at higher fees (within CHAIN_FEE_CEILING_GWEI) when they are stuck.
 */
describe('faucet mints, followed until final', () => {
  let t: ChainTestRamp;
  let api: ApiClient;
  beforeAll(async () => {
    // A mint stuck for a second is replaced (the last test); the others are mined at once.
    t = await startChainRamp({ PAYOUT_REPLACE_AFTER_SECONDS: '1', CHAIN_FEE_CEILING_GWEI: String(FEE_CEILING_GWEI) });
    api = t.client(t.key);
  });
  afterAll(() => t?.close());

  /** A mint of 12.5 USDC on polygon to a new address: the faucet's answer, and the address. */
  async function mint() {
    const address = sandboxAddress('polygon', randomUUID());
    const res = await api.post('/v0/sandbox/faucet', { network: 'polygon', token: 'usdc', address, amount: '12.5' }, idempotencyKey());
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { address, hash: res.body.transaction_hash as string };
  }

  /** The mint to `address` as stored, its replaced hashes read as an array on both databases. */
  async function mintOf(address: string) {
    const [row] = await t.sql<{ status: string; transaction_hash: string; earlier_hashes: string[] | string; max_fee_per_gas: string; nonce: string }>(
      'select status, transaction_hash, earlier_hashes, max_fee_per_gas::text as max_fee_per_gas, nonce from chain_mints where "to" = ?',
      [address.toLowerCase()],
    );
    const earlier = typeof row!.earlier_hashes === 'string' ? (JSON.parse(row!.earlier_hashes) as string[]) : row!.earlier_hashes;
    return { ...row!, earlier_hashes: earlier };
  }

  const minted = (address: string) => t.balanceOf('polygon', 'usdc', address);

  it("follows a mint past its block to the chain's confirmations", async () => {
    const { address, hash } = await mint();
    expect(await minted(address)).toBe(12_500_000n);
    await t.ramp.chainJobs.runOnce();
    expect(await mintOf(address)).toMatchObject({ status: 'mined', transaction_hash: hash });
    // SANDBOX_CONFIRMATIONS=3: its own block and two more.
    await t.advance(2);
    expect(await mintOf(address)).toMatchObject({ status: 'confirmed', transaction_hash: hash });
  });

  it('sends a mint again when a reorganisation removes its block, and mints once', async () => {
    const snapshot = await t.rpc<string>('evm_snapshot');
    const { address, hash } = await mint();
    await t.ramp.chainJobs.runOnce();
    expect(await mintOf(address)).toMatchObject({ status: 'mined' });

    await t.rpc('evm_revert', [snapshot]);
    await t.mine(1);
    expect(await minted(address)).toBe(0n);
    expect(await t.chain('polygon').receipt(hash)).toEqual({ status: 'pending' });

    for (let i = 0; i < 6 && (await mintOf(address)).status !== 'confirmed'; i++) await t.advance(1);
    expect(await mintOf(address)).toMatchObject({ status: 'confirmed', transaction_hash: hash, earlier_hashes: [] });
    expect(await minted(address)).toBe(12_500_000n);
  });

  it('signs a stuck mint again under its nonce at higher fees, within the ceiling, and mints once', { timeout: 60_000 }, async () => {
    await t.rpc('evm_setAutomine', [false]);
    let address: string;
    let first: Awaited<ReturnType<typeof mintOf>>;
    try {
      // The faucet answers once its wait for the block gives up: the mint is stored and sent, and left in the mempool.
      ({ address } = await mint());
      first = await mintOf(address);
      expect(first).toMatchObject({ status: 'sent', earlier_hashes: [] });
      expect(await t.chain('polygon').receipt(first.transaction_hash)).toEqual({ status: 'pending' });

      await sleep(1100);
      await t.ramp.chainJobs.runOnce();
      const replaced = await mintOf(address);
      expect(replaced).toMatchObject({ status: 'sent', nonce: first.nonce, earlier_hashes: [first.transaction_hash] });
      expect(replaced.transaction_hash).not.toBe(first.transaction_hash);
      expect(BigInt(replaced.max_fee_per_gas) * 1000n).toBeGreaterThanOrEqual(BigInt(first.max_fee_per_gas) * 1125n);
      expect(BigInt(replaced.max_fee_per_gas)).toBeLessThanOrEqual(BigInt(FEE_CEILING_GWEI) * 1_000_000_000n);
    } finally {
      await t.rpc('evm_setAutomine', [true]);
    }
    for (let i = 0; i < 6 && (await mintOf(address)).status !== 'confirmed'; i++) await t.advance(1);
    const final = await mintOf(address);
    expect(final.status).toBe('confirmed');
    expect(await minedReceipt(t.chain('polygon'), final.transaction_hash)).toMatchObject({ status: 'mined', succeeded: true });
    expect(await minted(address)).toBe(12_500_000n);
  });
});
