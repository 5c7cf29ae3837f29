import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';
import { ibanAccount, idempotencyKey, ledgerSums, offrampQuoteBody, onrampQuoteBody, txHash, wallet } from '../support/data/transfers.js';

/**
 * A partner who only speaks REST (the spec's /v0 and the sandbox's …/simulate extensions) drives
 * every step from a new customer to completed transfers and a refund: no GraphQL call at all.
 */

let t: TestRamp;
let rest: ApiClient;

beforeAll(async () => {
  t = await startRamp();
  const client = t.client(await t.keyFor('REST Only Partner'));
  rest = {
    ...client,
    graphql: () => {
      throw new Error('a REST-only integration makes no GraphQL call');
    },
  };
});
afterAll(() => t.close());

const customerPath = (id: string) => `/v0/customers/${id}`;

async function ok<T = any>(response: Promise<{ status: number; body: T }>, status: number): Promise<T> {
  const res = await response;
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
}

async function approvedCustomer(): Promise<string> {
  const created = await ok(
    rest.post('/v0/customers', { email: `rest-${randomUUID()}@example.com`, type: 'individual', first_name: 'Rest', last_name: 'Only' }),
    201,
  );
  const id = created.customer_id as string;
  const submitted = await ok(rest.post(`${customerPath(id)}/kycs/simulate`, { action: 'submit_kyc' }), 200);
  expect(submitted.kycs).toMatchObject({ status: 'in_review', sub_status: 'kyc_form_submitted' });
  const approved = await ok(rest.post(`${customerPath(id)}/kycs/simulate`, { action: 'approve_kyc' }), 200);
  expect(approved).toMatchObject({ customer_id: id, kycs: { status: 'approved', sub_status: 'kyc_approved' } });
  return id;
}

async function pendingOnramp(customerId: string) {
  const quote = await ok(rest.post(`${customerPath(customerId)}/onramp-transfer/quote`, onrampQuoteBody()), 201);
  const transfer = await ok(rest.post(`${customerPath(customerId)}/onramp-transfer/quote/${quote.quote_id}`, { destination_address: wallet() }), 201);
  expect(transfer.status).toBe('pending');
  return transfer;
}

const simulate = (customerId: string, direction: 'onramp' | 'offramp', body: Record<string, unknown>) =>
  ok(rest.post(`${customerPath(customerId)}/${direction}-transfer/simulate`, body), 200);

describe('a REST-only integration', () => {
  it('approves a new customer, then takes an on-ramp and an off-ramp to completed and refunds another, without GraphQL', async () => {
    const customerId = await approvedCustomer();

    // On-ramp: quote, transfer, the fiat arrives, the tokens leave.
    const onramp = await pendingOnramp(customerId);
    const funded = await simulate(customerId, 'onramp', { action: 'fiat_deposit', transfer_id: onramp.id });
    expect(funded).toMatchObject({ status: 'processing', deposit_received_amount: onramp.quote.deposit_amount });
    const delivered = await simulate(customerId, 'onramp', { action: 'complete_transfer', transfer_id: onramp.id });
    expect(delivered.status).toBe('completed');
    expect(delivered.destination_transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await ok(rest.get(`${customerPath(customerId)}/onramp-transfer/${onramp.id}`), 200)).status).toBe('completed');

    // Off-ramp: quote with its payout account (the transfer comes with it), the tokens arrive, the fiat leaves.
    const quote = await ok(
      rest.post(
        `${customerPath(customerId)}/offramp-transfer/quote`,
        offrampQuoteBody({ destination_bank_account: ibanAccount(), transfer_purpose: 'salaries' }),
        idempotencyKey(),
      ),
      201,
    );
    const offrampId = quote.transfer.id as string;
    expect(quote.transfer.status).toBe('pending');
    const sent = await ok(
      rest.post(`${customerPath(customerId)}/offramp-transfer/${offrampId}/complete`, { deposit_transaction_hash: txHash() }, idempotencyKey()),
      200,
    );
    expect(sent.status).toBe('processing');
    expect((await simulate(customerId, 'offramp', { action: 'complete_transfer', transfer_id: offrampId })).status).toBe('completed');
    expect((await ok(rest.get(`${customerPath(customerId)}/offramp-transfer/${offrampId}`), 200)).status).toBe('completed');

    // A refund: the fiat arrived, then went back.
    const refunded = await pendingOnramp(customerId);
    await simulate(customerId, 'onramp', { action: 'fiat_deposit', transfer_id: refunded.id });
    expect((await simulate(customerId, 'onramp', { action: 'refund_transfer', transfer_id: refunded.id })).status).toBe('refunded');

    // A failure, then the refund of what was held.
    const failed = await pendingOnramp(customerId);
    await simulate(customerId, 'onramp', { action: 'fiat_deposit', transfer_id: failed.id });
    expect(await simulate(customerId, 'onramp', { action: 'fail_transfer', transfer_id: failed.id, reason: 'compliance_hold' })).toMatchObject({
      status: 'failed',
      failure_reason: 'compliance_hold',
    });
    expect((await simulate(customerId, 'onramp', { action: 'refund_transfer', transfer_id: failed.id })).status).toBe('refunded');

    // Every move was announced, and the partner reads them over REST too.
    const events = await ok(rest.get('/v0/events?limit=100'), 200);
    const onrampStatuses = events.items
      .filter((e: any) => e.entity_id === onramp.id && e.event_type === 'onramp_transfer.status.updated')
      .map((e: any) => e.event_payload.status);
    expect(onrampStatuses).toEqual(['processing', 'completed']);
    const offrampStatuses = events.items
      .filter((e: any) => e.entity_id === offrampId && e.event_type === 'offramp_transfer.status.updated')
      .map((e: any) => e.event_payload.status);
    expect(offrampStatuses).toEqual(['processing', 'completed']);
    expect(Object.values(await ledgerSums(t)).every((sum) => Number(sum) === 0)).toBe(true);
  });

  it('funds an on-ramp through a virtual account deposit and completes it, without GraphQL', async () => {
    const customerId = await approvedCustomer();
    const account = await ok(
      rest.post(`${customerPath(customerId)}/virtual-account`, { source_currency: 'eur', destination_network: 'polygon', destination_address: wallet() }),
      201,
    );
    expect(account.status).toBe('active');
    const deposit = await ok(
      rest.post(`${customerPath(customerId)}/virtual-account/${account.virtual_account_id}/simulate`, { action: 'fiat_deposit', amount: '250.00' }),
      201,
    );
    expect(deposit).toMatchObject({
      status: 'processing',
      virtual_account_id: account.virtual_account_id,
      amount: '250.00',
      deposit_received_amount: '250.00',
    });
    expect((await simulate(customerId, 'onramp', { action: 'complete_transfer', transfer_id: deposit.id })).status).toBe('completed');
  });

  it('rejects a customer over REST, who then cannot be quoted', async () => {
    const created = await ok(
      rest.post('/v0/customers', { email: `rest-${randomUUID()}@example.com`, type: 'individual', first_name: 'No', last_name: 'Way' }),
      201,
    );
    const rejected = await ok(rest.post(`${customerPath(created.customer_id)}/kycs/simulate`, { action: 'reject_kyc' }), 200);
    expect(rejected.kycs).toMatchObject({ status: 'rejected', sub_status: 'kyc_rejected' });
    const quote = await rest.post(`${customerPath(created.customer_id)}/onramp-transfer/quote`, onrampQuoteBody());
    expect(quote.status).toBe(422);
    expect(quote.body.code).toBe('kyc_not_approved');
  });
});
