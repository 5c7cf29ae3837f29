import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, type TestRamp, startRamp } from '../support/ramp.js';
import { createCustomer, ibanAccount, idempotencyKey, offrampQuoteBody } from '../support/transfers.js';

/** SANDBOX_BANK=iso20022 with its bank simulator on (the default): the sandbox's payouts go through real files. */
const dir = mkdtempSync(join(tmpdir(), 'ramp-bank-sim-'));
let t: TestRamp;
let api: ApiClient;
let customerId: string;
beforeAll(async () => {
  t = await startRamp({ SANDBOX_BANK: 'iso20022', BANK_ISO20022_DIR: dir });
  api = t.client(t.key);
  customerId = await createCustomer(api);
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

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
    expect(files('inbox')).toEqual([]);
    expect(files('processed')).toEqual([expect.stringMatching(/^pain\.002-[0-9a-f]{16}\.xml$/)]);
    expect(files('rejected')).toEqual([]);
  });
});
