import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restPointerOf } from '../../src/rest/routes.js';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';
import { restFieldErrors } from '../support/clients/faces.js';

/**
 * For bank accounts: one use case (NewBankAccount), two faces. A rule of the
 * domain fails with the same code in REST and GraphQL; REST points into the spec's snake_case
 * body, GraphQL into `input`. (GraphQL paths were already these before the conversion, as the
 * camel-cased REST pointers; what changed is that the sentences name GraphQL's fields.)
 */
let t: TestRamp;
let api: ApiClient;
let n = 0;
const unique = () => `${Date.now()}-${++n}`;
const withKey = () => ({ 'idempotency-key': `faces-${unique()}` });

beforeAll(async () => {
  t = await startRamp();
  api = t.client(t.key);
});
afterAll(() => t.close());

async function newCustomer(): Promise<string> {
  const res = await api.post('/v0/customers', { email: `faces${unique()}@example.com`, type: 'individual', first_name: 'Hans', last_name: 'Mueller' });
  expect(res.status).toBe(201);
  return res.body.customer_id;
}
const accountsOf = (customerId: string) => `/v0/customers/${customerId}/external-accounts`;

const restAddress = { country: 'DE', city: 'Berlin', street_line_1: 'Unter den Linden 1', postal_code: '10117' };
const gqlAddress = { country: 'DE', city: 'Berlin', streetLine1: 'Unter den Linden 1', postalCode: '10117' };
const IBAN = 'DE89370400440532013000';

const restIban = (iban: Record<string, unknown>, more: Record<string, unknown> = {}) => ({
  bank_name: 'Deutsche Bank',
  account_holder_type: 'individual',
  account_holder_first_name: 'Hans',
  account_holder_last_name: 'Mueller',
  account_holder_address: restAddress,
  account_type: 'iban',
  iban,
  ...more,
});
const gqlIban = (iban: Record<string, unknown>, more: Record<string, unknown> = {}) => ({
  bankName: 'Deutsche Bank',
  accountHolderType: 'INDIVIDUAL',
  accountHolderFirstName: 'Hans',
  accountHolderLastName: 'Mueller',
  accountHolderAddress: gqlAddress,
  accountType: 'IBAN',
  iban,
  ...more,
});

const ADD = `mutation ($input: AddBankAccountInput!) {
  addBankAccount(input: $input) {
    __typename ... on ValidationError { code fieldErrors { path code message argumentPath } }
  }
}`;

type GraphQLFieldError = { path: string; code: string; message: string; argumentPath: string[] };

async function addViaGraphql(customerId: string, account: Record<string, unknown>): Promise<GraphQLFieldError[]> {
  const res = await api.graphql(ADD, { input: { customerId, ...account, idempotencyKey: `faces-${unique()}` } });
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  const result = res.body.data.addBankAccount;
  expect(result.__typename, JSON.stringify(result)).toBe('ValidationError');
  expect(result.code).toBe('VALIDATION_FAILED');
  return result.fieldErrors;
}
/** GraphQL's field errors as `path code` lines, sorted. */
const lines = (errors: GraphQLFieldError[]) => errors.map((e) => `${e.path} ${e.code}`).sort();

describe('REST face', () => {
  it('points a BIC of another country than the IBAN at /iban/bic of the body', async () => {
    const res = await api.post(accountsOf(await newCustomer()), restIban({ bic: 'BNPAFRPP', iban_number: IBAN }), withKey());
    expect(restFieldErrors(res)).toEqual(['/iban/bic bic_country_mismatch']);
  });

  it('reports nested and cross-field problems in one 400', async () => {
    const res = await api.post(
      accountsOf(await newCustomer()),
      restIban(
        { bic: 'DEUTDEFF', iban_number: 'DE00370400440532013000' },
        {
          account_holder_last_name: undefined,
          account_holder_business_name: 'Acme',
          account_holder_address: { ...restAddress, street_line_1: '' },
          us: { account_number: '123', routing_number: '021000021' },
        },
      ),
      withKey(),
    );
    expect(restFieldErrors(res)).toEqual([
      '/account_holder_address/street_line_1 too_small',
      '/account_holder_business_name not_allowed',
      '/account_holder_last_name required',
      '/iban/iban_number invalid_iban',
      '/us not_allowed',
      '/us/account_number invalid_account_number',
    ]);
  });

  it('maps the use case’s pointers into the body by snake-casing each segment', () => {
    expect(restPointerOf('/accountHolderAddress/streetLine1')).toBe('/account_holder_address/street_line_1');
    expect(restPointerOf('/iban/ibanNumber')).toBe('/iban/iban_number');
    expect(restPointerOf('/swift/routingNumber')).toBe('/swift/routing_number');
  });
});

describe('GraphQL face', () => {
  it('names a BIC of another country than the IBAN by its path in input', async () => {
    const errors = await addViaGraphql(await newCustomer(), gqlIban({ bic: 'BNPAFRPP', ibanNumber: IBAN }));
    expect(lines(errors)).toEqual(['/iban/bic bic_country_mismatch']);
  });

  it('reports nested and cross-field problems in one ValidationError, with GraphQL’s field names', async () => {
    const errors = await addViaGraphql(
      await newCustomer(),
      gqlIban(
        { bic: 'DEUTDEFF', ibanNumber: 'DE00370400440532013000' },
        {
          accountHolderLastName: null,
          accountHolderBusinessName: 'Acme',
          accountHolderAddress: { ...gqlAddress, streetLine1: '' },
          us: { accountNumber: '123', routingNumber: '021000021' },
        },
      ),
    );
    expect(lines(errors)).toEqual([
      '/accountHolderAddress/streetLine1 too_small',
      '/accountHolderBusinessName not_allowed',
      '/accountHolderLastName required',
      '/iban/ibanNumber invalid_iban',
      '/us not_allowed',
      '/us/accountNumber invalid_account_number',
    ]);
    expect(errors.find((e) => e.path === '/us')?.message).toBe('is not allowed when accountType is iban');
    expect(errors.find((e) => e.path === '/iban/ibanNumber')?.argumentPath).toEqual(['input', 'iban', 'ibanNumber']);
  });

  it('points a swift routing number a US bank cannot use at /swift/routingNumber', async () => {
    const input = {
      ...gqlIban({}),
      accountType: 'SWIFT',
      iban: null,
      swift: { accountNumber: '000123456789', bic: 'CHASUS33', routingNumber: '123456789' },
    };
    expect(lines(await addViaGraphql(await newCustomer(), input))).toEqual(['/swift/routingNumber invalid_routing_number']);
  });
});

describe('both faces', () => {
  it('fail one rule with the same code and the same sentence', async () => {
    const customerId = await newCustomer();
    const rest = await api.post(accountsOf(customerId), restIban({ bic: 'BNPAFRPP', iban_number: IBAN }), withKey());
    const gql = await addViaGraphql(customerId, gqlIban({ bic: 'BNPAFRPP', ibanNumber: IBAN }));
    const [restError] = rest.body.errors as { pointer: string; code: string; detail: string }[];
    expect([restError?.pointer, restError?.code, restError?.detail]).toEqual(['/iban/bic', 'bic_country_mismatch', gql[0]?.message]);
    expect(gql.map((e) => e.path)).toEqual(['/iban/bic']);
  });

  it('store the same account whichever face registered it', async () => {
    const viaRest = await newCustomer();
    const viaGraphql = await newCustomer();
    const rest = await api.post(accountsOf(viaRest), restIban({ bic: 'deutdeff', iban_number: 'de89 3704 0044 0532 0130 00' }), withKey());
    expect(rest.status).toBe(201);
    const gql = await api.graphql(ADD, {
      input: {
        customerId: viaGraphql,
        ...gqlIban({ bic: 'deutdeff', ibanNumber: 'de89 3704 0044 0532 0130 00' }, { accountHolderBusinessName: null }),
        idempotencyKey: `faces-${unique()}`,
      },
    });
    expect(gql.body.data.addBankAccount.__typename).toBe('AddBankAccountPayload');
    const rows = await t.sql<Record<string, unknown>>(
      `select account_type, bank_name, account_holder_type, account_holder_first_name, account_holder_last_name, account_holder_business_name,
              account_holder_address, hidden_number, bic, account_number, routing_number, us_account_type
         from external_accounts where customer_id in (?, ?) order by customer_id = ? desc`,
      [viaRest, viaGraphql, viaRest],
    );
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual(rows[1]);
    // The number is sealed by each customer's own data key (so the two ciphertexts differ); reads show the normalised one hidden.
    expect(rows[0]).toMatchObject({ hidden_number: `${'•'.repeat(IBAN.length - 4)}${IBAN.slice(-4)}`, bic: 'DEUTDEFF', account_holder_address: restAddress });
    const sealed = await t.sql<{ iban_number: string }>('select iban_number from external_accounts where customer_id in (?, ?)', [viaRest, viaGraphql]);
    expect(sealed.map((r) => r.iban_number)).toEqual([expect.stringMatching(/^v1:/), expect.stringMatching(/^v1:/)]);
  });
});
