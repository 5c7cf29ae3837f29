import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxTransactionHash } from '../../src/domain/identifiers/chain.js';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';
import {
  ageTransfer,
  createCustomer,
  ibanAccount,
  idempotencyKey,
  ledgerSums,
  offrampQuoteBody,
  onrampQuoteBody,
  txHash,
  useTransferFixture,
  wallet,
} from '../support/data/transfers.js';

const fixture = useTransferFixture({ platformFeeBps: 50 });
let t: TestRamp;
let api: ApiClient;
let customerId: string;
beforeAll(() => {
  ({ t, api, customerId } = fixture);
});

const onrampPath = (customer = customerId) => `/v0/customers/${customer}/onramp-transfer`;
const offrampPath = (customer = customerId) => `/v0/customers/${customer}/offramp-transfer`;

async function pendingOnramp(customer = customerId, overrides: Record<string, unknown> = {}) {
  const quote = await api.post(`${onrampPath(customer)}/quote`, onrampQuoteBody(overrides));
  const res = await api.post(`${onrampPath(customer)}/quote/${quote.body.quote_id}`, { destination_address: wallet() });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}
async function pendingOfframp(customer = customerId) {
  const quote = await api.post(
    `${offrampPath(customer)}/quote`,
    offrampQuoteBody({ destination_bank_account: ibanAccount(), transfer_purpose: 'salaries' }),
    idempotencyKey(),
  );
  expect(quote.status, JSON.stringify(quote.body)).toBe(201);
  return (await api.get(`${offrampPath(customer)}/${quote.body.transfer_id}`)).body;
}
const simulate = (direction: 'onramp' | 'offramp', body: Record<string, unknown>, client = api, customer = customerId) =>
  client.post(`/v0/customers/${customer}/${direction}-transfer/simulate`, body);
const eventsOf = (id: string) => t.sql<{ type: string; payload: any }>('select type, payload from events where entity_id = ? order by cursor', [id]);
const postingsOf = (id: string) =>
  t.sql<{ movement: string; account: string; currency: string; amount: string }>(
    'select movement, account, currency, amount::text as amount from ledger_entries where transfer_id = ? order by id',
    [id],
  );
const reserved = async (client = api) => {
  const { info } = (await client.get('/v1/partners/accountInfo')).body;
  return { fiat: info.reserved_fiat, crypto: info.reserved_crypto, threshold: info.crypto_threshold };
};

describe('REST sandbox settlement of an on-ramp', () => {
  it('walks pending → processing → completed, posting deposit, fees, conversion and payout', async () => {
    const created = await pendingOnramp();
    const deposited = await simulate('onramp', { action: 'fiat_deposit', transfer_id: created.id });
    expect(deposited.status).toBe(200);
    expect(deposited.body).toMatchObject({ id: created.id, status: 'processing' });

    const settled = await simulate('onramp', { action: 'complete_transfer', transfer_id: created.id });
    expect(settled.status).toBe(200);
    expect(settled.body).toMatchObject({ status: 'completed', destination_transaction_hash: sandboxTransactionHash('polygon', created.id) });
    expect((await api.get(`${onrampPath()}/${created.id}`)).body).toEqual(settled.body);

    expect((await eventsOf(created.id)).map((e) => [e.type, e.payload.status])).toEqual([
      ['onramp_transfer.created', 'pending'],
      ['onramp_transfer.status.updated', 'processing'],
      ['onramp_transfer.status.updated', 'completed'],
    ]);
    const history = await t.sql('select from_status, to_status, reason from transfer_status_history where transfer_id = ? order by id', [created.id]);
    expect(history).toEqual([
      { from_status: null, to_status: 'pending', reason: 'transfer_created' },
      { from_status: 'pending', to_status: 'processing', reason: 'fiat_deposit_received' },
      { from_status: 'processing', to_status: 'completed', reason: 'settled' },
    ]);
    const n = (s: string) => Number(s); // readability only: compared to literals, never used for money maths
    expect((await postingsOf(created.id)).map((p) => [p.movement, p.account, p.currency, n(p.amount)])).toEqual([
      ['deposit', 'bank', 'eur', 100],
      ['deposit', 'customer_funds', 'eur', -100],
      ['fees', 'customer_funds', 'eur', 1.55],
      ['fees', 'platform_fees', 'eur', -0.5],
      ['fees', 'developer_fees', 'eur', -1],
      ['fees', 'network_fees', 'eur', -0.05],
      ['conversion', 'customer_funds', 'eur', 98.45],
      ['conversion', 'conversion', 'eur', -98.45],
      ['conversion', 'conversion', 'usdc', 106.326],
      ['conversion', 'customer_funds', 'usdc', -106.326],
      ['payout', 'customer_funds', 'usdc', 106.326],
      ['payout', 'wallet', 'usdc', -106.326],
    ]);
    expect(Object.values(await ledgerSums(t)).every((sum) => Number(sum) === 0)).toBe(true);
  });

  it('holds the deposit in reserved_fiat of accountInfo until it settles', async () => {
    const partner = t.client(await t.keyFor('Balance Partner'));
    const customer = await createCustomer(partner);
    const quote = await partner.post(
      `${onrampPath(customer)}/quote`,
      onrampQuoteBody({ source_amount: '250.00', source_currency: 'usd', source_payment_rails: 'wire' }),
    );
    const transfer = (await partner.post(`${onrampPath(customer)}/quote/${quote.body.quote_id}`, { destination_address: wallet() })).body;
    expect((await reserved(partner)).fiat).toContainEqual({ currency: 'usd', balance: '0.00' });
    await simulate('onramp', { action: 'fiat_deposit', transfer_id: transfer.id }, partner, customer);
    expect((await reserved(partner)).fiat).toContainEqual({ currency: 'usd', balance: '250.00' });
    await simulate('onramp', { action: 'complete_transfer', transfer_id: transfer.id }, partner, customer);
    expect((await reserved(partner)).fiat).toContainEqual({ currency: 'usd', balance: '0.00' });
  });

  it('fails with a reason, keeps the deposit held, then refunds it', async () => {
    const created = await pendingOnramp();
    await simulate('onramp', { action: 'fiat_deposit', transfer_id: created.id });
    const failed = await simulate('onramp', { action: 'fail_transfer', transfer_id: created.id, reason: 'compliance_hold' });
    expect(failed.body).toMatchObject({ status: 'failed', failure_reason: 'compliance_hold' });
    const refunded = await simulate('onramp', { action: 'refund_transfer', transfer_id: created.id });
    expect(refunded.status).toBe(200);
    expect(refunded.body.status).toBe('refunded');
    const refund = (await postingsOf(created.id)).filter((p) => p.movement === 'refund');
    expect(refund.map((p) => [p.account, Number(p.amount)])).toEqual([
      ['customer_funds', 100],
      ['bank', -100],
    ]);
  });

  it('answers 409 transfer_transition_not_allowed for moves the state machine refuses', async () => {
    const created = await pendingOnramp();
    const settleFirst = await simulate('onramp', { action: 'complete_transfer', transfer_id: created.id });
    expect(settleFirst.status).toBe(409);
    expect(settleFirst.body.code).toBe('transfer_transition_not_allowed');
    // Failed before any deposit: there is nothing to refund.
    await simulate('onramp', { action: 'fail_transfer', transfer_id: created.id });
    const refund = await simulate('onramp', { action: 'refund_transfer', transfer_id: created.id });
    expect(refund.status).toBe(409);
    expect(refund.body.detail).toMatch(/no funds were received/);
    expect(await postingsOf(created.id)).toEqual([]);
  });

  it('answers 400 for an unknown action and for fiat_deposit on an off-ramp, 404 for an unknown transfer', async () => {
    const created = await pendingOnramp();
    expect((await simulate('onramp', { action: 'teleport', transfer_id: created.id })).status).toBe(400);
    expect((await simulate('offramp', { action: 'fiat_deposit', transfer_id: created.id })).status).toBe(400);
    expect((await simulate('onramp', { action: 'fiat_deposit', transfer_id: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    expect((await simulate('offramp', { action: 'complete_transfer', transfer_id: created.id })).status).toBe(404);
  });

  it('answers 403 with a production key', async () => {
    const live = t.client(await t.keyFor('Live Partner', 'production'));
    const res = await simulate('onramp', { action: 'fiat_deposit', transfer_id: '00000000-0000-4000-8000-000000000000' }, live);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('sandbox_only');
  });
});

describe('REST sandbox settlement of an off-ramp', () => {
  it('walks pending → complete (processing) → completed, posting the token deposit and the fiat payout', async () => {
    const created = await pendingOfframp();
    const hash = txHash();
    expect((await api.post(`${offrampPath()}/${created.id}/complete`, { deposit_transaction_hash: hash }, idempotencyKey())).body.status).toBe('processing');
    const settled = await simulate('offramp', { action: 'complete_transfer', transfer_id: created.id });
    expect(settled.status).toBe(200);
    expect(settled.body).toMatchObject({ status: 'completed', quote: { deposit_transaction_hash: hash } });
    const postings = await postingsOf(created.id);
    expect(postings.filter((p) => p.movement === 'deposit').map((p) => [p.account, p.currency, Number(p.amount)])).toEqual([
      ['wallet', 'usdc', 100],
      ['customer_funds', 'usdc', -100],
    ]);
    expect(postings.filter((p) => p.movement === 'payout').map((p) => [p.account, p.currency, Number(p.amount)])).toEqual([
      ['customer_funds', 'eur', 91.15],
      ['bank', 'eur', -91.15],
    ]);
    expect((await eventsOf(created.id)).map((e) => e.type)).toEqual([
      'offramp_transfer.created',
      'offramp_transfer.status.updated',
      'offramp_transfer.status.updated',
    ]);
  });
});

describe('virtual account deposits', () => {
  async function virtualAccount(body: Record<string, unknown>) {
    const res = await api.post(`/v0/customers/${customerId}/virtual-account`, body);
    expect([201, 202], JSON.stringify(res.body)).toContain(res.status);
    return res.body.id as string;
  }

  it('turns a deposit into a funded on-ramp transfer to the account’s destination (REST)', async () => {
    const id = await virtualAccount({
      source_currency: 'eur',
      destination_token: 'usdc',
      destination_network: 'base',
      destination_address: wallet('base', 'va'),
      developer_fee_percent: '0.5',
    });
    const res = await api.post(`/v0/customers/${customerId}/virtual-account/${id}/simulate`, { action: 'fiat_deposit', amount: '500.00' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'processing',
      amount: '500.00',
      source_currency: 'eur',
      source_rails: 'sepa',
      destination_token: 'usdc',
      destination_network: 'base',
      destination_address: wallet('base', 'va'),
      virtual_account_id: id,
      quote: { fee_breakdown: { developer_fee: '2.50', platform_fee: '2.50' } },
    });
    expect((await eventsOf(res.body.id)).map((e) => e.type)).toEqual(['onramp_transfer.created', 'onramp_transfer.status.updated']);
  });

  it('shows the virtual account’s own numbers as the deposit account, and no deposit reference', async () => {
    const id = await virtualAccount({ source_currency: 'eur', destination_network: 'polygon', destination_address: wallet('polygon', 'va-numbers') });
    const account = (await api.get(`/v0/customers/${customerId}/virtual-account/${id}`)).body;
    const instructions = account.deposit_instructions;
    const res = await api.post(`/v0/customers/${customerId}/virtual-account/${id}/simulate`, { action: 'fiat_deposit', amount: '120.00' });
    expect(res.status).toBe(201);
    expect(res.body.quote.deposit_bank_account).toEqual({
      bank_name: instructions.bank_name,
      bank_address: instructions.bank_address,
      account_beneficiary_type: 'individual',
      account_beneficiary_name: 'Ada Lovelace',
      account_type: 'iban',
      iban: { bic: instructions.iban.bic, iban_number: instructions.iban.iban_number },
    });
    expect(res.body.quote.deposit_message).toBeNull();
    // Already funded: its deposit window closed when the money arrived.
    expect(res.body.deposit_expire_at).toBe(res.body.created_at);
    expect((await api.get(`${onrampPath()}/${res.body.id}`)).body).toEqual(res.body);
    const [created] = await eventsOf(res.body.id);
    expect(created!.payload.quote).toMatchObject({ deposit_bank_account: res.body.quote.deposit_bank_account, deposit_message: null });

    const gql = await api.graphql(
      `query ($id: ID!) { transfer(id: $id) { ... on OnrampTransfer { depositMessage depositBankAccount { accountType accountBeneficiaryName iban { bic ibanNumber } } } } }`,
      { id: res.body.id },
    );
    expect(gql.body.data.transfer).toEqual({
      depositMessage: null,
      depositBankAccount: {
        accountType: 'IBAN',
        accountBeneficiaryName: 'Ada Lovelace',
        iban: { bic: instructions.iban.bic, ibanNumber: instructions.iban.iban_number },
      },
    });
  });

  it('shows US numbers for a USD account, and SWIFT numbers for one receiving over SWIFT', async () => {
    const usd = await virtualAccount({ source_currency: 'usd', destination_network: 'base', destination_address: wallet('base', 'va-us') });
    const us = (await api.get(`/v0/customers/${customerId}/virtual-account/${usd}`)).body.deposit_instructions;
    const byAch = await api.post(`/v0/customers/${customerId}/virtual-account/${usd}/simulate`, { action: 'fiat_deposit', amount: '30' });
    expect(byAch.body.quote).toMatchObject({
      deposit_bank_account: { account_type: 'us', bank_name: us.bank_name, us: { account_number: us.us.account_number, routing_number: us.us.routing_number } },
      deposit_message: null,
    });
    expect(byAch.body.quote.deposit_bank_account).not.toHaveProperty('iban');

    const wire = await virtualAccount({
      source_currency: 'usd',
      source_rails: 'swift',
      destination_network: 'base',
      destination_address: wallet('base', 'va-swift'),
    });
    const issued = await api.post(`/v0/customers/${customerId}/virtual-account/simulate`, {
      action: 'issue_pending_virtual_account',
      virtual_account_id: wire,
    });
    expect(issued.status).toBe(201);
    const swift = issued.body.deposit_instructions.swift;
    const bySwift = await api.post(`/v0/customers/${customerId}/virtual-account/${wire}/simulate`, { action: 'fiat_deposit', amount: '30' });
    expect(bySwift.status).toBe(201);
    expect(bySwift.body.quote.deposit_bank_account).toMatchObject({ account_type: 'swift', swift });
    const gql = await api.graphql(
      `query ($id: ID!) { transfer(id: $id) { ... on OnrampTransfer { depositBankAccount { accountType swift { bic accountNumber routingNumber } } } } }`,
      {
        id: bySwift.body.id,
      },
    );
    expect(gql.body.data.transfer.depositBankAccount).toEqual({
      accountType: 'SWIFT',
      swift: { bic: swift.bic, accountNumber: swift.account_number, routingNumber: swift.routing_number },
    });
  });

  it.each([
    ['10.123', 'too_many_decimals'],
    ['ten', 'invalid_decimal'],
    ['0', 'not_positive'],
  ])('answers 400 naming /amount for the amount %s, creating nothing', async (amount, code) => {
    const id = await virtualAccount({ source_currency: 'eur', destination_network: 'polygon', destination_address: wallet('polygon', `va-amount-${code}`) });
    const res = await api.post(`/v0/customers/${customerId}/virtual-account/${id}/simulate`, { action: 'fiat_deposit', amount });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '/amount', code })]);
    expect(await t.sql('select id from transfers where virtual_account_id = ?', [id])).toEqual([]);
  });

  it('answers 422 for an account without a destination, or not yet active; 404 under another customer', async () => {
    const bare = await virtualAccount({ source_currency: 'usd', destination_network: 'polygon' });
    const noDestination = await api.post(`/v0/customers/${customerId}/virtual-account/${bare}/simulate`, { action: 'fiat_deposit', amount: '50' });
    expect(noDestination.status).toBe(422);
    expect(noDestination.body.code).toBe('virtual_account_has_no_destination');
    const pending = await virtualAccount({ source_currency: 'aed', destination_network: 'solana', destination_address: wallet('solana') });
    const inactive = await api.post(`/v0/customers/${customerId}/virtual-account/${pending}/simulate`, { action: 'fiat_deposit', amount: '50' });
    expect(inactive.status).toBe(422);
    expect(inactive.body.code).toBe('virtual_account_not_active');
    const other = await createCustomer(api);
    expect((await api.post(`/v0/customers/${other}/virtual-account/${bare}/simulate`, { action: 'fiat_deposit', amount: '50' })).status).toBe(404);
  });
});

describe('GraphQL simulations and cancel', () => {
  const TRANSFER = `... on SimulateFiatDepositPayload { transfer { databaseId status } }`;
  const run = async (mutation: string, variables: Record<string, unknown>, client = api) => {
    const res = await client.graphql(mutation, variables);
    expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
    return Object.values(res.body.data!)[0] as any;
  };

  it('settles an on-ramp with simulateFiatDeposit and simulateTransferSettlement', async () => {
    const created = await pendingOnramp();
    const deposit = await run(`mutation ($id: ID!) { simulateFiatDeposit(input: { transferId: $id }) { __typename ${TRANSFER} } }`, { id: created.id });
    expect(deposit.transfer).toEqual({ databaseId: created.id, status: 'PROCESSING' });
    const settle = await run(
      `mutation ($id: ID!) { simulateTransferSettlement(input: { transferId: $id }) { __typename ... on SimulateTransferSettlementPayload { transfer { status } } } }`,
      { id: created.id },
    );
    expect(settle.transfer.status).toBe('COMPLETED');
  });

  it('fails and refunds with simulateTransferFailure and simulateTransferRefund', async () => {
    const created = await pendingOnramp();
    await run(`mutation ($id: ID!) { simulateFiatDeposit(input: { transferId: $id }) { __typename } }`, { id: created.id });
    const failed = await run(
      `mutation ($id: ID!) { simulateTransferFailure(input: { transferId: $id, reason: "bank_rejected" }) { __typename ... on SimulateTransferFailurePayload { transfer { status failureReason } } } }`,
      { id: created.id },
    );
    expect(failed.transfer).toEqual({ status: 'FAILED', failureReason: 'bank_rejected' });
    const refunded = await run(
      `mutation ($id: ID!) { simulateTransferRefund(input: { transferId: $id }) { __typename ... on SimulateTransferRefundPayload { transfer { status } } } }`,
      { id: created.id },
    );
    expect(refunded.transfer.status).toBe('REFUNDED');
  });

  it('answers UnprocessableError for a fiat deposit on an off-ramp, ConflictError for a wrong move', async () => {
    const offramp = await pendingOfframp();
    const wrong = await run(`mutation ($id: ID!) { simulateFiatDeposit(input: { transferId: $id }) { __typename ... on Error { code } } }`, {
      id: offramp.id,
    });
    expect(wrong).toEqual({ __typename: 'UnprocessableError', code: 'NOT_AN_ONRAMP_TRANSFER' });
    const early = await run(`mutation ($id: ID!) { simulateTransferSettlement(input: { transferId: $id }) { __typename ... on Error { code } } }`, {
      id: offramp.id,
    });
    expect(early).toEqual({ __typename: 'ConflictError', code: 'TRANSFER_TRANSITION_NOT_ALLOWED' });
  });

  it('cancels a pending transfer, and refuses to cancel one that is processing', async () => {
    const pending = await pendingOnramp();
    const canceled = await run(
      `mutation ($id: ID!) { cancelTransfer(input: { transferId: $id }) { __typename ... on CancelTransferPayload { transfer { status } } } }`,
      { id: pending.id },
    );
    expect(canceled.transfer.status).toBe('CANCELED');
    expect((await api.get(`${onrampPath()}/${pending.id}`)).body.status).toBe('canceled');
    const processing = await pendingOnramp();
    await simulate('onramp', { action: 'fiat_deposit', transfer_id: processing.id });
    const refused = await run(`mutation ($id: ID!) { cancelTransfer(input: { transferId: $id }) { __typename ... on Error { code } } }`, {
      id: processing.id,
    });
    expect(refused).toEqual({ __typename: 'ConflictError', code: 'TRANSFER_TRANSITION_NOT_ALLOWED' });
  });

  it('funds a virtual account deposit with simulateVirtualAccountDeposit', async () => {
    const va = await api.post(`/v0/customers/${customerId}/virtual-account`, {
      source_currency: 'usd',
      destination_network: 'arbitrum',
      destination_address: wallet('arbitrum', 'gql'),
    });
    const res = await run(
      `mutation ($id: ID!) { simulateVirtualAccountDeposit(input: { virtualAccountId: $id, amount: "75.00" }) { __typename ... on SimulateVirtualAccountDepositPayload { transfer { status amount ... on OnrampTransfer { virtualAccount { databaseId } sourceRails destinationNetwork } } } } }`,
      { id: va.body.id },
    );
    expect(res.transfer).toEqual({
      status: 'PROCESSING',
      amount: '75.00',
      virtualAccount: { databaseId: va.body.id },
      sourceRails: 'ACH',
      destinationNetwork: 'ARBITRUM',
    });
  });

  it('answers a ValidationError on /amount for an amount with too many decimals in simulateVirtualAccountDeposit', async () => {
    const va = await api.post(`/v0/customers/${customerId}/virtual-account`, {
      source_currency: 'eur',
      destination_network: 'polygon',
      destination_address: wallet('polygon', 'gql-amount'),
    });
    const res = await run(
      `mutation ($id: ID!) { simulateVirtualAccountDeposit(input: { virtualAccountId: $id, amount: "10.123" }) { __typename ... on ValidationError { fieldErrors { path argumentPath code } } } }`,
      { id: va.body.id },
    );
    expect(res).toEqual({ __typename: 'ValidationError', fieldErrors: [{ path: '/amount', argumentPath: ['input', 'amount'], code: 'too_many_decimals' }] });
  });

  it('answers ForbiddenError to every simulation with a production key', async () => {
    const live = t.client(await t.keyFor('Live Partner', 'production'));
    const id = '00000000-0000-4000-8000-000000000000';
    for (const mutation of [
      `simulateFiatDeposit(input: { transferId: "${id}" })`,
      `simulateTransferSettlement(input: { transferId: "${id}" })`,
      `simulateTransferFailure(input: { transferId: "${id}", reason: "x" })`,
      `simulateTransferRefund(input: { transferId: "${id}" })`,
      `simulateVirtualAccountDeposit(input: { virtualAccountId: "${id}", amount: "10" })`,
    ]) {
      const res = await live.graphql(`mutation { ${mutation} { __typename ... on Error { code } } }`);
      expect(Object.values(res.body.data!)[0], mutation).toEqual({ __typename: 'ForbiddenError', code: 'SANDBOX_ONLY' });
    }
  });
});

describe('deposit window expiry job', () => {
  it('expires pending transfers past their deposit window, and leaves the others', async () => {
    const late = await pendingOnramp();
    const onTime = await pendingOnramp();
    const lateOfframp = await pendingOfframp();
    await ageTransfer(t, late.id);
    await ageTransfer(t, lateOfframp.id);
    const beforeJob = await simulate('onramp', { action: 'fiat_deposit', transfer_id: late.id });
    expect(beforeJob.status).toBe(422);
    expect(beforeJob.body.code).toBe('transfer_expired');

    await t.ramp.jobs.runOnce();
    expect((await api.get(`${onrampPath()}/${late.id}`)).body.status).toBe('expired');
    expect((await api.get(`${offrampPath()}/${lateOfframp.id}`)).body.status).toBe('expired');
    expect((await api.get(`${onrampPath()}/${onTime.id}`)).body.status).toBe('pending');
    const events = await eventsOf(late.id);
    expect(events.at(-1)).toMatchObject({ type: 'onramp_transfer.status.updated', payload: { status: 'expired' } });
    const history = await t.sql('select to_status, reason from transfer_status_history where transfer_id = ? order by id', [late.id]);
    expect(history.at(-1)).toEqual({ to_status: 'expired', reason: 'deposit_window_elapsed' });
    expect((await simulate('onramp', { action: 'fiat_deposit', transfer_id: late.id })).status).toBe(409);
  });
});

describe('background jobs with a short interval', () => {
  let auto: TestRamp;
  beforeAll(async () => {
    auto = await startRamp({ JOBS_INTERVAL_MS: '50', AUTO_SETTLE_DELAY_MS: '200', DEPOSIT_WINDOW_SECONDS: '2' });
  });
  afterAll(() => auto.close());

  async function until(check: () => Promise<boolean>, timeoutMs = 10_000) {
    const started = Date.now();
    while (!(await check())) {
      if (Date.now() - started > timeoutMs) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('settles sandbox on-ramps by themselves, completes off-ramps after their hash, and expires the rest', async () => {
    const client = auto.client(auto.key);
    const customer = await createCustomer(client);
    const quote = await client.post(`/v0/customers/${customer}/onramp-transfer/quote`, onrampQuoteBody());
    const onramp = (await client.post(`/v0/customers/${customer}/onramp-transfer/quote/${quote.body.quote_id}`, { destination_address: wallet() })).body;
    const offQuote = await client.post(
      `/v0/customers/${customer}/offramp-transfer/quote`,
      offrampQuoteBody({ destination_bank_account: ibanAccount(), transfer_purpose: 'travel' }),
      idempotencyKey(),
    );
    const unpaid = offQuote.body.transfer_id as string;
    const paidQuote = await client.post(
      `/v0/customers/${customer}/offramp-transfer/quote`,
      offrampQuoteBody({ destination_bank_account: ibanAccount(), transfer_purpose: 'travel' }),
      idempotencyKey(),
    );
    const paid = paidQuote.body.transfer_id as string;
    await client.post(`/v0/customers/${customer}/offramp-transfer/${paid}/complete`, { deposit_transaction_hash: txHash() }, idempotencyKey());

    const statusOf = async (direction: string, id: string) => (await client.get(`/v0/customers/${customer}/${direction}-transfer/${id}`)).body.status;
    await until(async () => (await statusOf('onramp', onramp.id)) === 'completed');
    await until(async () => (await statusOf('offramp', paid)) === 'completed');
    await until(async () => (await statusOf('offramp', unpaid)) === 'expired');
    const history = await auto.sql<{ to_status: string }>('select to_status from transfer_status_history where transfer_id = ? order by id', [onramp.id]);
    expect(history.map((h) => h.to_status)).toEqual(['pending', 'processing', 'completed']);
  });
});

describe('production keys while no bank or chain is connected', () => {
  it('price quotes but refuse to hand out deposit instructions (403 rails_not_connected), on-ramp and off-ramp', async () => {
    const live = t.client(await t.keyFor('Live Partner', 'production'));
    const liveCustomer = await createCustomer(live, { approved: false });
    // A production customer can only be approved by a real KYC provider; stand in for it in the database.
    await t.sql(`update customers set kyc_status_breakdown = (select kyc_status_breakdown from customers where id = ?) where id = ?`, [
      customerId,
      liveCustomer,
    ]);
    const onrampQuote = await live.post(`/v0/customers/${liveCustomer}/onramp-transfer/quote`, onrampQuoteBody());
    expect(onrampQuote.status).toBe(201);
    const onramp = await live.post(`/v0/customers/${liveCustomer}/onramp-transfer/quote/${onrampQuote.body.quote_id}`, { destination_address: wallet() });
    expect(onramp.status).toBe(403);
    expect(onramp.body.code).toBe('rails_not_connected');

    const offramp = await live.post(
      `/v0/customers/${liveCustomer}/offramp-transfer/quote`,
      offrampQuoteBody({ destination_bank_account: ibanAccount(), transfer_purpose: 'family' }),
      idempotencyKey(),
    );
    expect(offramp.status).toBe(403);
    expect(offramp.body.code).toBe('rails_not_connected');
    const transfers = await t.sql('select id from transfers where customer_id = ?', [liveCustomer]);
    expect(transfers).toEqual([]);
    // The listing says so: no fiat is connected in production.
    expect((await live.get('/v0/networks')).body.fiat_rails).toEqual(
      ['usd', 'eur', 'aed'].map((currency) => ({ currency, rails: 'not_connected', payment_rails: [] })),
    );
  });
});
