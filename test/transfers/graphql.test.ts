import { randomUUID } from 'node:crypto';
import { encodeGlobalID as globalIdOf } from '@pothos/plugin-relay';
import { beforeAll, describe, expect, it } from 'vitest';
import { sandboxAddress, sandboxTransactionHash } from '../../src/domain/identifiers/chain.js';
import type { ApiClient, TestRamp } from '../support/ramp.js';
import { recordSqlStatements } from '../support/sql-statements.js';
import { createCustomer, ibanAccount, idempotencyKey, onrampQuoteBody, txHash, useTransferFixture, wallet } from '../support/data/transfers.js';

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

const QUOTE_FIELDS = `id databaseId direction sourceCurrency sourcePaymentRails sourceNetwork sourceAmount destinationCurrency destinationPaymentRails
  destinationNetwork destinationAmount exchangeRate feeAmount fees { currency platformFee developerFee networkFee } developerFeePercent
  expiresAt createdAt customer { databaseId }`;
const TRANSFER_FIELDS = `__typename id databaseId direction status amount destinationAmount failureReason depositExpiresAt createdAt updatedAt
  customer { databaseId email } quote { id databaseId sourceAmount destinationAmount exchangeRate feeAmount }
  statusHistory { from to reason at } postings { movement account currency amount }
  ... on OnrampTransfer { sourceCurrency sourceRails destinationToken destinationNetwork destinationAddress destinationTransactionHash virtualAccount { databaseId }
    depositMessage depositBankAccount { bankName bankAddress accountBeneficiaryType accountBeneficiaryName accountType iban { bic ibanNumber } us { accountNumber routingNumber } } }
  ... on OfframpTransfer { sourceToken sourceNetwork destinationCurrency destinationPaymentRails transferPurpose destinationExternalAccount { databaseId }
    destinationBankAccount { bankName accountType accountHolderType accountHolderFirstName accountHolderLastName accountHolderBusinessName accountHolderCountry accountNumberMasked bic routingNumber }
    depositBlockchainAddress depositTransactionHash }`;

/** A mutation's result: its payload's one field, or the error it returned. */
const result = (payload: string, field: string, fields: string) =>
  `__typename ... on ${payload} { ${field} { ${fields} } } ... on Error { code message } ... on ValidationError { fieldErrors { path code } }`;

const CREATE_ONRAMP_QUOTE = (fields: string) =>
  `mutation ($input: CreateOnrampQuoteInput!) { createOnrampQuote(input: $input) { ${result('CreateOnrampQuotePayload', 'quote', fields)} } }`;
const CREATE_ONRAMP_TRANSFER = (fields: string) =>
  `mutation ($input: CreateOnrampTransferInput!) { createOnrampTransfer(input: $input) { ${result('CreateOnrampTransferPayload', 'transfer', fields)} } }`;

describe('a complete on-ramp in GraphQL', () => {
  it('quotes, creates, deposits and settles, reading every field of the on-ramp transfer', async () => {
    const { quote } = await gql(CREATE_ONRAMP_QUOTE(QUOTE_FIELDS), {
      input: {
        customerId,
        sourceAmount: '100.00',
        sourceCurrency: 'EUR',
        sourcePaymentRails: 'SEPA',
        destinationToken: 'USDC',
        destinationNetwork: 'POLYGON',
        developerFeePercent: '1',
      },
    });
    expect(quote).toMatchObject({
      direction: 'ONRAMP',
      sourceCurrency: 'EUR',
      sourcePaymentRails: 'SEPA',
      sourceNetwork: null,
      sourceAmount: '100.00',
      destinationCurrency: 'USDC',
      destinationNetwork: 'POLYGON',
      destinationPaymentRails: null,
      destinationAmount: '106.326000',
      exchangeRate: '1.08000000',
      feeAmount: '1.55',
      fees: { currency: 'EUR', platformFee: '0.50', developerFee: '1.00', networkFee: '0.05' },
      developerFeePercent: '1',
      customer: { databaseId: customerId },
    });

    const address = wallet('polygon', 'graphql');
    // The quote names the customer: no customerId in the input.
    const created = await gql(CREATE_ONRAMP_TRANSFER(TRANSFER_FIELDS), { input: { quoteId: quote.id, destinationAddress: address } });
    const transfer = created.transfer;
    expect(transfer).toMatchObject({
      __typename: 'OnrampTransfer',
      direction: 'ONRAMP',
      status: 'PENDING',
      amount: '100.00',
      destinationAmount: '106.326000',
      sourceCurrency: 'EUR',
      sourceRails: 'SEPA',
      destinationToken: 'USDC',
      destinationNetwork: 'POLYGON',
      destinationAddress: address,
      destinationTransactionHash: null,
      virtualAccount: null,
      depositMessage: expect.stringMatching(/^RAMP[A-Z2-9]{12}$/),
      depositBankAccount: {
        accountType: 'IBAN',
        accountBeneficiaryType: 'BUSINESS',
        iban: { bic: 'COBADEFFXXX', ibanNumber: 'DE89370400440532013000' },
        us: null,
      },
      quote: { id: quote.id, databaseId: quote.databaseId, sourceAmount: '100.00', feeAmount: '1.55' },
      customer: { databaseId: customerId },
      statusHistory: [{ from: null, to: 'PENDING', reason: 'transfer_created', at: expect.any(String) }],
      postings: [],
    });
    // The same transfer as REST shows it.
    const rest = (await api.get(`/v0/customers/${customerId}/onramp-transfer/${transfer.databaseId}`)).body;
    expect(rest).toMatchObject({ id: transfer.databaseId, destination_address: address, quote: { deposit_message: transfer.depositMessage } });

    await gql(`mutation ($id: ID!) { simulateFiatDeposit(input: { transferId: $id }) { __typename } }`, { id: transfer.id });
    await gql(`mutation ($id: ID!) { simulateTransferSettlement(input: { transferId: $id }) { __typename } }`, { id: transfer.id });
    const done = await gql(`query ($id: ID!) { transfer(id: $id) { ${TRANSFER_FIELDS} } }`, { id: transfer.id });
    expect(done.status).toBe('COMPLETED');
    expect(done.destinationTransactionHash).toBe(sandboxTransactionHash('polygon', transfer.databaseId));
    expect(done.statusHistory.map((h: any) => h.to)).toEqual(['PENDING', 'PROCESSING', 'COMPLETED']);
    expect(done.postings.map((p: any) => p.movement)).toEqual([
      'DEPOSIT',
      'DEPOSIT',
      'FEES',
      'FEES',
      'FEES',
      'FEES',
      'CONVERSION',
      'CONVERSION',
      'CONVERSION',
      'CONVERSION',
      'PAYOUT',
      'PAYOUT',
    ]);
    expect(done.postings.at(-1)).toEqual({ movement: 'PAYOUT', account: 'WALLET', currency: 'USDC', amount: '-106.326000' });

    const again = await gql(CREATE_ONRAMP_TRANSFER('id'), { input: { quoteId: quote.databaseId, destinationAddress: address } });
    expect(again).toMatchObject({ __typename: 'UnprocessableError', code: 'QUOTE_USED' });
  });

  it('answers ValidationError with field paths into the input, and NotFoundError for an unknown quote', async () => {
    const both = await gql(CREATE_ONRAMP_QUOTE('id'), {
      input: {
        customerId,
        sourceAmount: '10',
        destinationAmount: '10',
        sourceCurrency: 'USD',
        sourcePaymentRails: 'ACH',
        destinationToken: 'USDC',
        destinationNetwork: 'BASE',
      },
    });
    expect(both.__typename).toBe('ValidationError');
    expect(both.fieldErrors).toContainEqual({ path: '/sourceAmount', code: 'mutually_exclusive' });
    const unknown = await gql(CREATE_ONRAMP_TRANSFER('id'), { input: { quoteId: randomUUID(), destinationAddress: 'x' } });
    expect(unknown.__typename).toBe('NotFoundError');
  });
});

describe('a complete off-ramp in GraphQL', () => {
  const account = {
    bankName: 'Deutsche Bank',
    accountHolderType: 'INDIVIDUAL',
    accountHolderFirstName: 'Ada',
    accountHolderLastName: 'Lovelace',
    accountHolderAddress: { country: 'DE', city: 'Berlin', streetLine1: 'Unter den Linden 1', postalCode: '10117' },
    accountType: 'IBAN',
    iban: { bic: 'DEUTDEFFXXX', ibanNumber: 'DE89370400440532013000' },
  };
  const offrampInput = () => ({
    customerId,
    sourceAmount: '100',
    sourceToken: 'USDC',
    sourceNetwork: 'POLYGON',
    destinationCurrency: 'EUR',
    destinationPaymentRails: 'SEPA',
    developerFeePercent: '1',
  });
  const CREATE_OFFRAMP_QUOTE = (fields: string) =>
    `mutation ($input: CreateOfframpQuoteInput!) { createOfframpQuote(input: $input) { ${result('CreateOfframpQuotePayload', 'quote', fields)} } }`;

  it('quotes a bare quote, creates its transfer, completes and settles it, reading every field of the off-ramp transfer', async () => {
    const { quote } = await gql(CREATE_OFFRAMP_QUOTE(`${QUOTE_FIELDS} transfer { id }`), { input: { ...offrampInput(), idempotencyKey: randomUUID() } });
    expect(quote).toMatchObject({
      direction: 'OFFRAMP',
      sourceCurrency: 'USDC',
      sourceNetwork: 'POLYGON',
      destinationCurrency: 'EUR',
      destinationPaymentRails: 'SEPA',
      destinationAmount: '91.15',
      exchangeRate: '0.92592593',
      transfer: null,
    });

    const created = await gql(
      `mutation ($input: CreateOfframpTransferInput!) { createOfframpTransfer(input: $input) { ${result('CreateOfframpTransferPayload', 'transfer', TRANSFER_FIELDS)} } }`,
      { input: { quoteId: quote.id, destinationBankAccount: account, transferPurpose: 'RENTAL' } },
    );
    const transfer = created.transfer;
    expect(transfer).toMatchObject({
      __typename: 'OfframpTransfer',
      status: 'PENDING',
      amount: '100.000000',
      destinationAmount: '91.15',
      sourceToken: 'USDC',
      sourceNetwork: 'POLYGON',
      destinationCurrency: 'EUR',
      destinationPaymentRails: 'SEPA',
      transferPurpose: 'RENTAL',
      destinationExternalAccount: null,
      destinationBankAccount: {
        bankName: 'Deutsche Bank',
        accountType: 'IBAN',
        accountHolderCountry: 'DE',
        accountNumberMasked: '…3000',
        bic: 'DEUTDEFFXXX',
        routingNumber: null,
      },
      depositBlockchainAddress: sandboxAddress('polygon', transfer.databaseId),
      depositTransactionHash: null,
      quote: { id: quote.id, exchangeRate: '0.92592593' },
      customer: { databaseId: customerId },
    });
    const viaQuote = await gql(`query ($id: ID!) { quote(id: $id) { transfer { id } } }`, { id: quote.id });
    expect(viaQuote.transfer).toEqual({ id: transfer.id });

    const hash = txHash();
    // The transfer names the customer: no customerId in the input.
    const complete = `mutation ($input: CompleteOfframpTransferInput!) { completeOfframpTransfer(input: $input) { ${result('CompleteOfframpTransferPayload', 'transfer', 'id status ... on OfframpTransfer { depositTransactionHash }')} } }`;
    const key = randomUUID();
    const completed = await gql(complete, { input: { transferId: transfer.id, depositTransactionHash: hash, idempotencyKey: key } });
    expect(completed.transfer).toEqual({ id: transfer.id, status: 'PROCESSING', depositTransactionHash: hash });
    expect(await gql(complete, { input: { transferId: transfer.id, depositTransactionHash: hash, idempotencyKey: key } })).toEqual(completed);
    const conflict = await gql(complete, { input: { transferId: transfer.id, depositTransactionHash: txHash(), idempotencyKey: randomUUID() } });
    expect(conflict).toMatchObject({ __typename: 'ConflictError', code: 'TRANSFER_TRANSITION_NOT_ALLOWED' });
    const invalid = await gql(complete, { input: { transferId: transfer.databaseId, depositTransactionHash: 'abc' } });
    expect(invalid.fieldErrors).toContainEqual({ path: '/depositTransactionHash', code: 'invalid_transaction_hash' });

    await gql(`mutation ($id: ID!) { simulateTransferSettlement(input: { transferId: $id }) { __typename } }`, { id: transfer.id });
    const done = await gql(`query ($id: ID!) { transfer(id: $id) { status postings { movement account currency amount } } }`, { id: transfer.id });
    expect(done.status).toBe('COMPLETED');
    expect(done.postings.at(-1)).toEqual({ movement: 'PAYOUT', account: 'BANK', currency: 'EUR', amount: '-91.15' });
  });

  it('pays out to a registered external account named by its global id', async () => {
    const registered = await api.post(`/v0/customers/${customerId}/external-accounts`, ibanAccount(), idempotencyKey());
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    const accountId = registered.body.id as string;
    const { quote } = await gql(CREATE_OFFRAMP_QUOTE('id transfer { __typename ... on OfframpTransfer { destinationExternalAccount { databaseId } } }'), {
      input: { ...offrampInput(), destinationExternalAccountId: globalIdOf('BankAccount', accountId), transferPurpose: 'FAMILY' },
    });
    expect(quote.transfer).toEqual({ __typename: 'OfframpTransfer', destinationExternalAccount: { databaseId: accountId } });
  });

  it('creates the transfer with the quote when it names a destination; idempotencyKey is optional and replays the first quote', async () => {
    const key = randomUUID();
    const input = { ...offrampInput(), destinationBankAccount: account, transferPurpose: 'FAMILY', idempotencyKey: key };
    const { quote } = await gql(CREATE_OFFRAMP_QUOTE('id transfer { id status }'), { input });
    expect(quote.transfer).toMatchObject({ status: 'PENDING' });
    expect((await gql(CREATE_OFFRAMP_QUOTE('id transfer { id status }'), { input })).quote).toEqual(quote);
    const reused = await gql(CREATE_OFFRAMP_QUOTE('id'), { input: { ...input, sourceAmount: '101' } });
    expect(reused).toMatchObject({ __typename: 'UnprocessableError', code: 'IDEMPOTENCY_KEY_REUSED' });
    const noKey = await gql(CREATE_OFFRAMP_QUOTE('id transfer { id }'), { input: offrampInput() });
    expect(noKey.quote).toMatchObject({ id: expect.any(String), transfer: null });
  });
});

describe('transfer queries', () => {
  it('pages transfers with filters by customer, direction, status and creation date, counting every match', async () => {
    const customer = await createCustomer(api);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const quote = await api.post(`/v0/customers/${customer}/onramp-transfer/quote`, onrampQuoteBody());
      ids.push((await api.post(`/v0/customers/${customer}/onramp-transfer/quote/${quote.body.quote_id}`, { destination_address: wallet() })).body.id);
    }
    await api.post(`/v0/customers/${customer}/onramp-transfer/simulate`, { action: 'fiat_deposit', transfer_id: ids[1] });
    const query = `query ($c: ID, $d: TransferDirection, $s: TransferStatus, $after: DateTime, $before: DateTime, $first: Int, $cursor: String) {
      transfers(customerId: $c, direction: $d, status: $s, createdAfter: $after, createdBefore: $before, first: $first, after: $cursor) {
        totalCount edges { cursor node { databaseId status } } pageInfo { hasNextPage endCursor } } }`;
    const databaseIds = (page: any) => page.edges.map((e: any) => e.node.databaseId);
    const all = await gql(query, { c: customer });
    expect(databaseIds(all)).toEqual(ids);
    expect(all.totalCount).toBe(3);
    const firstTwo = await gql(query, { c: customer, first: 2 });
    expect(firstTwo.pageInfo.hasNextPage).toBe(true);
    expect(firstTwo.totalCount).toBe(3);
    const rest = await gql(query, { c: customer, first: 2, cursor: firstTwo.pageInfo.endCursor });
    expect(databaseIds(rest)).toEqual([ids[2]]);
    const processing = await gql(query, { c: customer, s: 'PROCESSING' });
    expect(databaseIds(processing)).toEqual([ids[1]]);
    expect(processing.totalCount).toBe(1);
    expect(await gql(query, { c: customer, d: 'OFFRAMP' })).toMatchObject({ edges: [], totalCount: 0 });
    expect(await gql(query, { c: customer, after: new Date(Date.now() + 60_000).toISOString() })).toMatchObject({ edges: [], totalCount: 0 });
    expect((await gql(query, { c: customer, before: new Date(Date.now() + 60_000).toISOString() })).edges).toHaveLength(3);
    const viaCustomer = await gql(`query ($id: ID!) { customer(id: $id) { transfers(status: PENDING) { totalCount edges { node { databaseId } } } } }`, {
      id: customer,
    });
    expect(viaCustomer.transfers.edges.map((e: any) => e.node.databaseId)).toEqual([ids[0], ids[2]]);
    expect(viaCustomer.transfers.totalCount).toBe(2);
    const tooMany = await api.graphql(`{ transfers(first: 101) { edges { node { id } } } }`);
    expect(tooMany.body.errors).toBeDefined();
  });

  it("reads another partner's transfer and quote as null", async () => {
    const quote = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote`, onrampQuoteBody());
    const transfer = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote/${quote.body.quote_id}`, { destination_address: wallet() });
    const other = t.client(await t.keyFor('Other Partner'));
    for (const id of [transfer.body.id, globalIdOf('OnrampTransfer', transfer.body.id)]) {
      expect(await gql(`query ($id: ID!) { transfer(id: $id) { id } }`, { id }, other)).toBeNull();
    }
    for (const id of [quote.body.quote_id, globalIdOf('Quote', quote.body.quote_id)]) {
      expect(await gql(`query ($id: ID!) { quote(id: $id) { id } }`, { id }, other)).toBeNull();
    }
    expect((await gql(`query { transfers { edges { node { id } } } }`, {}, other)).edges).toEqual([]);
    expect(await gql(`query { transfer(id: "nope") { id } }`)).toBeNull();
  });
});

describe('dataloaders', () => {
  /**
   * Counts the SQL statements the server sends while `run` executes, at the drivers (support/sql-statements.ts).
   * Only statements on the tables this request reads count: the webhook dispatcher polls its own tables in the
   * background on the same connection pool. A background job's batch claim (`skip locked`, e.g. the job sealing
   * customers' clear values) is no statement of the request's.
   */
  const REQUEST_TABLES = /\b(api_keys|transfers|quotes|customers|transfer_status_history|ledger_entries)\b/;
  const sql = recordSqlStatements();
  const countQueries = async (run: () => Promise<unknown>): Promise<number> =>
    (await sql.during(run)).filter((statement) => REQUEST_TABLES.test(statement) && !/skip locked/i.test(statement)).length;

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
    // The page (its customers and quotes joined), the history (joined to its transfers), the postings (the key is kept since the first page).
    expect(forHundred).toBeLessThanOrEqual(3);
  });
});
