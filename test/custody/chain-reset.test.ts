import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxAddress } from '../../src/domain/identifiers/chain.js';
import { instances, sharedDatabaseEnv } from '../support/crash.js';
import { chainRampEnv } from '../support/chain/local-chain.js';
import { apiClient, onPostgres } from '../support/ramp.js';
import { idempotencyKey } from '../support/data/transfers.js';
import { waitFor } from '../support/clients/webhook-receiver.js';

/**
 * Ramp's own sandbox node, its chain reset while the database is kept (on PostgreSQL the node keeps no state; on
 * PGlite its state directory deleted): the database's nonces are ahead of the new chain and what it stored there is
 * gone, so every later mint or payout would wait forever behind the gap. Ramp refuses to start, and says what to do.
 */
describe("a reset of the sandbox's own chain under a kept database", () => {
  let database: Awaited<ReturnType<typeof sharedDatabaseEnv>>;
  let env: Record<string, string>;
  const ramps = instances(() => env);

  beforeAll(async () => {
    database = await sharedDatabaseEnv();
    env = chainRampEnv(database, null, { SANDBOX_CONFIRMATIONS: '1', CHAIN_POLL_INTERVAL_MS: '0' });
  });
  afterAll(async () => {
    await ramps.close();
    await database?.drop();
  });

  it('refuses to start, naming what to do, once a mint the database counts final is gone from the chain', { timeout: 120_000 }, async () => {
    const first = await ramps.start();
    const address = sandboxAddress('polygon', randomUUID());
    const minted = await apiClient(first.url(), first.demoKey!).post(
      '/v0/sandbox/faucet',
      { network: 'polygon', token: 'usdc', address, amount: '1' },
      idempotencyKey(),
    );
    expect(minted.status, JSON.stringify(minted.body)).toBe(201);
    await waitFor(
      async () => {
        await first.chainJobs.runOnce();
        const rows = (await first.db.fork().execute('select status from chain_mints where "to" = ?', [address.toLowerCase()])) as { status: string }[];
        return rows[0]?.status === 'confirmed';
      },
      30_000,
      'the mint confirmed',
    );
    await ramps.close(first);

    // PostgreSQL: Ramp's node keeps no chain, each start is a new one. PGlite: the chain's state deleted, the database kept.
    if (!onPostgres) rmSync(`${database.env.DATA_DIR}-chain`, { recursive: true, force: true });
    await expect(ramps.start()).rejects.toThrow(/sandbox chain was reset.*start again with a fresh database/);
  });
});
