import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { Decimal } from '../../src/domain/money.js';
import { assertValid } from '../../src/rails/bank/iso20022/schemas.js';
import { type ApiClient, type TestRamp, startRamp } from '../support/ramp.js';
import { createCustomer, ibanAccount, idempotencyKey, offrampQuoteBody, onrampQuoteBody, wallet } from '../support/data/transfers.js';

/** SANDBOX_BANK=iso20022 with its bank simulator on (the default): the sandbox's payouts go through real files. */
const dir = mkdtempSync(join(tmpdir(), 'ramp-bank-sim-'));
let t: TestRamp;
let api: ApiClient;
let customerId: string;
beforeAll(async () => {
  t = await startRamp({ SANDBOX_BANK: 'iso20022', BANK_ISO20022_DIR: dir, ...DEBTOR });
  api = t.client(t.key);
  customerId = await createCustomer(api);
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Ramp's own paying account, configured: the debtor of every pain.001 instead of the sandbox's collection account. */
const DEBTOR = { BANK_DEBTOR_NAME: 'Ramp Payments B.V.', BANK_DEBTOR_IBAN: 'NL91ABNA0417164300', BANK_DEBTOR_BIC: 'ABNANL2AXXX' };

const files = (folder: string) => readdirSync(join(dir, folder)).filter((name) => !name.startsWith('.'));

describe('the sandbox bank simulator', () => {
  it('answers the payout’s pain.001 with an ACSC pain.002, which completes the off-ramp', async () => {
    const path = `/v0/customers/${customerId}/offramp-transfer`;
    const quote = await api.post(
      `${path}/quote`,
      offrampQuoteBody({ destination_bank_account: ibanAccount(), transfer_purpose: 'personal_expenses' }),
      idempotencyKey(),
    );
    const id: string = quote.body.transfer_id;
    await api.post(`${path}/simulate`, { action: 'crypto_deposit', transfer_id: id });
    const settled = await api.post(`${path}/simulate`, { action: 'complete_transfer', transfer_id: id });
    expect(settled.body).toMatchObject({ status: 'processing', uetr: expect.any(String) });
    expect(files('outbox')).toHaveLength(1);

    await t.ramp.chainJobs.runOnce();
    expect((await api.get(`${path}/${id}`)).body).toMatchObject({ status: 'completed', uetr: settled.body.uetr });
    expect(files('outbox')).toEqual([]);
    expect(files('bank')).toHaveLength(1);
    const sent = readFileSync(join(dir, 'bank', files('bank')[0]!), 'utf8');
    expect(sent).toMatch(/<Dbtr>\s*<Nm>Ramp Payments B\.V\.<\/Nm>/);
    expect(sent).toMatch(/<DbtrAcct>\s*<Id>\s*<IBAN>NL91ABNA0417164300<\/IBAN>/);
    expect(sent).toContain('<BICFI>ABNANL2AXXX</BICFI>');
    expect(files('inbox')).toEqual([]);
    expect(files('processed').sort()).toEqual([expect.stringMatching(/^camt\.054-[0-9a-f]{16}\.xml$/), expect.stringMatching(/^pain\.002-[0-9a-f]{16}\.xml$/)]);
    expect(files('rejected')).toEqual([]);
    // The bank booked the payment's debit on Ramp's paying account, and Ramp read it as the payout's.
    const debits = await t.sql(
      'select direction, outcome, amount::text as amount, account, end_to_end_id, transfer_id from bank_entries where transfer_id = ?',
      [id],
    );
    expect(debits).toEqual([
      {
        direction: 'debit',
        outcome: 'recorded',
        amount: new Decimal(settled.body.destination_amount).toFixed(18),
        account: 'NL91ABNA0417164300',
        end_to_end_id: id.replaceAll('-', ''),
        transfer_id: id,
      },
    ]);
  });

  it('books a simulated fiat deposit as a camt.054 credit, which the inbox reader applies to the on-ramp', async () => {
    const quote = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote`, onrampQuoteBody());
    const created = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote/${quote.body.quote_id}`, { destination_address: wallet() });
    const id: string = created.body.id;
    const deposited = await api.post(`/v0/customers/${customerId}/onramp-transfer/simulate`, { action: 'fiat_deposit', transfer_id: id, amount: '120.00' });
    expect(deposited.status, JSON.stringify(deposited.body)).toBe(200);
    // The money is on its way through the bank: nothing moved yet.
    expect(deposited.body).toMatchObject({ status: 'pending', deposit_received_amount: null });
    const notified = files('inbox');
    expect(notified).toEqual([expect.stringMatching(/^camt\.054-[0-9a-f]{16}\.xml$/)]);
    const content = readFileSync(join(dir, 'inbox', notified[0]!), 'utf8');
    expect(() => assertValid(content, 'camt.054.001.08')).not.toThrow();
    expect(content).toContain(`<Ustrd>${created.body.quote.deposit_message}</Ustrd>`);

    await t.ramp.chainJobs.runOnce();
    expect((await api.get(`/v0/customers/${customerId}/onramp-transfer/${id}`)).body).toMatchObject({
      status: 'processing',
      deposit_received_amount: '120.00',
    });
    const [credit] = await t.sql('select outcome, transfer_id from bank_entries where transfer_id = ? and direction = ?', [id, 'credit']);
    expect(credit).toEqual({ outcome: 'credited', transfer_id: id });
  });

  it('funds a simulated virtual account deposit through a camt.054 credit to the account’s IBAN, the reader applying it', async () => {
    const opened = await api.post(`/v0/customers/${customerId}/virtual-account`, {
      source_currency: 'eur',
      destination_token: 'usdc',
      destination_network: 'polygon',
      destination_address: wallet('polygon', 'simulated-va'),
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    const iban: string = opened.body.deposit_instructions.iban.iban_number;
    const before = files('processed').length;
    const deposited = await api.post(`/v0/customers/${customerId}/virtual-account/${opened.body.id}/simulate`, { action: 'fiat_deposit', amount: '80.00' });
    expect(deposited.status, JSON.stringify(deposited.body)).toBe(201);
    expect(deposited.body).toMatchObject({ status: 'processing', virtual_account_id: opened.body.id, amount: '80.00' });
    // The bank's notification, read and applied: the credit's entry names the transfer it created.
    const [entry] = await t.sql<{ outcome: string; customer_id: string; file_name: string }>(
      'select outcome, customer_id, file_name from bank_entries where transfer_id = ?',
      [deposited.body.id],
    );
    expect(entry).toMatchObject({ outcome: 'credited', customer_id: customerId, file_name: expect.stringMatching(/^camt\.054-/) });
    expect(files('processed')).toHaveLength(before + 1);
    const content = readFileSync(join(dir, 'processed', entry!.file_name), 'utf8');
    expect(() => assertValid(content, 'camt.054.001.08')).not.toThrow();
    expect(content).toContain(`<IBAN>${iban}</IBAN>`);

    // Refused as before, and nothing booked at the bank: an amount no quote takes.
    const refused = await api.post(`/v0/customers/${customerId}/virtual-account/${opened.body.id}/simulate`, { action: 'fiat_deposit', amount: '0.001' });
    expect(refused.status).toBe(400);
    expect(files('inbox')).toEqual([]);
    expect(files('processed')).toHaveLength(before + 1);
  });
});

describe('the bank link’s configuration', () => {
  it('refuses SANDBOX_BANK=iso20022 without BANK_ISO20022_DIR, and a debtor account named in part', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', SANDBOX_BANK: 'iso20022' })).toThrow(/SANDBOX_BANK=iso20022 needs BANK_ISO20022_DIR/);
    expect(() => loadConfig({ NODE_ENV: 'test', BANK_DEBTOR_NAME: 'Ramp', BANK_DEBTOR_IBAN: 'NL91ABNA0417164300' })).toThrow(
      /BANK_DEBTOR_\* name Ramp's paying account whole/,
    );
    expect(() => loadConfig({ NODE_ENV: 'test', BANK_DEBTOR_ROUTING_NUMBER: '12345' })).toThrow(
      /BANK_DEBTOR_ROUTING_NUMBER: must be a 9-digit ABA routing number/,
    );
  });
});
