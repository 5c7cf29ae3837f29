import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restPointerOf } from '../../src/rest/routes.js';
import { PARTNER_POINTERS } from '../../src/modules/partners/rest-bodies.js';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';
import { graphqlFieldErrors, restFieldErrors } from '../support/clients/faces.js';

/**
 * For the partner whitelists: one use case, two faces. A rule of the domain fails
 * with the same code in REST (pointer into the Encryptus body) and GraphQL (path into `input`).
 */
let t: TestRamp;
let api: ApiClient;
let partners = 0;

const WALLET = '/v1/partners/forensics/whitelist/walletAddress';
const BANK = '/v1/partners/forensics/whitelist/bankAccount';
const EIP55 = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
// Upper case: GraphQL's enum names, which the Encryptus REST bodies accept too (any case).
const wallet = (overrides: Record<string, unknown> = {}) => ({ address: EIP55, coin: 'USDC', network: 'POLYGON', label: 'Treasury', ...overrides });
const bank = (overrides: Record<string, unknown> = {}) => ({
  accountHolderName: 'Acme GmbH',
  accountHolderAddress: 'Friedrichstrasse 1, 10117 Berlin',
  beneficiaryBankName: 'Commerzbank',
  beneficiaryBankAddress: 'Kaiserplatz, 60311 Frankfurt',
  beneficiaryBankCountry: 'DE',
  bankAccountNumber: 'DE89 3704 0044 0532 0130 00',
  bicSwift: 'COBADEFFXXX',
  fiatCurrency: 'EUR',
  ...overrides,
});

beforeAll(async () => {
  t = await startRamp();
  api = t.client(t.key);
});
afterAll(() => t.close());

const freshPartner = async () => t.client(await t.keyFor(`Faces partner ${++partners}`, 'sandbox'));

/** The one 400's field errors (Encryptus envelope) as `pointer code` lines, sorted. */

const WHITELIST_WALLET = `mutation ($input: WhitelistWalletAddressInput!) {
  whitelistWalletAddress(input: $input) { __typename ... on ValidationError { code fieldErrors { path code message } } }
}`;
const WHITELIST_BANK = `mutation ($input: WhitelistBankAccountInput!) {
  whitelistBankAccount(input: $input) { __typename ... on ValidationError { code fieldErrors { path code message } } }
}`;

describe('REST face', () => {
  it('points a BIC of another country than the IBAN at /bicSwift of the body, in its camelCase spelling', async () => {
    expect(restFieldErrors(await api.post(BANK, bank({ bicSwift: 'BNPAFRPP' })))).toEqual(['/bicSwift bic_country_mismatch']);
  });

  it('reports the rule across fields with every other problem of the body in one 400', async () => {
    const res = await api.post(BANK, bank({ bicSwift: 'BNPAFRPP', accountHolderName: ' ', fiatCurrency: 'GBP', memo: 'x' }));
    expect(restFieldErrors(res)).toEqual([
      '/accountHolderName too_small',
      '/bicSwift bic_country_mismatch',
      '/fiatCurrency invalid_enum_value',
      '/memo unrecognized_keys',
    ]);
  });

  it('reports a wrong address for its network with the other fields’ problems', async () => {
    const res = await api.post(WALLET, { address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD', network: 'Polygon', coin: 'btc' });
    expect(restFieldErrors(res)).toEqual(['/address invalid_address', '/coin invalid_enum_value', '/label required']);
  });

  it('keeps the domain’s camelCase pointers as they are: the Encryptus body spells its fields the same way', () => {
    expect(restPointerOf('/bankAccountNumber', PARTNER_POINTERS)).toBe('/bankAccountNumber');
    expect(restPointerOf('/bicSwift', PARTNER_POINTERS)).toBe('/bicSwift');
    expect(restPointerOf('/label', PARTNER_POINTERS)).toBe('/label');
  });
});

describe('GraphQL face', () => {
  it('names the BIC by its path in input', async () => {
    expect(await graphqlFieldErrors(api, WHITELIST_BANK, 'whitelistBankAccount', { input: bank({ bicSwift: 'BNPAFRPP' }) })).toEqual([
      '/bicSwift bic_country_mismatch',
    ]);
  });

  it('reports several problems of the input in one ValidationError', async () => {
    const errors = await graphqlFieldErrors(api, WHITELIST_BANK, 'whitelistBankAccount', {
      input: bank({ bicSwift: 'BNPAFRPP', accountHolderName: ' ', beneficiaryBankName: '', bankAccountNumber: 'DE89 3704 0044 0532 0130 00' }),
    });
    expect(errors).toEqual(['/accountHolderName too_small', '/beneficiaryBankName too_small', '/bicSwift bic_country_mismatch']);
    const walletErrors = await graphqlFieldErrors(api, WHITELIST_WALLET, 'whitelistWalletAddress', {
      input: wallet({ address: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU8', network: 'TRON', coin: 'USDT', label: '' }),
    });
    expect(walletErrors).toEqual(['/address invalid_address', '/label too_small']);
  });

  it('refuses a currency or coin outside its enum as a GraphQL error, before the use case runs', async () => {
    for (const [mutation, input] of [
      [WHITELIST_BANK, bank({ fiatCurrency: 'GBP' })],
      [WHITELIST_WALLET, wallet({ coin: 'doge' })],
    ] as const) {
      const res = await api.graphql(mutation, { input });
      expect(res.body.data).toBeUndefined();
      expect(res.body.errors?.[0]).toMatchObject({ message: expect.stringContaining('input.'), extensions: { code: expect.any(String) } });
    }
  });
});

describe('both faces', () => {
  it('fail one rule with the same code and the same sentence', async () => {
    const input = bank({ bicSwift: 'BNPAFRPP', bankAccountNumber: '123' });
    const rest = await api.post(BANK, input);
    const gql = await api.graphql(WHITELIST_BANK, { input });
    const restByField = Object.fromEntries(
      (rest.body.data.errors as { pointer: string; code: string; detail: string }[]).map((e) => [e.pointer, [e.code, e.detail]]),
    );
    const gqlByField = Object.fromEntries(
      (gql.body.data.whitelistBankAccount.fieldErrors as { path: string; code: string; message: string }[]).map((e) => [e.path, [e.code, e.message]]),
    );
    expect(gqlByField).toEqual(restByField);
    expect(gqlByField['/bankAccountNumber']?.[0]).toBe('invalid_account_number');
  });

  it('store the same entry whichever face sent it', async () => {
    const viaRest = await freshPartner();
    const viaGraphql = await freshPartner();
    expect((await viaRest.post(WALLET, wallet())).status).toBe(200);
    const gql = await viaGraphql.graphql(WHITELIST_WALLET, { input: wallet() });
    expect(gql.body.data.whitelistWalletAddress.__typename).toBe('WhitelistWalletAddressPayload');
    const rows = await t.sql<{ address: string; coin: string; network: string; label: string }>(
      'select address, coin, network, label from whitelisted_wallet_addresses where label = ? order by created_at',
      ['Treasury'],
    );
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual(rows[1]);
    expect(rows[0]).toEqual({ address: EIP55, coin: 'usdc', network: 'polygon', label: 'Treasury' });
  });
});
