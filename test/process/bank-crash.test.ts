import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ramp } from '../../src/app.js';
import { assertValid } from '../../src/rails/bank/iso20022/schemas.js';
import { instances, sharedDatabaseEnv, startChild } from '../support/crash.js';
import { apiClient } from '../support/ramp.js';
import { createCustomer, ibanAccount, idempotencyKey, offrampQuoteBody } from '../support/transfers.js';

/**
 * The fiat payout's money path: Ramp dies (SIGKILL) right after the payment order and its pain.001 committed, before
 * the file is written. The next instance writes it from the order: the bank's outbox holds exactly one file for the
 * transfer, and still one after another restart.
 */
describe('a crash between the payment order’s commit and writing its pain.001', () => {
  const bankDir = mkdtempSync(join(tmpdir(), 'ramp-bank-crash-'));
  let database: Awaited<ReturnType<typeof sharedDatabaseEnv>>;
  let env: Record<string, string>;
  let key: string;
  const ramps = instances(() => env);

  beforeAll(async () => {
    database = await sharedDatabaseEnv();
    env = {
      ...database.env,
      SANDBOX_CHAIN: 'simulated',
      SANDBOX_BANK: 'iso20022',
      BANK_ISO20022_DIR: bankDir,
      BANK_SIMULATOR: 'off',
      CHAIN_POLL_INTERVAL_MS: '0',
    };
    const first = await ramps.start();
    key = first.demoKey!;
    await ramps.close(first);
  }, 120_000);
  afterAll(async () => {
    await ramps.close();
    await database?.drop();
    rmSync(bankDir, { recursive: true, force: true });
  });

  const sqlOf =
    (ramp: Ramp) =>
    <T>(query: string, params: unknown[] = []) =>
      ramp.db.fork().execute(query, params) as Promise<T[]>;
  /** The outbox's pain.001 files that pay this transfer (by its EndToEndId), hidden temporary files included. */
  const outboxFilesOf = (transferId: string) =>
    readdirSync(join(bankDir, 'outbox')).filter((name) =>
      readFileSync(join(bankDir, 'outbox', name), 'utf8').includes(`<EndToEndId>${transferId.replaceAll('-', '')}</EndToEndId>`),
    );

  it('writes exactly one pain.001 for the payout after the restart, and no second one after another', { timeout: 180_000 }, async () => {
    const maker = await ramps.start();
    const api = apiClient(maker.url(), key);
    const customer = await createCustomer(api);
    const quote = await api.post(
      `/v0/customers/${customer}/offramp-transfer/quote`,
      offrampQuoteBody({ destination_bank_account: ibanAccount(), transfer_purpose: 'personal_expenses' }),
      idempotencyKey(),
    );
    expect(quote.status, JSON.stringify(quote.body)).toBe(201);
    const transferId: string = quote.body.transfer_id;
    const paid = await api.post(`/v0/customers/${customer}/offramp-transfer/simulate`, { action: 'crypto_deposit', transfer_id: transferId });
    expect(paid.body.status).toBe('processing');
    await ramps.close(maker);

    const child = await startChild({ ...env, TEST_CRASH_AT: 'bank-order-stored' });
    const settling = apiClient(child.url, key)
      .post(`/v0/customers/${customer}/offramp-transfer/simulate`, { action: 'complete_transfer', transfer_id: transferId })
      .then(
        () => 'answered',
        () => 'no answer',
      );
    expect(await settling).toBe('no answer');
    const died = await child.exited;
    expect(died.signal, died.output.slice(-2000)).toBe('SIGKILL');

    const successor = await ramps.start();
    const sql = sqlOf(successor);
    const orderOf = async () => sql<{ status: string; uetr: string }>('select status, uetr from bank_payment_orders where transfer_id = ?', [transferId]);
    // Committed with the settlement, its file never written: nothing reached the bank yet.
    const [stored] = await orderOf();
    expect(stored).toMatchObject({ status: 'stored' });
    expect(outboxFilesOf(transferId)).toEqual([]);

    await successor.chainJobs.runOnce();
    const written = outboxFilesOf(transferId);
    expect(written).toHaveLength(1);
    const content = readFileSync(join(bankDir, 'outbox', written[0]!), 'utf8');
    expect(() => assertValid(content, 'pain.001.001.09')).not.toThrow();
    expect(content).toContain(`<UETR>${stored!.uetr}</UETR>`);
    expect(await orderOf()).toEqual([{ status: 'sent', uetr: stored!.uetr }]);
    await ramps.close(successor);

    const again = await ramps.start();
    await again.chainJobs.runOnce();
    expect(outboxFilesOf(transferId)).toEqual(written);
    expect(await sqlOf(again)('select count(*)::int as n from bank_payment_orders where transfer_id = ?', [transferId])).toEqual([{ n: 1 }]);
    await ramps.close(again);
  });
});
