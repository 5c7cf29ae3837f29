import { mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ramp } from '../../src/app.js';
import { assertValid } from '../../src/rails/bank/iso20022/schemas.js';
import { instances, sharedDatabaseEnv, startChild } from '../support/crash.js';
import { apiClient } from '../support/ramp.js';
import { debitCreditNotification } from '../../src/rails/bank/iso20022/camt054.js';
import { createCustomer, ibanAccount, idempotencyKey, offrampQuoteBody, onrampQuoteBody, wallet } from '../support/data/transfers.js';

/**
 * The bank's money paths under a crash. The fiat payout's: Ramp dies (SIGKILL) right after the payment order and its pain.001 committed, before
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
  /** A new customer's on-ramp of 100 EUR over SEPA, pending, with an external IBAN account to refund to. */
  async function pendingOnramp(api: ReturnType<typeof apiClient>) {
    const customer = await createCustomer(api);
    const account = await api.post(`/v0/customers/${customer}/external-accounts`, ibanAccount(), idempotencyKey());
    expect(account.status, JSON.stringify(account.body)).toBe(201);
    const quote = await api.post(`/v0/customers/${customer}/onramp-transfer/quote`, onrampQuoteBody());
    const created = await api.post(`/v0/customers/${customer}/onramp-transfer/quote/${quote.body.quote_id}`, { destination_address: wallet() });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return { customer, id: created.body.id as string, depositMessage: created.body.quote.deposit_message as string };
  }

  it('writes exactly one pain.001 for a fiat refund whose order committed before the crash, and no second one', { timeout: 180_000 }, async () => {
    const maker = await ramps.start();
    const api = apiClient(maker.url(), key);
    const onramp = await pendingOnramp(api);
    // BANK_SIMULATOR=off: the simulated deposit funds the on-ramp directly.
    const paid = await api.post(`/v0/customers/${onramp.customer}/onramp-transfer/simulate`, { action: 'fiat_deposit', transfer_id: onramp.id });
    expect(paid.body.status).toBe('processing');
    await ramps.close(maker);

    const child = await startChild({ ...env, TEST_CRASH_AT: 'bank-order-stored' });
    const refunding = apiClient(child.url, key)
      .post(`/v0/customers/${onramp.customer}/onramp-transfer/simulate`, { action: 'refund_transfer', transfer_id: onramp.id })
      .then(
        () => 'answered',
        () => 'no answer',
      );
    expect(await refunding).toBe('no answer');
    const died = await child.exited;
    expect(died.signal, died.output.slice(-2000)).toBe('SIGKILL');

    const successor = await ramps.start();
    const refundsOf = () =>
      sqlOf(successor)<{ status: string; end_to_end_id: string }>(
        `select status, end_to_end_id from bank_payment_orders where transfer_id = ? and purpose = 'refund'`,
        [onramp.id],
      );
    const [stored] = await refundsOf();
    expect(stored).toMatchObject({ status: 'stored' });
    const refundFiles = () =>
      readdirSync(join(bankDir, 'outbox')).filter((name) =>
        readFileSync(join(bankDir, 'outbox', name), 'utf8').includes(`<EndToEndId>${stored!.end_to_end_id}</EndToEndId>`),
      );
    expect(refundFiles()).toEqual([]);
    // The refund committed with the transfer's failure: nothing settles the deposit meanwhile.
    expect((await apiClient(successor.url(), key).get(`/v0/customers/${onramp.customer}/onramp-transfer/${onramp.id}`)).body.status).toBe('failed');

    await successor.chainJobs.runOnce();
    const written = refundFiles();
    expect(written).toHaveLength(1);
    expect(() => assertValid(readFileSync(join(bankDir, 'outbox', written[0]!), 'utf8'), 'pain.001.001.09')).not.toThrow();
    expect(await refundsOf()).toEqual([{ status: 'sent', end_to_end_id: stored!.end_to_end_id }]);
    await ramps.close(successor);

    const again = await ramps.start();
    await again.chainJobs.runOnce();
    expect(refundFiles()).toEqual(written);
    expect(await sqlOf(again)('select count(*)::int as n from bank_payment_orders where transfer_id = ?', [onramp.id])).toEqual([{ n: 1 }]);
    await ramps.close(again);
  });

  it('applies each entry of a camt.054 exactly once when Ramp dies in the middle of the file', { timeout: 180_000 }, async () => {
    const maker = await ramps.start();
    const api = apiClient(maker.url(), key);
    const onramps = [await pendingOnramp(api), await pendingOnramp(api), await pendingOnramp(api)];
    await ramps.close(maker);
    const references = onramps.map((_, i) => `CRASH-CREDIT-${i}-${Date.now()}`);
    const notification = debitCreditNotification({
      messageId: `CRASH-NTFCTN-${Date.now()}`,
      createdAt: new Date(),
      account: 'DE89370400440532013000',
      entries: onramps.map((onramp, i) => ({
        reference: references[i]!,
        direction: 'credit' as const,
        amount: '100.00',
        currency: 'EUR',
        bookingDate: new Date().toISOString().slice(0, 10),
        remittance: onramp.depositMessage,
      })),
    });
    const drop = (name: string) => {
      writeFileSync(join(bankDir, 'inbox', `.${name}`), notification);
      renameSync(join(bankDir, 'inbox', `.${name}`), join(bankDir, 'inbox', name));
    };
    drop('credits.xml');

    // The child reads the inbox on its own (its jobs poll), and dies after the file's first entry, inside its transaction.
    const child = await startChild({ ...env, TEST_CRASH_AT: 'bank-entry-applied', CHAIN_POLL_INTERVAL_MS: '100' });
    const died = await child.exited;
    expect(died.signal, died.output.slice(-2000)).toBe('SIGKILL');

    const successor = await ramps.start();
    const sql = sqlOf(successor);
    const entries = () =>
      sql<{ reference: string; outcome: string; transfer_id: string }>(
        'select reference, outcome, transfer_id from bank_entries where reference in (?) order by reference',
        [references],
      );
    // Nothing of the file was kept: its transaction died with the process, and the file is still in the inbox.
    expect(await entries()).toEqual([]);
    expect(readdirSync(join(bankDir, 'inbox'))).toContain('credits.xml');

    await successor.chainJobs.runOnce();
    expect(await entries()).toEqual(onramps.map((onramp, i) => ({ reference: references[i], outcome: 'credited', transfer_id: onramp.id })));
    const funded = () =>
      sql<{ id: string; status: string; n: number }>(
        `select t.id, t.status, (select count(*)::int from transfer_status_history h where h.transfer_id = t.id and h.to_status = 'processing') as n
         from transfers t where t.id in (?) order by t.id`,
        [onramps.map((onramp) => onramp.id)],
      );
    const once = onramps.map((onramp) => ({ id: onramp.id, status: 'processing', n: 1 })).sort((a, b) => a.id.localeCompare(b.id));
    expect(await funded()).toEqual(once);
    await ramps.close(successor);

    // The bank sends the same file again after the restart: every entry is known, nothing moves twice.
    drop('credits-again.xml');
    const again = await ramps.start();
    await again.chainJobs.runOnce();
    expect(await sqlOf(again)('select count(*)::int as n from bank_entries where reference in (?)', [references])).toEqual([{ n: 3 }]);
    expect(
      await sqlOf(again)<{ id: string; status: string; n: number }>(
        `select t.id, t.status, (select count(*)::int from transfer_status_history h where h.transfer_id = t.id and h.to_status = 'processing') as n
       from transfers t where t.id in (?) order by t.id`,
        [onramps.map((onramp) => onramp.id)],
      ),
    ).toEqual(once);
    await ramps.close(again);
  });
});
