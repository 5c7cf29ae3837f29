import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RailsCallInTransaction, afterCommit, unitOfWork } from '../../src/platform/db/unit-of-work.js';
import { sandboxAddress } from '../../src/domain/identifiers/chain.js';
import { type ChainTestRamp, startChainRamp } from '../support/chain/ramp.js';
import { units } from '../support/chain/payouts.js';

describe('no chain call inside a database transaction', () => {
  let t: ChainTestRamp;
  beforeAll(async () => {
    t = await startChainRamp();
  });
  afterAll(() => t?.close());

  it('refuses a chain call made inside a transaction, loudly, and lets the same call through outside one', async () => {
    const polygon = t.chain('polygon');
    const em = t.ramp.db.fork();
    await expect(em.transactional(() => polygon.head())).rejects.toThrow(RailsCallInTransaction);
    await expect(em.transactional(() => polygon.minedNonce(polygon.treasury))).rejects.toThrow(/inside a database transaction/);
    await expect(unitOfWork(em, () => t.ramp.rails.sandboxChain!.readMinter())).rejects.toThrow(RailsCallInTransaction);
    expect((await polygon.head()).number).toBeGreaterThan(0n);
  });

  it('runs what a unit of work sends after its commit, with the chain reachable, and nothing when it rolls back', async () => {
    const polygon = t.chain('polygon');
    const em = t.ramp.db.fork();
    const seen: bigint[] = [];
    await unitOfWork(em, async (tx) => {
      await tx.execute('select 1');
      afterCommit(async () => seen.push((await polygon.head()).number));
    });
    expect(seen).toHaveLength(1);
    await expect(
      unitOfWork(em, async () => {
        afterCommit(async () => seen.push(0n));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(seen).toHaveLength(1);
  });

  it('mints twelve concurrent faucet requests, each once, under one nonce sequence', async () => {
    const api = t.client(t.key);
    const addresses = Array.from({ length: 12 }, () => sandboxAddress('polygon', randomUUID()));
    const answers = await Promise.all(addresses.map((address) => api.post('/v0/sandbox/faucet', { network: 'polygon', token: 'usdc', address, amount: '3' })));
    expect(answers.map((a) => a.status)).toEqual(addresses.map(() => 201));
    const usdc = t.chain('polygon').tokens.find((c) => c.token === 'usdc')!.contractAddress;
    for (const address of addresses) expect(await t.balanceOf('polygon', 'usdc', address), `${usdc} ${address}`).toBe(units('3'));
    const nonces = (await t.sql<{ nonce: string }>('select nonce from chain_mints order by nonce')).map((r) => Number(r.nonce));
    expect(nonces).toEqual(nonces.map((_, i) => nonces[0]! + i));
  });
});
