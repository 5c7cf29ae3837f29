import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient, TestRamp } from '../support/ramp.js';
import { createCustomer, onrampQuoteBody, useTransferFixture, wallet } from '../support/data/transfers.js';

/** The REST sandbox simulations (docs/api/sandbox.md "Sandbox settlement"): KYC steps, and deposits of another amount than quoted. */

const fixture = useTransferFixture({ platformFeeBps: 50 });
let t: TestRamp;
let api: ApiClient;
let customerId: string;
beforeAll(() => {
  ({ t, api, customerId } = fixture);
});

const onrampPath = `/v0/customers/:id/onramp-transfer`;
const pathOf = (customer = customerId) => onrampPath.replace(':id', customer);

/** A pending on-ramp of 100.00 EUR (fees 0.50 + 1.00 + 0.05). */
async function pendingOnramp() {
  const quote = await api.post(`${pathOf()}/quote`, onrampQuoteBody());
  const res = await api.post(`${pathOf()}/quote/${quote.body.quote_id}`, { destination_address: wallet() });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}
const simulate = (body: Record<string, unknown>, client = api, customer = customerId) => client.post(`${pathOf(customer)}/simulate`, body);
const deposit = (id: string, amount?: string) => simulate({ action: 'fiat_deposit', transfer_id: id, ...(amount !== undefined && { amount }) });
/** Each ledger line of a transfer, as `movement account amount`. */
const postingsOf = async (id: string) =>
  (
    await t.sql<{ movement: string; account: string; amount: string }>(
      `select movement, account, trim_scale(amount)::text as amount from ledger_entries where transfer_id = ? order by id`,
      [id],
    )
  ).map((p) => `${p.movement} ${p.account} ${p.amount}`);
/** What is still held for the customer in EUR because of this transfer (0 once paid out or returned). */
const heldFor = async (id: string) =>
  (
    await t.sql<{ held: string }>(
      `select trim_scale(coalesce(-sum(amount), 0))::text as held from ledger_entries where transfer_id = ? and account = 'customer_funds' and currency = 'eur'`,
      [id],
    )
  )[0]!.held;
const historyOf = async (id: string) =>
  (await t.sql<{ to_status: string; reason: string }>('select to_status, reason from transfer_status_history where transfer_id = ? order by id', [id])).map(
    (h) => `${h.to_status}:${h.reason}`,
  );

describe('fiat_deposit with an amount', () => {
  it('takes the deposit amount, sent explicitly, as an exact payment: processing', async () => {
    const transfer = await pendingOnramp();
    const res = await deposit(transfer.id, '100.00');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'processing', deposit_received_amount: '100.00', failure_reason: null });
    expect(await postingsOf(transfer.id)).toEqual(['deposit bank 100', 'deposit customer_funds -100']);
  });

  it('converts the quoted amount of an overpayment and sends the excess straight back, in the same transaction', async () => {
    const transfer = await pendingOnramp();
    const res = await deposit(transfer.id, '120.5');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'processing',
      deposit_received_amount: '120.50',
      quote: { deposit_amount: '100.00' },
      destination_amount: '106.326000',
    });
    expect(await postingsOf(transfer.id)).toEqual([
      'deposit bank 120.5',
      'deposit customer_funds -120.5',
      'excess_return customer_funds 20.5',
      'excess_return bank -20.5',
    ]);
    expect(await heldFor(transfer.id)).toBe('100');
    const [event] = await t.sql<{ payload: any }>(
      `select payload from events where entity_id = ? and type = 'onramp_transfer.status.updated' order by cursor`,
      [transfer.id],
    );
    expect(event!.payload).toMatchObject({ status: 'processing', deposit_received_amount: '120.50' });

    const completed = await simulate({ action: 'complete_transfer', transfer_id: transfer.id });
    expect(completed.body).toMatchObject({ status: 'completed', destination_amount: '106.326000' });
    expect(await heldFor(transfer.id)).toBe('0');
  });

  it('refunds the deposit amount of an overpaid transfer, the excess having gone back already', async () => {
    const transfer = await pendingOnramp();
    await deposit(transfer.id, '150.00');
    expect((await simulate({ action: 'refund_transfer', transfer_id: transfer.id })).body.status).toBe('refunded');
    expect((await postingsOf(transfer.id)).filter((p) => p.startsWith('refund'))).toEqual(['refund customer_funds 100', 'refund bank -100']);
    expect(await heldFor(transfer.id)).toBe('0');
  });

  it('fails an underpaid transfer (underpaid), holding what arrived, which a refund returns in full', async () => {
    const transfer = await pendingOnramp();
    const res = await deposit(transfer.id, '60.00');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'failed', failure_reason: 'underpaid', deposit_received_amount: '60.00' });
    expect(await historyOf(transfer.id)).toEqual(['pending:transfer_created', 'failed:underpaid']);
    expect(await postingsOf(transfer.id)).toEqual(['deposit bank 60', 'deposit customer_funds -60']);
    expect(await heldFor(transfer.id)).toBe('60');

    // Nothing converts: the quote priced 100.00.
    const settle = await simulate({ action: 'complete_transfer', transfer_id: transfer.id });
    expect(settle.status).toBe(409);
    expect(settle.body.code).toBe('transfer_transition_not_allowed');

    const refunded = await simulate({ action: 'refund_transfer', transfer_id: transfer.id });
    expect(refunded.body).toMatchObject({ status: 'refunded', deposit_received_amount: '60.00' });
    expect((await postingsOf(transfer.id)).slice(2)).toEqual(['refund customer_funds 60', 'refund bank -60']);
    expect(await heldFor(transfer.id)).toBe('0');
  });

  it('checks the amount like any fiat amount, naming /amount, and moves nothing', async () => {
    const transfer = await pendingOnramp();
    for (const [amount, code] of [
      ['100.001', 'too_many_decimals'],
      ['0', 'not_positive'],
      ['-5', 'not_positive'],
      ['1e3', 'invalid_decimal'],
      ['lots', 'invalid_decimal'],
    ]) {
      const res = await deposit(transfer.id, amount!);
      expect(res.status, amount).toBe(400);
      expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '/amount', code })]);
    }
    const number = await simulate({ action: 'fiat_deposit', transfer_id: transfer.id, amount: 100 });
    expect(number.status).toBe(400);
    expect(number.body.errors).toEqual([expect.objectContaining({ pointer: '/amount' })]);
    expect((await api.get(`${pathOf()}/${transfer.id}`)).body.status).toBe('pending');
  });

  it('refuses an amount with another action (400 not_allowed), and a second deposit (409)', async () => {
    const transfer = await pendingOnramp();
    const withSettle = await simulate({ action: 'complete_transfer', transfer_id: transfer.id, amount: '100.00' });
    expect(withSettle.status).toBe(400);
    expect(withSettle.body.errors).toEqual([expect.objectContaining({ pointer: '/amount', code: 'not_allowed' })]);
    await deposit(transfer.id, '100.00');
    for (const amount of ['100.00', '10.00', undefined]) {
      const again = await deposit(transfer.id, amount);
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('transfer_transition_not_allowed');
    }
    expect(await postingsOf(transfer.id)).toHaveLength(2);
  });

  it('mirrors the amount in GraphQL simulateFiatDeposit', async () => {
    const DEPOSIT = `mutation($id: ID!, $amount: Decimal) { simulateFiatDeposit(input: { transferId: $id, amount: $amount }) {
      __typename
      ... on SimulateFiatDepositPayload { transfer { status failureReason ... on OnrampTransfer { depositReceivedAmount } } }
      ... on ValidationError { fieldErrors { path code } } } }`;
    const under = await pendingOnramp();
    expect((await api.graphql(DEPOSIT, { id: under.id, amount: '99.99' })).body.data.simulateFiatDeposit.transfer).toEqual({
      status: 'FAILED',
      failureReason: 'underpaid',
      depositReceivedAmount: '99.99',
    });
    const over = await pendingOnramp();
    expect((await api.graphql(DEPOSIT, { id: over.id, amount: '100.01' })).body.data.simulateFiatDeposit.transfer).toEqual({
      status: 'PROCESSING',
      failureReason: null,
      depositReceivedAmount: '100.01',
    });
    const exact = await pendingOnramp();
    expect((await api.graphql(DEPOSIT, { id: exact.id })).body.data.simulateFiatDeposit.transfer.depositReceivedAmount).toBe('100.00');
    const invalid = await pendingOnramp();
    expect((await api.graphql(DEPOSIT, { id: invalid.id, amount: '1.001' })).body.data.simulateFiatDeposit).toEqual({
      __typename: 'ValidationError',
      fieldErrors: [{ path: '/amount', code: 'too_many_decimals' }],
    });
  });
});

describe('POST …/offramp-transfer/simulate', () => {
  it('refuses fiat_deposit as the document says (an off-ramp is funded on chain, by crypto_deposit): 400 on /action', async () => {
    const res = await api.post(`/v0/customers/${customerId}/offramp-transfer/simulate`, {
      action: 'fiat_deposit',
      transfer_id: randomUUID(),
      amount: '10.00',
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { pointer: string; code: string }) => `${e.pointer} ${e.code}`)).toEqual(['/action invalid_enum_value']);
  });

  it('refuses crypto_deposit on an on-ramp as the document says (its deposit is fiat): 400 on /action', async () => {
    const res = await api.post(`/v0/customers/${customerId}/onramp-transfer/simulate`, { action: 'crypto_deposit', transfer_id: randomUUID() });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { pointer: string; code: string }) => `${e.pointer} ${e.code}`)).toEqual(['/action invalid_enum_value']);
  });
});

describe('POST /v0/customers/{customer_id}/kycs/simulate', () => {
  const kycSimulate = (id: string, body: unknown, client = api) => client.post(`/v0/customers/${id}/kycs/simulate`, body);
  const kycEvents = async (id: string) => (await t.sql(`select 1 from events where entity_id = ? and type = 'customer.kycs.updated'`, [id])).length;

  it('submits, then approves: 200 with the customer, one customer.kycs.updated per step', async () => {
    const id = await createCustomer(api, { approved: false });
    const submitted = await kycSimulate(id, { action: 'submit_kyc' });
    expect(submitted.status).toBe(200);
    expect(submitted.body).toMatchObject({ customer_id: id, kycs: { status: 'in_review', sub_status: 'kyc_form_submitted' } });
    const approved = await kycSimulate(id, { action: 'approve_kyc' });
    expect(approved.body.kycs).toMatchObject({ status: 'approved', sub_status: 'kyc_approved' });
    expect(approved.body.kycs.status_breakdown.every((r: any) => r.status === 'approved')).toBe(true);
    expect(await kycEvents(id)).toBe(2);
  });

  it('walks the steps the table allows to a decision, and refuses what it forbids with 409', async () => {
    const id = await createCustomer(api, { approved: false });
    expect((await kycSimulate(id, { action: 'reject_kyc' })).body.kycs.status).toBe('rejected');
    // A resubmission, then nothing to submit twice.
    expect((await kycSimulate(id, { action: 'submit_kyc' })).body.kycs.status).toBe('in_review');
    expect((await kycSimulate(id, { action: 'submit_kyc' })).status).toBe(409);
    expect((await kycSimulate(id, { action: 'approve_kyc' })).body.kycs.status).toBe('approved');
    const downgrade = await kycSimulate(id, { action: 'reject_kyc' });
    expect(downgrade.status).toBe(409);
    expect(downgrade.body.code).toBe('kyc_transition_not_allowed');
  });

  it('answers 400 for an unknown action and 404 for an unknown customer', async () => {
    const id = await createCustomer(api, { approved: false });
    const unknown = await kycSimulate(id, { action: 'approve' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([expect.objectContaining({ pointer: '/action' })]);
    expect((await kycSimulate(randomUUID(), { action: 'submit_kyc' })).status).toBe(404);
    expect((await kycSimulate('not-a-uuid', { action: 'submit_kyc' })).status).toBe(404);
  });

  it('leaves the KYC links route beside it as it is', async () => {
    const id = await createCustomer(api, { approved: false });
    const link = await api.post(`/v0/customers/${id}/kycs`, {});
    expect(link.status).toBe(201);
    expect(link.body.kycs.kyc_flow_link).toContain(`/sandbox/kyc/${id}`);
  });
});

describe('every REST simulation with a production key', () => {
  it('answers 403 sandbox_only, checked before the body', async () => {
    const production = t.client(await t.keyFor('Simulating In Production', 'production'));
    const customer = await production.post('/v0/customers', { email: `prod-${randomUUID()}@example.com`, type: 'individual', first_name: 'P', last_name: 'Q' });
    expect(customer.status).toBe(201);
    const id = customer.body.customer_id;
    const calls: Array<[string, unknown]> = [
      [`/v0/customers/${id}/kycs/simulate`, { action: 'approve_kyc' }],
      [`/v0/customers/${id}/kycs/simulate`, { action: 'nonsense' }],
      [`/v0/customers/${id}/onramp-transfer/simulate`, { action: 'fiat_deposit', transfer_id: randomUUID(), amount: '10.00' }],
      [`/v0/customers/${id}/onramp-transfer/simulate`, { action: 'complete_transfer', transfer_id: randomUUID() }],
      [`/v0/customers/${id}/offramp-transfer/simulate`, { action: 'refund_transfer', transfer_id: randomUUID() }],
      [`/v0/customers/${id}/offramp-transfer/simulate`, {}],
      [`/v0/customers/${id}/virtual-account/${randomUUID()}/simulate`, { action: 'fiat_deposit', amount: '10.00' }],
      [`/v0/customers/${id}/virtual-account/simulate`, { action: 'issue_pending_virtual_account', virtual_account_id: randomUUID() }],
    ];
    for (const [path, body] of calls) {
      const res = await production.post(path, body);
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(403);
      expect(res.body.code).toBe('sandbox_only');
    }
    expect((await production.get(`/v0/customers/${id}`)).body.kycs.status).toBe('not_started');
  });
});
