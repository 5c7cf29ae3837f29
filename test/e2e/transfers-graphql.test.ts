import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { sandboxAddress, sandboxTransactionHash } from '../../src/domain/identifiers/chain.js';
import type { ApiClient, TestRamp } from '../support/ramp.js';
import { createCustomer, idempotencyKey, onrampQuoteBody, txHash, useTransferFixture, wallet } from '../support/transfers.js';

const fixture = useTransferFixture({ platformFeeBps: 50 });
let t: TestRamp;
let api: ApiClient;
let customerId: string;
beforeAll(() => {
  ({ t, api, customerId } = fixture);
});

/** Runs an operation and returns its one root field, failing on any GraphQL error. */
async function gql(query: string, variables: Record<string, unknown> = {}, client = api) {
  const res = await client.graphql(query, variables);
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  return Object.values(res.body.data!)[0] as any;
}

const QUOTE_FIELDS = `id direction sourceCurrency sourcePaymentRails sourceNetwork sourceAmount destinationCurrency destinationPaymentRails
  destinationNetwork destinationAmount exchangeRate feeAmount fees { currency platformFee developerFee networkFee } developerFeePercent
  expiresAt createdAt customer { id }`;
const TRANSFER_FIELDS = `__typename id direction status amount destinationAmount failureReason depositExpiresAt createdAt updatedAt
  customer { id email } quote { id sourceAmount destinationAmount exchangeRate feeAmount }
  statusHistory { from to reason at } postings { movement account currency amount }
  ... on OnrampTransfer { sourceCurrency sourceRails destinationToken destinationNetwork destinationAddress destinationTransactionHash virtualAccountId
    depositMessage depositBankAccount { bankName bankAddress accountBeneficiaryType accountBeneficiaryName accountType iban { bic ibanNumber } us { accountNumber routingNumber } } }
  ... on OfframpTransfer { sourceToken sourceNetwork destinationCurrency destinationPaymentRails transferPurpose destinationExternalAccountId
    destinationBankAccount { bankName accountType accountHolderType accountHolderFirstName accountHolderLastName accountHolderBusinessName accountHolderCountry accountNumberMasked bic routingNumber }
    depositBlockchainAddress depositTransactionHash }`;

const success = (name: string, fields: string) =>
  `__typename ... on ${name} { data { ${fields} } } ... on Error { code message } ... on ValidationError { fieldErrors { path code } }`;

describe('a complete on-ramp in GraphQL', () => {
  it('quotes, creates, deposits and settles, reading every field of spec §2.4', async () => {
    const quote = await gql(
      `mutation ($customerId: ID!, $input: OnrampQuoteInput!) { createOnrampQuote(customerId: $customerId, input: $input) { ${success('MutationCreateOnrampQuoteSuccess', QUOTE_FIELDS)} } }`,
      {
        customerId,
        input: {
          sourceAmount: '100.00',
          sourceCurrency: 'eur',
          sourcePaymentRails: 'sepa',
          destinationToken: 'usdc',
          destinationNetwork: 'polygon',
          developerFeePercent: '1',
        },
      },
    );
    expect(quote.data).toMatchObject({
      direction: 'onramp',
      sourceCurrency: 'eur',
      sourcePaymentRails: 'sepa',
      sourceNetwork: null,
      sourceAmount: '100.00',
      destinationCurrency: 'usdc',
      destinationNetwork: 'polygon',
      destinationPaymentRails: null,
      destinationAmount: '106.326000',
      exchangeRate: '1.08000000',
      feeAmount: '1.55',
      fees: { currency: 'eur', platformFee: '0.50', developerFee: '1.00', networkFee: '0.05' },
      developerFeePercent: '1',
      customer: { id: customerId },
    });

    const address = wallet('polygon', 'graphql');
    const created = await gql(
      `mutation ($c: ID!, $q: ID!, $a: String!) { createOnrampTransfer(customerId: $c, quoteId: $q, destinationAddress: $a) { ${success('MutationCreateOnrampTransferSuccess', TRANSFER_FIELDS)} } }`,
      { c: customerId, q: quote.data.id, a: address },
    );
    const transfer = created.data;
    expect(transfer).toMatchObject({
      __typename: 'OnrampTransfer',
      direction: 'onramp',
      status: 'pending',
      amount: '100.00',
      destinationAmount: '106.326000',
      sourceCurrency: 'eur',
      sourceRails: 'sepa',
      destinationToken: 'usdc',
      destinationNetwork: 'polygon',
      destinationAddress: address,
      destinationTransactionHash: null,
      virtualAccountId: null,
      depositMessage: expect.stringMatching(/^RAMP[A-Z2-9]{12}$/),
      depositBankAccount: {
        accountType: 'iban',
        accountBeneficiaryType: 'business',
        iban: { bic: 'COBADEFFXXX', ibanNumber: 'DE89370400440532013000' },
        us: null,
      },
      quote: { id: quote.data.id, sourceAmount: '100.00', feeAmount: '1.55' },
      customer: { id: customerId },
      statusHistory: [{ from: null, to: 'pending', reason: 'transfer_created', at: expect.any(String) }],
      postings: [],
    });
    // The same transfer as REST shows it.
    const rest = (await api.get(`/v0/customers/${customerId}/onramp-transfer/${transfer.id}`)).body;
    expect(rest).toMatchObject({ id: transfer.id, destination_address: address, quote: { deposit_message: transfer.depositMessage } });

    await gql(`mutation ($id: ID!) { simulateFiatDeposit(transferId: $id) { __typename } }`, { id: transfer.id });
    await gql(`mutation ($id: ID!) { simulateTransferSettlement(transferId: $id) { __typename } }`, { id: transfer.id });
    const done = await gql(`query ($id: ID!) { transfer(id: $id) { ${TRANSFER_FIELDS} } }`, { id: transfer.id });
    expect(done.status).toBe('completed');
    expect(done.destinationTransactionHash).toBe(sandboxTransactionHash('polygon', transfer.id));
    expect(done.statusHistory.map((h: any) => h.to)).toEqual(['pending', 'processing', 'completed']);
    expect(done.postings.map((p: any) => p.movement)).toEqual([
      'deposit',
      'deposit',
      'fees',
      'fees',
      'fees',
      'fees',
      'conversion',
      'conversion',
      'conversion',
      'conversion',
      'payout',
      'payout',
    ]);
    expect(done.postings.at(-1)).toEqual({ movement: 'payout', account: 'wallet', currency: 'usdc', amount: '-106.326000' });

    const again = await gql(
      `mutation ($c: ID!, $q: ID!, $a: String!) { createOnrampTransfer(customerId: $c, quoteId: $q, destinationAddress: $a) { ${success('MutationCreateOnrampTransferSuccess', 'id')} } }`,
      { c: customerId, q: quote.data.id, a: address },
    );
    expect(again).toMatchObject({ __typename: 'UnprocessableError', code: 'quote_used' });
  });

  it('answers ValidationError with field paths, and NotFoundError for an unknown quote', async () => {
    const both = await gql(
      `mutation ($c: ID!, $input: OnrampQuoteInput!) { createOnrampQuote(customerId: $c, input: $input) { ${success('MutationCreateOnrampQuoteSuccess', 'id')} } }`,
      {
        c: customerId,
        input: {
          sourceAmount: '10',
          destinationAmount: '10',
          sourceCurrency: 'usd',
          sourcePaymentRails: 'ach',
          destinationToken: 'usdc',
          destinationNetwork: 'base',
        },
      },
    );
    expect(both.__typename).toBe('ValidationError');
    expect(both.fieldErrors).toContainEqual({ path: '/sourceAmount', code: 'mutually_exclusive' });
    const unknown = await gql(
      `mutation ($c: ID!, $q: ID!) { createOnrampTransfer(customerId: $c, quoteId: $q, destinationAddress: "x") { ${success('MutationCreateOnrampTransferSuccess', 'id')} } }`,
      { c: customerId, q: randomUUID() },
    );
    expect(unknown.__typename).toBe('NotFoundError');
  });
});

describe('a complete off-ramp in GraphQL', () => {
  const account = {
    bankName: 'Deutsche Bank',
    accountHolderType: 'individual',
    accountHolderFirstName: 'Ada',
    accountHolderLastName: 'Lovelace',
    accountHolderAddress: { country: 'DE', city: 'Berlin', streetLine1: 'Unter den Linden 1', postalCode: '10117' },
    accountType: 'iban',
    iban: { bic: 'DEUTDEFFXXX', ibanNumber: 'DE89370400440532013000' },
  };
  const offrampInput = {
    sourceAmount: '100',
    sourceToken: 'usdc',
    sourceNetwork: 'polygon',
    destinationCurrency: 'eur',
    destinationPaymentRails: 'sepa',
    developerFeePercent: '1',
  };

  it('quotes a bare quote, creates its transfer, completes and settles it, reading every field of spec §2.5', async () => {
    const quote = await gql(
      `mutation ($c: ID!, $input: OfframpQuoteInput!, $key: String!) { createOfframpQuote(customerId: $c, input: $input, idempotencyKey: $key) { ${success('MutationCreateOfframpQuoteSuccess', `${QUOTE_FIELDS} transfer { id }`)} } }`,
      { c: customerId, input: offrampInput, key: randomUUID() },
    );
    expect(quote.data).toMatchObject({
      direction: 'offramp',
      sourceNetwork: 'polygon',
      destinationPaymentRails: 'sepa',
      destinationAmount: '91.15',
      exchangeRate: '0.92592593',
      transfer: null,
    });

    const created = await gql(
      `mutation ($c: ID!, $q: ID!, $input: OfframpDestinationInput!) { createOfframpTransfer(customerId: $c, quoteId: $q, input: $input) { ${success('MutationCreateOfframpTransferSuccess', TRANSFER_FIELDS)} } }`,
      { c: customerId, q: quote.data.id, input: { destinationBankAccount: account, transferPurpose: 'rental' } },
    );
    const transfer = created.data;
    expect(transfer).toMatchObject({
      __typename: 'OfframpTransfer',
      status: 'pending',
      amount: '100.000000',
      destinationAmount: '91.15',
      sourceToken: 'usdc',
      sourceNetwork: 'polygon',
      destinationCurrency: 'eur',
      destinationPaymentRails: 'sepa',
      transferPurpose: 'rental',
      destinationExternalAccountId: null,
      destinationBankAccount: {
        bankName: 'Deutsche Bank',
        accountType: 'iban',
        accountHolderCountry: 'DE',
        accountNumberMasked: '…3000',
        bic: 'DEUTDEFFXXX',
        routingNumber: null,
      },
      depositBlockchainAddress: sandboxAddress('polygon', transfer.id),
      depositTransactionHash: null,
      quote: { id: quote.data.id, exchangeRate: '0.92592593' },
    });
    const viaQuote = await gql(`query ($id: ID!) { quote(id: $id) { transfer { id } } }`, { id: quote.data.id });
    expect(viaQuote.transfer).toEqual({ id: transfer.id });

    const hash = txHash();
    const complete = `mutation ($c: ID!, $t: ID!, $h: String!, $key: String!) { completeOfframpTransfer(customerId: $c, transferId: $t, depositTransactionHash: $h, idempotencyKey: $key) { ${success('MutationCompleteOfframpTransferSuccess', 'id status ... on OfframpTransfer { depositTransactionHash }')} } }`;
    const key = randomUUID();
    const completed = await gql(complete, { c: customerId, t: transfer.id, h: hash, key });
    expect(completed.data).toEqual({ id: transfer.id, status: 'processing', depositTransactionHash: hash });
    expect(await gql(complete, { c: customerId, t: transfer.id, h: hash, key })).toEqual(completed);
    const conflict = await gql(complete, { c: customerId, t: transfer.id, h: txHash(), key: randomUUID() });
    expect(conflict).toMatchObject({ __typename: 'ConflictError', code: 'transfer_transition_not_allowed' });
    const invalid = await gql(complete, { c: customerId, t: transfer.id, h: 'abc', key: randomUUID() });
    expect(invalid.fieldErrors).toContainEqual({ path: '/depositTransactionHash', code: 'invalid_transaction_hash' });

    await gql(`mutation ($id: ID!) { simulateTransferSettlement(transferId: $id) { __typename } }`, { id: transfer.id });
    const done = await gql(`query ($id: ID!) { transfer(id: $id) { status postings { movement account currency amount } } }`, { id: transfer.id });
    expect(done.status).toBe('completed');
    expect(done.postings.at(-1)).toEqual({ movement: 'payout', account: 'bank', currency: 'eur', amount: '-91.15' });
  });

  it('creates the transfer with the quote when it names a destination; idempotencyKey is required', async () => {
    const quote = await gql(
      `mutation ($c: ID!, $input: OfframpQuoteInput!, $key: String!) { createOfframpQuote(customerId: $c, input: $input, idempotencyKey: $key) { ${success('MutationCreateOfframpQuoteSuccess', 'id transfer { id status }')} } }`,
      { c: customerId, input: { ...offrampInput, destinationBankAccount: account, transferPurpose: 'family' }, key: randomUUID() },
    );
    expect(quote.data.transfer).toMatchObject({ status: 'pending' });
    const noKey = await gql(
      `mutation ($c: ID!, $input: OfframpQuoteInput!) { createOfframpQuote(customerId: $c, input: $input, idempotencyKey: "") { ${success('MutationCreateOfframpQuoteSuccess', 'id')} } }`,
      { c: customerId, input: offrampInput },
    );
    expect(noKey).toMatchObject({ __typename: 'ValidationError', code: 'idempotency_key_missing' });
  });
});

describe('transfer queries', () => {
  it('pages transfers with filters by customer, direction, status and creation date', async () => {
    const customer = await createCustomer(api);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const quote = await api.post(`/v0/customers/${customer}/onramp-transfer/quote`, onrampQuoteBody());
      ids.push((await api.post(`/v0/customers/${customer}/onramp-transfer/quote/${quote.body.quote_id}`, { destination_address: wallet() })).body.id);
    }
    await api.post(`/v0/customers/${customer}/onramp-transfer/simulate`, { action: 'fiat_deposit', transfer_id: ids[1] });
    const query = `query ($c: ID, $d: TransferDirection, $s: TransferStatus, $after: DateTime, $before: DateTime, $first: Int, $cursor: String) {
      transfers(customerId: $c, direction: $d, status: $s, createdAfter: $after, createdBefore: $before, first: $first, after: $cursor) {
        edges { cursor node { id status } } pageInfo { hasNextPage endCursor } } }`;
    const all = await gql(query, { c: customer });
    expect(all.edges.map((e: any) => e.node.id)).toEqual(ids);
    const firstTwo = await gql(query, { c: customer, first: 2 });
    expect(firstTwo.pageInfo.hasNextPage).toBe(true);
    const rest = await gql(query, { c: customer, first: 2, cursor: firstTwo.pageInfo.endCursor });
    expect(rest.edges.map((e: any) => e.node.id)).toEqual([ids[2]]);
    expect((await gql(query, { c: customer, s: 'processing' })).edges.map((e: any) => e.node.id)).toEqual([ids[1]]);
    expect((await gql(query, { c: customer, d: 'offramp' })).edges).toEqual([]);
    expect((await gql(query, { c: customer, after: new Date(Date.now() + 60_000).toISOString() })).edges).toEqual([]);
    expect((await gql(query, { c: customer, before: new Date(Date.now() + 60_000).toISOString() })).edges).toHaveLength(3);
    const viaCustomer = await gql(`query ($id: ID!) { customer(id: $id) { transfers(status: pending) { edges { node { id } } } } }`, { id: customer });
    expect(viaCustomer.transfers.edges.map((e: any) => e.node.id)).toEqual([ids[0], ids[2]]);
    const tooMany = await api.graphql(`{ transfers(first: 101) { edges { node { id } } } }`);
    expect(tooMany.body.errors).toBeDefined();
  });

  it("reads another partner's transfer and quote as null", async () => {
    const quote = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote`, onrampQuoteBody());
    const transfer = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote/${quote.body.quote_id}`, { destination_address: wallet() });
    const other = t.client(await t.keyFor('Other Partner'));
    expect(await gql(`query ($id: ID!) { transfer(id: $id) { id } }`, { id: transfer.body.id }, other)).toBeNull();
    expect(await gql(`query ($id: ID!) { quote(id: $id) { id } }`, { id: quote.body.quote_id }, other)).toBeNull();
    expect((await gql(`query { transfers { edges { node { id } } } }`, {}, other)).edges).toEqual([]);
    expect(await gql(`query { transfer(id: "nope") { id } }`)).toBeNull();
  });
});

describe('dataloaders', () => {
  /**
   * Counts the SQL statements the server sends while `run` executes (the real driver, wrapped).
   * Only statements on the tables this request reads count: the webhook dispatcher polls its own
   * tables in the background on the same connection pool.
   */
  const REQUEST_TABLES = /\b(api_keys|transfers|quotes|customers|transfer_status_history|ledger_entries)\b/;
  async function countQueries(run: () => Promise<unknown>): Promise<number> {
    const connection = t.ramp.db.orm.em.getDriver().getConnection() as unknown as { execute: (...args: unknown[]) => Promise<unknown> };
    const original = connection.execute;
    let count = 0;
    connection.execute = function (this: unknown, ...args: unknown[]) {
      if (REQUEST_TABLES.test(String(args[0]))) count++;
      return original.apply(this, args);
    };
    try {
      await run();
    } finally {
      connection.execute = original;
    }
    return count;
  }

  it('reads a page of 100 transfers with customers, quotes, history and postings in as many queries as a page of 2', async () => {
    // 100 transfers over 10 customers, straight from one quote each, the cheap way: through REST.
    const customers = await Promise.all(Array.from({ length: 10 }, () => createCustomer(api)));
    for (let i = 0; i < 100; i++) {
      const customer = customers[i % 10]!;
      const quote = await api.post(`/v0/customers/${customer}/onramp-transfer/quote`, onrampQuoteBody(), idempotencyKey());
      await api.post(`/v0/customers/${customer}/onramp-transfer/quote/${quote.body.quote_id}`, { destination_address: wallet() });
    }
    const query = `query ($n: Int) { transfers(first: $n) { edges { node { id status amount customer { id email } quote { id feeAmount }
      statusHistory { to } postings { amount } ... on OnrampTransfer { sourceCurrency destinationNetwork } } } } }`;
    let page: any;
    const forTwo = await countQueries(async () => {
      page = await gql(query, { n: 2 });
    });
    expect(page.edges).toHaveLength(2);
    const forHundred = await countQueries(async () => {
      page = await gql(query, { n: 100 });
    });
    expect(page.edges).toHaveLength(100);
    expect(page.edges.every((e: any) => e.node.customer.email && e.node.quote.id && e.node.statusHistory.length >= 1)).toBe(true);
    expect(forTwo).toBeGreaterThan(0);
    expect(forHundred).toBe(forTwo);
    // Key lookup, the page, customers, quotes, history (ownership check + rows), postings.
    expect(forHundred).toBeLessThanOrEqual(8);
  });
});
