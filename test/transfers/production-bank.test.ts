import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { type ApiClient, type TestRamp, startRamp } from '../support/ramp.js';
import { createCustomer, onrampQuoteBody, wallet } from '../support/data/transfers.js';
import { productionBankEnv } from '../support/data/bank-folder.js';

/**
 * Production's fiat leg once a bank is configured: BANK_ISO20022_DIR and Ramp's account there (BANK_DEBTOR_*, here both
 * an IBAN and a US account) connect it, so production on-ramps get deposit instructions and virtual accounts open.
 */
const dir = mkdtempSync(join(tmpdir(), 'ramp-production-bank-'));
const BANK = {
  ...productionBankEnv(dir),
};
let t: TestRamp;
let live: ApiClient;
let customerId: string;
beforeAll(async () => {
  t = await startRamp(BANK);
  live = t.client(await t.keyFor('Live Partner', 'production'));
  customerId = await createCustomer(live, { approved: false });
  // A production customer can only be approved by a real KYC provider; stand in for it in the database.
  const approved = await createCustomer(t.client(t.key));
  await t.sql('update customers set kyc_status_breakdown = (select kyc_status_breakdown from customers where id = ?) where id = ?', [approved, customerId]);
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function onramp(body: Record<string, unknown>) {
  const quote = await live.post(`/v0/customers/${customerId}/onramp-transfer/quote`, onrampQuoteBody(body));
  expect(quote.status, JSON.stringify(quote.body)).toBe(201);
  return live.post(`/v0/customers/${customerId}/onramp-transfer/quote/${quote.body.quote_id}`, { destination_address: wallet() });
}

describe('production with a bank configured', () => {
  it('opens a EUR on-ramp over SEPA whose deposit instructions are Ramp’s configured IBAN at its bank', async () => {
    const res = await onramp({ source_currency: 'eur', source_payment_rails: 'sepa' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.quote.deposit_bank_account).toEqual({
      bank_name: BANK.BANK_NAME,
      bank_address: BANK.BANK_ADDRESS,
      account_beneficiary_type: 'business',
      account_beneficiary_name: BANK.BANK_DEBTOR_NAME,
      account_type: 'iban',
      iban: { bic: BANK.BANK_DEBTOR_BIC, iban_number: BANK.BANK_DEBTOR_IBAN },
    });
    expect(res.body.quote.deposit_message).toMatch(/^[A-Z0-9]+$/);
  });

  it('opens a USD on-ramp over ACH on Ramp’s US account and routing number', async () => {
    const res = await onramp({ source_currency: 'usd', source_payment_rails: 'ach' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.quote.deposit_bank_account).toMatchObject({
      account_type: 'us',
      us: { account_number: BANK.BANK_DEBTOR_ACCOUNT_NUMBER, routing_number: BANK.BANK_DEBTOR_ROUTING_NUMBER },
    });
  });

  it('still refuses a currency its accounts do not move (AED, USD over SWIFT): 403 rails_not_connected', async () => {
    for (const body of [
      { source_currency: 'aed', source_payment_rails: 'uaefts' },
      { source_currency: 'usd', source_payment_rails: 'swift' },
    ]) {
      const res = await onramp(body);
      expect(res.status, JSON.stringify(body)).toBe(403);
      expect(res.body.code).toBe('rails_not_connected');
    }
  });

  it('opens a virtual account pending the bank’s own numbers (never the sandbox’s made-up ones), and refuses AED', async () => {
    const opened = await live.post(`/v0/customers/${customerId}/virtual-account`, { source_currency: 'usd', destination_network: 'base' });
    // 202: accepted, waiting for the bank to issue the account's numbers.
    expect(opened.status, JSON.stringify(opened.body)).toBe(202);
    expect(opened.body.status).toBe('pending');
    expect(await t.sql('select deposit_instructions from virtual_accounts where id = ?', [opened.body.id])).toEqual([{ deposit_instructions: null }]);
    const aed = await live.post(`/v0/customers/${customerId}/virtual-account`, { source_currency: 'aed', destination_network: 'base' });
    expect(aed.status).toBe(403);
    expect(aed.body.code).toBe('rails_not_connected');
  });

  it('lists which fiat is live in production and simulated in the sandbox, alike in REST and GraphQL', async () => {
    const production = [
      { currency: 'usd', rails: 'live', payment_rails: ['ach', 'wire'] },
      { currency: 'eur', rails: 'live', payment_rails: ['sepa', 'swift'] },
      { currency: 'aed', rails: 'not_connected', payment_rails: [] },
    ];
    expect((await live.get('/v0/networks')).body.fiat_rails).toEqual(production);
    const graphql = await live.graphql('{ fiatRails { currency rails paymentRails } }');
    expect(graphql.body.data!.fiatRails).toEqual(
      production.map((f) => ({ currency: f.currency.toUpperCase(), rails: f.rails.toUpperCase(), paymentRails: f.payment_rails.map((r) => r.toUpperCase()) })),
    );
    expect((await t.client(t.key).get('/v0/networks')).body.fiat_rails).toEqual([
      { currency: 'usd', rails: 'simulated', payment_rails: ['ach', 'wire', 'swift'] },
      { currency: 'eur', rails: 'simulated', payment_rails: ['sepa', 'swift'] },
      { currency: 'aed', rails: 'simulated', payment_rails: ['uaefts', 'swift'] },
    ]);
  });
});

describe('production bank configuration', () => {
  it('connects production only with the folder and Ramp’s whole account, never from the sandbox’s own folder', () => {
    const env = { NODE_ENV: 'test', ...BANK };
    expect(loadConfig(env).productionBank).toMatchObject({ dir, bankName: BANK.BANK_NAME });
    expect(loadConfig({ ...env, BANK_ISO20022_DIR: undefined }).productionBank).toBeNull();
    // Under SANDBOX_BANK=iso20022 the folder is the sandbox's: its simulator (or a test) answers there.
    expect(loadConfig({ ...env, SANDBOX_BANK: 'iso20022' }).productionBank).toBeNull();
    expect(() => loadConfig({ ...env, BANK_NAME: undefined })).toThrow(/set BANK_NAME and BANK_ADDRESS too/);
    // The bank's range for virtual accounts: ascending, as long as each other, within the IBAN's trailing digits.
    expect(loadConfig({ ...env, BANK_VIRTUAL_ACCOUNTS: '0417200000-0417299999' }).productionBank!.virtualAccounts).toEqual({
      first: 417200000n,
      last: 417299999n,
      digits: 10,
    });
    expect(() => loadConfig({ ...env, BANK_VIRTUAL_ACCOUNTS: '0417299999-0417200000' })).toThrow(/from the lower number to the higher/);
    expect(() => loadConfig({ ...env, BANK_VIRTUAL_ACCOUNTS: '00417200000-00417299999' })).toThrow(/more digits than the account number/);
    expect(() => loadConfig({ ...env, BANK_VIRTUAL_ACCOUNTS: 'NL00-NL99' })).toThrow(/BANK_VIRTUAL_ACCOUNTS/);
  });
});
