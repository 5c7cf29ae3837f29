import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { type ApiClient, type TestRamp, startRamp } from '../ramp.js';
import { createCustomer } from './transfers.js';

/** What a test that plays the bank works with: Ramp, its sandbox client, a customer, and the folder they share. */
export interface BankPlayed {
  dir: string;
  t: TestRamp;
  api: ApiClient;
  customerId: string;
}

/**
 * Ramp with its sandbox fiat leg on the ISO 20022 adapter and no simulator (SANDBOX_BANK=iso20022,
 * BANK_SIMULATOR=off): the test plays the bank on the folder, reading outbox/ and dropping files in inbox/.
 * Started before the file's tests, stopped and its folder removed after them.
 */
export function playingTheBank(prefix: string): BankPlayed {
  const played = { dir: mkdtempSync(join(tmpdir(), prefix)) } as BankPlayed;
  beforeAll(async () => {
    played.t = await startRamp({ SANDBOX_BANK: 'iso20022', BANK_ISO20022_DIR: played.dir, BANK_SIMULATOR: 'off' });
    played.api = played.t.client(played.t.key);
    played.customerId = await createCustomer(played.api);
  });
  afterAll(async () => {
    await played.t.close();
    rmSync(played.dir, { recursive: true, force: true });
  });
  return played;
}

/**
 * Production's bank link as an operator configures it, on `dir`: the folder, the bank's name and address, and Ramp's
 * account there, both an IBAN and a US account.
 */
export const productionBankEnv = (dir: string) => ({
  BANK_ISO20022_DIR: dir,
  BANK_NAME: 'Ramp Payments Bank N.V.',
  BANK_ADDRESS: 'Gustav Mahlerlaan 10, 1082 PP Amsterdam, NL',
  BANK_DEBTOR_NAME: 'Ramp Payments B.V.',
  BANK_DEBTOR_IBAN: 'NL91ABNA0417164300',
  BANK_DEBTOR_BIC: 'ABNANL2AXXX',
  BANK_DEBTOR_ACCOUNT_NUMBER: '000222333444',
  BANK_DEBTOR_ROUTING_NUMBER: '026009593',
});
