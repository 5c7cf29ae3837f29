import { randomUUID } from 'node:crypto';
import { sandboxAddress, sandboxTransactionHash } from '../../../src/domain/identifiers/chain.js';
import type { Network } from '../../../src/domain/money.js';
import { afterAll, beforeAll } from 'vitest';
import { type ApiClient, startRamp, type TestRamp } from '../ramp.js';

/** Fixtures shared by the quote, transfer, ledger and settlement tests. */

let customers = 0;

/** The GraphQL mutation createCustomer approves a customer's KYC with (a test limited to trusted documents registers it). */
export const APPROVE_KYC = 'mutation ($id: ID!) { simulateKycDecision(input: { customerId: $id, decision: APPROVED }) { __typename } }';

/** A new individual customer; KYC-approved on every rail unless told otherwise. */
export async function createCustomer(api: ApiClient, options: { approved?: boolean } = {}): Promise<string> {
  const created = await api.post('/v0/customers', {
    email: `payer${++customers}-${randomUUID().slice(0, 8)}@example.com`,
    type: 'individual',
    first_name: 'Ada',
    last_name: 'Lovelace',
  });
  if (created.status !== 201) throw new Error(`customer not created: ${JSON.stringify(created.body)}`);
  const id = created.body.customer_id as string;
  if (options.approved ?? true) {
    const res = await api.graphql(APPROVE_KYC, { id });
    if (res.body.data?.simulateKycDecision?.__typename !== 'SimulateKycDecisionPayload') {
      throw new Error(`KYC not approved: ${JSON.stringify(res.body)}`);
    }
  }
  return id;
}

/** Sets the demo partner's platform fee (basis points). */
export const setPlatformFee = (t: TestRamp, bps: number, partner = 'Demo Partner') =>
  t.sql('update partners set platform_fee_bps = ? where name = ?', [bps, partner]);

export const wallet = (network: Network = 'polygon', seed = 'customer-wallet') => sandboxAddress(network, seed);
export const txHash = (network: Network = 'polygon', seed: string = randomUUID()) => sandboxTransactionHash(network, seed);

export const onrampQuoteBody = (overrides: Record<string, unknown> = {}) => ({
  source_amount: '100.00',
  source_currency: 'eur',
  source_payment_rails: 'sepa',
  destination_token: 'usdc',
  destination_network: 'polygon',
  developer_fee_percent: '1',
  ...overrides,
});

export const offrampQuoteBody = (overrides: Record<string, unknown> = {}) => ({
  source_amount: '100.000000',
  source_token: 'usdc',
  source_network: 'polygon',
  destination_currency: 'eur',
  destination_payment_rails: 'sepa',
  developer_fee_percent: '1',
  ...overrides,
});

/** An IBAN account in REST's shape. */
export const ibanAccount = (overrides: Record<string, unknown> = {}) => ({
  bank_name: 'Deutsche Bank',
  account_holder_type: 'individual',
  account_holder_first_name: 'Ada',
  account_holder_last_name: 'Lovelace',
  account_holder_address: { country: 'DE', city: 'Berlin', street_line_1: 'Unter den Linden 1', postal_code: '10117' },
  account_type: 'iban',
  iban: { bic: 'DEUTDEFFXXX', iban_number: 'DE89370400440532013000' },
  ...overrides,
});

export const idempotencyKey = () => ({ 'idempotency-key': randomUUID() });

/** Makes a quote look as if it was issued long ago (past its expiry), without waiting. */
export const ageQuote = (t: TestRamp, quoteId: string) =>
  t.sql(`update quotes set created_at = created_at - interval '1 day', expires_at = expires_at - interval '1 day' where id = ?`, [quoteId]);

/** Makes a pending transfer's deposit window pass, without waiting. */
export const ageTransfer = (t: TestRamp, transferId: string) =>
  t.sql(`update transfers set deposit_expires_at = now() - interval '1 second' where id = ?`, [transferId]);

/** Sum of every ledger entry per currency (must always be zero). */
export async function ledgerSums(t: TestRamp): Promise<Record<string, string>> {
  const rows = await t.sql<{ currency: string; total: string }>('select currency, sum(amount)::text as total from ledger_entries group by currency');
  return Object.fromEntries(rows.map((r) => [r.currency, r.total]));
}

/**
 * One Ramp for the test file (started before its tests, closed after), the demo partner's platform fee
 * set, and one KYC-approved customer. Read the fields inside hooks and tests, not at import time.
 */
export function useTransferFixture(options: { platformFeeBps?: number } = {}) {
  const fixture = {} as { t: TestRamp; api: ApiClient; customerId: string };
  beforeAll(async () => {
    fixture.t = await startRamp();
    fixture.api = fixture.t.client(fixture.t.key);
    if (options.platformFeeBps !== undefined) await setPlatformFee(fixture.t, options.platformFeeBps);
    fixture.customerId = await createCustomer(fixture.api);
  });
  afterAll(() => fixture.t.close());
  return fixture;
}
