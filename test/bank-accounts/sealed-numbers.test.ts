import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sandboxIban } from '../../src/domain/identifiers/bank.js';
import { sandboxBank } from '../../src/rails/bank/sandbox-bank.js';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';
import { createCustomer, ibanAccount, idempotencyKey, offrampQuoteBody, onrampQuoteBody, txHash, wallet } from '../support/data/transfers.js';

let t: TestRamp;
let api: ApiClient;

beforeAll(async () => {
  t = await startRamp();
  api = t.client(t.key);
});
afterAll(() => t.close());
afterEach(() => vi.restoreAllMocks());

/** An IBAN no other row of the database holds. */
const freshIban = () => sandboxIban('DE', randomUUID());
const masked = (iban: string) => `…${iban.slice(-4)}`;
const accountsOf = (customerId: string) => `/v0/customers/${customerId}/external-accounts`;

/** The whole stored row as text: every column, json included. */
const rowText = async (table: 'external_accounts' | 'transfers', id: string) =>
  (await t.sql<{ row: string }>(`select row_to_json(x)::text as row from ${table} x where id = ?`, [id]))[0]!.row;

/** An off-ramp of `customerId` paying out to `destination` (an external account's id, or an account inline), created by its quote. */
async function offramp(customerId: string, destination: { destination_external_account_id: string } | { destination_bank_account: object }) {
  const quote = await api.post(
    `/v0/customers/${customerId}/offramp-transfer/quote`,
    offrampQuoteBody({ ...destination, transfer_purpose: 'travel' }),
    idempotencyKey(),
  );
  expect(quote.status).toBe(201);
  return quote.body;
}

/** Takes an off-ramp to the payout: the deposit's hash, then the sandbox's settlement (the bank pays out). */
async function payOut(customerId: string, transferId: string) {
  const completed = await api.post(
    `/v0/customers/${customerId}/offramp-transfer/${transferId}/complete`,
    { deposit_transaction_hash: txHash() },
    idempotencyKey(),
  );
  expect(completed.status).toBe(200);
  return api.post(`/v0/customers/${customerId}/offramp-transfer/simulate`, { action: 'complete_transfer', transfer_id: transferId });
}

describe('bank account numbers at rest', () => {
  it('are stored sealed, while every answer shows what it did, the same account is still refused, and the payout gets the full number', async () => {
    const customerId = await createCustomer(api);
    const iban = freshIban();
    const created = await api.post(accountsOf(customerId), ibanAccount({ iban: { bic: 'DEUTDEFFXXX', iban_number: iban } }), idempotencyKey());
    expect(created.status).toBe(201);
    // The creation answer alone shows the number in full.
    expect(created.body.iban).toEqual({ bic: 'DEUTDEFFXXX', iban_number: iban });
    const accountId = created.body.external_account_id as string;

    const [stored] = await t.sql<{ iban_number: string; hidden_number: string; number_digest: string }>(
      'select iban_number, hidden_number, number_digest from external_accounts where id = ?',
      [accountId],
    );
    expect(stored!.iban_number).toMatch(/^v1:[0-9a-f-]{36}:/);
    expect(stored!.hidden_number).toBe(`${'•'.repeat(iban.length - 4)}${iban.slice(-4)}`);
    expect(stored!.number_digest).toEqual(expect.any(String));
    expect(await rowText('external_accounts', accountId)).not.toContain(iban);

    // Reads mask it as before, from what the row keeps in clear.
    expect((await api.get(`${accountsOf(customerId)}/${accountId}`)).body.iban.iban_number).toBe(masked(iban));
    expect((await api.get(accountsOf(customerId))).body.items.map((a: { iban: { iban_number: string } }) => a.iban.iban_number)).toEqual([masked(iban)]);
    const gql = await api.graphql('query ($id: ID!) { bankAccount(id: $id) { accountNumberMasked } }', { id: accountId });
    expect(gql.body.data.bankAccount.accountNumberMasked).toBe(masked(iban));

    // The same account again (in print form) is refused: the keyed digest finds it.
    const printed = iban.replace(/(.{4})/g, '$1 ').toLowerCase();
    const again = await api.post(accountsOf(customerId), ibanAccount({ iban: { bic: 'DEUTDEFFXXX', iban_number: printed } }), idempotencyKey());
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('external_account_exists');

    // An off-ramp to the registered account: its copy is sealed too; the creation answer shows it, reads mask it.
    const quote = await offramp(customerId, { destination_external_account_id: accountId });
    expect(quote.transfer.destination_bank_account.iban.iban_number).toBe(iban);
    const transferId = quote.transfer_id as string;
    const [copy] = await t.sql<{ destination_number: string }>('select destination_number from transfers where id = ?', [transferId]);
    expect(copy!.destination_number).toMatch(/^v1:/);
    expect(await rowText('transfers', transferId)).not.toContain(iban);
    const read = await api.get(`/v0/customers/${customerId}/offramp-transfer/${transferId}`);
    expect(read.body.destination_bank_account.iban).toEqual({ bic: 'DEUTDEFFXXX', iban_number: masked(iban) });
    const listed = await api.get(`/v0/customers/${customerId}/offramp-transfer`);
    expect(listed.body.items.find((x: { id: string }) => x.id === transferId).destination_bank_account.iban.iban_number).toBe(masked(iban));

    // The payout alone opens it: the bank is handed the full number.
    const paid = vi.spyOn(sandboxBank, 'payOut');
    const settled = await payOut(customerId, transferId);
    expect(settled.body.status).toBe('completed');
    expect(paid).toHaveBeenCalledTimes(1);
    expect(paid.mock.calls[0]![0]).toMatchObject({ transferId, accountType: 'iban', accountNumber: iban, bic: 'DEUTDEFFXXX', holderName: 'Ada Lovelace' });
  });

  it('seals an inline payout account the same way, shown in full by the answer that creates it only', async () => {
    const customerId = await createCustomer(api);
    const iban = freshIban();
    const quote = await offramp(customerId, { destination_bank_account: ibanAccount({ iban: { bic: 'DEUTDEFFXXX', iban_number: iban } }) });
    expect(quote.transfer.destination_bank_account.iban.iban_number).toBe(iban);
    expect(await rowText('transfers', quote.transfer_id)).not.toContain(iban);
    const read = await api.get(`/v0/customers/${customerId}/offramp-transfer/${quote.transfer_id}`);
    expect(read.body.destination_bank_account.iban.iban_number).toBe(masked(iban));
    const gql = await api.graphql('query ($id: ID!) { transfer(id: $id) { ... on OfframpTransfer { destinationBankAccount { accountNumberMasked } } } }', {
      id: quote.transfer_id,
    });
    expect(gql.body.data.transfer.destinationBankAccount.accountNumberMasked).toBe(masked(iban));
  });

  it('reads rows stored in clear before encryption, pays out to them, and seals them at the next job run', async () => {
    const customerId = await createCustomer(api);
    const iban = freshIban();
    const created = await api.post(accountsOf(customerId), ibanAccount({ iban: { bic: 'DEUTDEFFXXX', iban_number: iban } }), idempotencyKey());
    const accountId = created.body.external_account_id as string;
    const quote = await offramp(customerId, { destination_external_account_id: accountId });
    const transferId = quote.transfer_id as string;
    // As a row from before encryption at rest: the numbers in clear, no hidden copy, digest or sealed number.
    await t.sql('update external_accounts set iban_number = ?, hidden_number = null, number_digest = null where id = ?', [iban, accountId]);
    const clear = { ...quote.transfer.destination_bank_account, iban: { bic: 'DEUTDEFFXXX', iban_number: iban } };
    await t.sql('update transfers set destination_bank_account = ?::jsonb, destination_number = null where id = ?', [JSON.stringify(clear), transferId]);

    // Read as before, in either form.
    expect((await api.get(`${accountsOf(customerId)}/${accountId}`)).body.iban.iban_number).toBe(masked(iban));
    expect((await api.get(`/v0/customers/${customerId}/offramp-transfer/${transferId}`)).body.destination_bank_account.iban.iban_number).toBe(masked(iban));

    // Registered again while the older row is in clear (its digest not made yet): the job must not trip on the pair.
    const twin = await api.post(accountsOf(customerId), ibanAccount({ iban: { bic: 'DEUTDEFFXXX', iban_number: iban } }), idempotencyKey());
    expect(twin.status).toBe(201);

    await t.ramp.jobs.runOnce();
    const [account] = await t.sql<{ iban_number: string; hidden_number: string; number_digest: string | null }>(
      'select iban_number, hidden_number, number_digest from external_accounts where id = ?',
      [accountId],
    );
    expect(account).toMatchObject({ iban_number: expect.stringMatching(/^v1:/), hidden_number: expect.stringContaining(iban.slice(-4)) });
    // The older twin is sealed without a digest (the newer one holds it).
    expect(account!.number_digest).toBeNull();
    expect(await rowText('external_accounts', accountId)).not.toContain(iban);
    expect(await rowText('transfers', transferId)).not.toContain(iban);
    expect((await api.get(`${accountsOf(customerId)}/${accountId}`)).body.iban.iban_number).toBe(masked(iban));
    // The digest the job gave it refuses the same account again.
    const again = await api.post(accountsOf(customerId), ibanAccount({ iban: { bic: 'DEUTDEFFXXX', iban_number: iban } }), idempotencyKey());
    expect(again.body.code).toBe('external_account_exists');
    const paid = vi.spyOn(sandboxBank, 'payOut');
    expect((await payOut(customerId, transferId)).body.status).toBe('completed');
    expect(paid.mock.calls[0]![0]).toMatchObject({ transferId, accountNumber: iban });
  });

  it('a payout to an off-ramp stored in clear (before the job ran) gets the number as stored', async () => {
    const customerId = await createCustomer(api);
    const iban = freshIban();
    const quote = await offramp(customerId, { destination_bank_account: ibanAccount({ iban: { bic: 'DEUTDEFFXXX', iban_number: iban } }) });
    const clear = { ...quote.transfer.destination_bank_account, iban: { bic: 'DEUTDEFFXXX', iban_number: iban } };
    await t.sql('update transfers set destination_bank_account = ?::jsonb, destination_number = null where id = ?', [JSON.stringify(clear), quote.transfer_id]);
    const paid = vi.spyOn(sandboxBank, 'payOut');
    expect((await payOut(customerId, quote.transfer_id)).body.status).toBe('completed');
    expect(paid.mock.calls[0]![0]).toMatchObject({ accountNumber: iban });
  });
});

const UPDATE = `mutation ($input: UpdateCustomerInput!) { updateCustomer(input: $input) { __typename ... on Error { code } } }`;
const ADD = `mutation ($input: AddBankAccountInput!) { addBankAccount(input: $input) { __typename ... on Error { code } } }`;

describe('a redacted customer', () => {
  it('takes no update, KYC, quote, transfer, bank or virtual account: 409 customer_redacted, in both faces', async () => {
    const customerId = await createCustomer(api);
    // A quote priced before the erasure cannot be accepted after it.
    const bare = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote`, onrampQuoteBody());
    expect(bare.status).toBe(201);
    const bareOfframp = await api.post(`/v0/customers/${customerId}/offramp-transfer/quote`, offrampQuoteBody(), idempotencyKey());
    expect(bareOfframp.status).toBe(201);
    expect((await api.post(`/v0/customers/${customerId}/redact`)).status).toBe(200);

    const refusals = [
      await api.put(`/v0/customers/${customerId}`, { first_name: 'Ada' }),
      await api.post(`/v0/customers/${customerId}/kycs`, {}),
      await api.post(`/v0/customers/${customerId}/kycs/simulate`, { action: 'approve_kyc' }),
      await api.post(`/v0/customers/${customerId}/onramp-transfer/quote`, onrampQuoteBody()),
      await api.post(`/v0/customers/${customerId}/offramp-transfer/quote`, offrampQuoteBody(), idempotencyKey()),
      await api.post(`/v0/customers/${customerId}/onramp-transfer/quote/${bare.body.quote_id}`, { destination_address: wallet() }),
      await api.post(
        `/v0/customers/${customerId}/offramp-transfer/quote/${bareOfframp.body.quote_id}`,
        { destination_bank_account: ibanAccount({ iban: { bic: 'DEUTDEFFXXX', iban_number: freshIban() } }), transfer_purpose: 'travel' },
        idempotencyKey(),
      ),
      await api.post(accountsOf(customerId), ibanAccount({ iban: { bic: 'DEUTDEFFXXX', iban_number: freshIban() } }), idempotencyKey()),
      await api.post(`/v0/customers/${customerId}/virtual-account`, { source_currency: 'eur', destination_token: 'usdc', destination_network: 'polygon' }),
    ];
    expect(refusals.map((r) => [r.status, r.body.code])).toEqual(refusals.map(() => [409, 'customer_redacted']));

    const update = await api.graphql(UPDATE, { input: { customerId, firstName: 'Ada' } });
    expect(update.body.data.updateCustomer).toEqual({ __typename: 'ConflictError', code: 'CUSTOMER_REDACTED' });
    const decided = await api.graphql(
      `mutation ($input: SimulateKycDecisionInput!) { simulateKycDecision(input: $input) { __typename ... on Error { code } } }`,
      { input: { customerId, decision: 'APPROVED' } },
    );
    expect(decided.body.data.simulateKycDecision).toEqual({ __typename: 'ConflictError', code: 'CUSTOMER_REDACTED' });
    const add = await api.graphql(ADD, {
      input: {
        customerId,
        bankName: 'Deutsche Bank',
        accountHolderType: 'INDIVIDUAL',
        accountHolderFirstName: 'Ada',
        accountHolderLastName: 'Lovelace',
        accountHolderAddress: { country: 'DE', city: 'Berlin', streetLine1: 'Unter den Linden 1', postalCode: '10117' },
        accountType: 'IBAN',
        iban: { bic: 'DEUTDEFFXXX', ibanNumber: freshIban() },
      },
    });
    expect(add.body.data.addBankAccount).toEqual({ __typename: 'ConflictError', code: 'CUSTOMER_REDACTED' });
    expect(await t.sql('select id from transfers where customer_id = ?', [customerId])).toEqual([]);
    expect(await t.sql('select id from external_accounts where customer_id = ?', [customerId])).toEqual([]);
  });

  it('never has a transfer in flight: an erasure and a transfer of the same customer, started together, serialize', async () => {
    for (let round = 0; round < 8; round++) {
      const customerId = await createCustomer(api);
      const quote = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote`, onrampQuoteBody());
      const [erasure, transfer] = await Promise.all([
        api.post(`/v0/customers/${customerId}/redact`),
        api.post(`/v0/customers/${customerId}/onramp-transfer/quote/${quote.body.quote_id}`, { destination_address: wallet() }),
      ]);
      // One of the two went first, and the other saw it.
      const outcome = [erasure.status, erasure.body.code ?? null, transfer.status, transfer.body.code ?? null];
      expect([
        [200, null, 409, 'customer_redacted'],
        [409, 'customer_has_transfers_in_flight', 201, null],
      ]).toContainEqual(outcome);
    }
    const inFlight = await t.sql(
      `select t.id from transfers t join customers c on c.id = t.customer_id where c.redacted_at is not null and t.status in ('pending', 'processing')`,
    );
    expect(inFlight).toEqual([]);
  });
});
