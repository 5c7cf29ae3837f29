import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { type ApiClient, type TestRamp, startRamp } from '../support/ramp.js';
import { createCustomer, ibanAccount, idempotencyKey, offrampQuoteBody } from '../support/transfers.js';

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
    expect(files('processed')).toEqual([expect.stringMatching(/^pain\.002-[0-9a-f]{16}\.xml$/)]);
    expect(files('rejected')).toEqual([]);
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
