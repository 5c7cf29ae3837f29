import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidAddress } from '../../src/domain/identifiers/chain.js';
import { NETWORKS } from '../../src/domain/money.js';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';

let t: TestRamp;
let api: ApiClient;

const WALLET = '/v1//partners/forensics/whitelist/walletAddress';
const BANK = '/v1//partners/forensics/whitelist/bankAccount';
const ACCOUNT_INFO = '/v1/partners/accountInfo';

const EIP55 = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const TRON = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
const SOLANA = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const wallet = (overrides: Record<string, unknown> = {}) => ({ address: EIP55, coin: 'USDC', network: 'polygon', label: 'Treasury', ...overrides });

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

/** A partner of its own, so that list assertions see only what the test made. */
let partners = 0;
const freshPartner = async (environment: 'sandbox' | 'production' = 'sandbox') => t.client(await t.keyFor(`Partner ${++partners}`, environment));

function expectBadRequest(res: { status: number; body: any }, pointer: string, code: string) {
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ success: false, status: 400, code: 'EN-DATA-009', message: 'Bad Request' });
  expect(res.body.data.errors).toContainEqual(expect.objectContaining({ pointer, code }));
}

beforeAll(async () => {
  t = await startRamp();
  api = t.client(t.key);
});
afterAll(() => t.close());

describe('POST /v1//partners/forensics/whitelist/walletAddress', () => {
  it('whitelists an address and answers 200 in the Encryptus envelope with the stored entry', async () => {
    const own = await freshPartner();
    const res = await own.post(WALLET, wallet());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, status: 200, code: 'EN-SUCCESS-001', message: 'Wallet address whitelisted successfully' });
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      address: EIP55,
      coin: 'usdc',
      network: 'polygon',
      label: 'Treasury',
      createdAt: expect.any(String),
    });
    const [stored] = await t.sql<{ address: string; coin: string; network: string }>(
      'select address, coin, network from whitelisted_wallet_addresses where id = ?',
      [res.body.data.id],
    );
    expect(stored).toEqual({ address: EIP55, coin: 'usdc', network: 'polygon' });
  });

  it('answers at the single-slash spelling of the path too', async () => {
    const res = await (await freshPartner()).post('/v1/partners/forensics/whitelist/walletAddress', wallet());
    expect(res.status).toBe(200);
    expect(res.body.data.address).toBe(EIP55);
  });

  it.each([
    ['a Tron address', { address: TRON, network: 'tron', coin: 'usdt' }],
    ['a Solana address', { address: SOLANA, network: 'solana' }],
    ['an all-lower-case (non-checksummed) EVM address', { address: EIP55.toLowerCase(), network: 'ethereum' }],
    ['coin and network in any letter case', { coin: 'UsDt', network: 'ARBITRUM' }],
  ])('accepts %s', async (_what, overrides) => {
    const res = await (await freshPartner()).post(WALLET, wallet(overrides));
    expect(res.status).toBe(200);
  });

  it.each([
    ['an EVM address with a broken EIP-55 checksum', { address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD' }, '/address', 'invalid_address'],
    ['a Tron address with a broken checksum', { address: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU8', network: 'tron' }, '/address', 'invalid_address'],
    [
      'a Solana address that is not base58 of 32 bytes',
      { address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt10', network: 'solana' },
      '/address',
      'invalid_address',
    ],
    ['an EVM address on Solana', { network: 'solana' }, '/address', 'invalid_address'],
    ['an unknown coin', { coin: 'DOGE' }, '/coin', 'invalid_enum_value'],
    ['an unknown network', { network: 'bitcoin' }, '/network', 'invalid_enum_value'],
    ['a missing label', { label: undefined }, '/label', 'required'],
    ['a missing address', { address: undefined }, '/address', 'required'],
    ['an empty label', { label: '  ' }, '/label', 'too_small'],
    ['an unknown field', { memo: 'x' }, '/memo', 'unrecognized_keys'],
  ])('refuses %s with 400 EN-DATA-009 naming the field', async (_what, overrides, pointer, code) => {
    expectBadRequest(await api.post(WALLET, wallet(overrides)), pointer, code);
  });

  it('refuses a number where a string is required with 400 EN-DATA-009 naming the field', async () => {
    const res = await api.post(WALLET, wallet({ coin: 1 }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'EN-DATA-009' });
    // The field code is checked loosely: parseInput currently reports every invalid_type as `required`.
    expect(res.body.data.errors).toEqual([expect.objectContaining({ pointer: '/coin' })]);
  });

  it('reports every failing field at once', async () => {
    const res = await api.post(WALLET, { address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD', network: 'polygon', coin: 'btc' });
    expect(res.status).toBe(400);
    expect(res.body.data.errors.map((e: any) => e.pointer).sort()).toEqual(['/address', '/coin', '/label']);
  });

  it('refuses a duplicate (same address, coin and network, in any letter case) with 400 EN-STATE-004', async () => {
    const own = await freshPartner();
    expect((await own.post(WALLET, wallet())).status).toBe(200);
    for (const again of [wallet({ label: 'Other label' }), wallet({ address: EIP55.toLowerCase(), coin: 'usdc' })]) {
      const res = await own.post(WALLET, again);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, status: 400, code: 'EN-STATE-004', data: { error: 'wallet_address_already_whitelisted' } });
    }
    expect((await own.post(WALLET, wallet({ coin: 'usdt' }))).status).toBe(200);
    expect((await own.post(WALLET, wallet({ network: 'base' }))).status).toBe(200);
  });

  it('whitelists exactly once when identical requests race', async () => {
    const own = await freshPartner();
    const results = await Promise.all(Array.from({ length: 6 }, () => own.post(WALLET, wallet())));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.body.code === 'EN-STATE-004')).toHaveLength(5);
  });

  it('lets another partner whitelist the same address', async () => {
    const address = { address: TRON, network: 'tron', coin: 'usdt' };
    expect((await (await freshPartner()).post(WALLET, wallet(address))).status).toBe(200);
    expect((await (await freshPartner()).post(WALLET, wallet(address))).status).toBe(200);
  });

  it('replays the first response when the same Idempotency-Key is sent twice', async () => {
    const own = await freshPartner();
    const first = await own.post(WALLET, wallet(), { 'idempotency-key': 'wl-wallet-1' });
    const second = await own.post(WALLET, wallet(), { 'idempotency-key': 'wl-wallet-1' });
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
  });
});

describe('POST /v1//partners/forensics/whitelist/bankAccount', () => {
  it('whitelists an IBAN account and answers 200 with the number in clear, in electronic format', async () => {
    const res = await (await freshPartner()).post(BANK, bank());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, status: 200, code: 'EN-SUCCESS-001', message: 'Bank account whitelisted successfully' });
    expect(res.body.data).toEqual({
      id: expect.any(String),
      accountHolderName: 'Acme GmbH',
      accountHolderAddress: 'Friedrichstrasse 1, 10117 Berlin',
      beneficiaryBankName: 'Commerzbank',
      beneficiaryBankAddress: 'Kaiserplatz, 60311 Frankfurt',
      beneficiaryBankCountry: 'DE',
      bankAccountNumber: 'DE89370400440532013000',
      bicSwift: 'COBADEFFXXX',
      fiatCurrency: 'eur',
      createdAt: expect.any(String),
    });
  });

  it('answers at the single-slash spelling of the path too', async () => {
    const res = await (await freshPartner()).post('/v1/partners/forensics/whitelist/bankAccount', bank());
    expect(res.status).toBe(200);
  });

  it.each([
    ['a US account number with an 8-character BIC', { bankAccountNumber: '000123456789', bicSwift: 'chasus33', fiatCurrency: 'usd' }],
    ['a UAE IBAN', { bankAccountNumber: 'AE070331234567890123456', bicSwift: 'EBILAEAD', fiatCurrency: 'AED' }],
  ])('accepts %s', async (_what, overrides) => {
    const res = await (await freshPartner()).post(BANK, bank(overrides));
    expect(res.status).toBe(200);
  });

  it.each([
    ['an IBAN with a wrong check digit', { bankAccountNumber: 'DE89370400440532013001' }, '/bankAccountNumber', 'invalid_iban'],
    ['an IBAN of the wrong length for its country', { bankAccountNumber: 'DE8937040044053201300' }, '/bankAccountNumber', 'invalid_iban'],
    ['an account number of 3 digits', { bankAccountNumber: '123' }, '/bankAccountNumber', 'invalid_account_number'],
    ['an account number with letters', { bankAccountNumber: '12AB5678' }, '/bankAccountNumber', 'invalid_account_number'],
    ['a malformed BIC', { bicSwift: 'COBA1EFF' }, '/bicSwift', 'invalid_bic'],
    ['a BIC of 9 characters', { bicSwift: 'COBADEFFX' }, '/bicSwift', 'invalid_bic'],
    ['a BIC of another country than the IBAN', { bicSwift: 'BNPAFRPP' }, '/bicSwift', 'bic_country_mismatch'],
    ['an unknown currency', { fiatCurrency: 'GBP' }, '/fiatCurrency', 'invalid_enum_value'],
    ...(
      [
        'accountHolderName',
        'accountHolderAddress',
        'beneficiaryBankName',
        'beneficiaryBankAddress',
        'beneficiaryBankCountry',
        'bankAccountNumber',
        'bicSwift',
        'fiatCurrency',
      ] as const
    ).map((field) => [`a missing ${field}`, { [field]: undefined }, `/${field}`, 'required'] as [string, Record<string, unknown>, string, string]),
  ])('refuses %s with 400 EN-DATA-009 naming the field', async (_what, overrides, pointer, code) => {
    expectBadRequest(await api.post(BANK, bank(overrides)), pointer, code);
  });

  it('never repeats the account number in an error', async () => {
    const res = await api.post(BANK, bank({ bankAccountNumber: 'DE89370400440532013001' }));
    expect(JSON.stringify(res.body)).not.toContain('0532013001');
  });

  it('refuses a duplicate with 400 EN-STATE-004, counting BIC8 and BIC11 with branch XXX as one bank', async () => {
    const own = await freshPartner();
    expect((await own.post(BANK, bank())).status).toBe(200);
    for (const again of [bank({ accountHolderName: 'Renamed' }), bank({ bicSwift: 'COBADEFF', bankAccountNumber: 'de89370400440532013000' })]) {
      const res = await own.post(BANK, again);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'EN-STATE-004', data: { error: 'bank_account_already_whitelisted' } });
    }
    expect((await own.post(BANK, bank({ fiatCurrency: 'usd' }))).status).toBe(200);
  });
});

describe('GET /v1/partners/accountInfo', () => {
  it('answers 200 with every spec 2.7 field under info and the success message', async () => {
    const own = await freshPartner();
    const customer = await own.post('/v0/customers', { email: 'ada@example.com', type: 'individual', first_name: 'Ada', last_name: 'Lovelace' });
    await own.post(WALLET, wallet());
    await own.post(BANK, bank());

    const res = await own.get(ACCOUNT_INFO);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, status: 200, code: 'EN-SUCCESS-001', message: 'Partner info fetched successfully' });
    const { info } = res.body;
    expect(Object.keys(info).sort()).toEqual(
      [
        'enterpriseName',
        'clientRepresentiveEmail',
        'clientRepresentivePhoneNo',
        'enterpriseLocation',
        'client_ID',
        'grant_services',
        'active_env',
        'whitelisted_bankAccount_list',
        'whitelisted_walletAddress_list',
        'user_list',
        'deposit_addresses',
        'reserved_fiat',
        'reserved_crypto',
        'crypto_threshold',
      ].sort(),
    );
    const [partner] = await t.sql<{ name: string; client_id: string }>('select name, client_id from partners where name = ?', [`Partner ${partners}`]);
    expect(info).toMatchObject({
      enterpriseName: partner!.name,
      client_ID: partner!.client_id,
      grant_services: 'QUOTESANDORDERS',
      active_env: 'sandbox',
      clientRepresentiveEmail: null,
    });
    expect(info.user_list).toEqual([
      expect.objectContaining({
        customer_id: customer.body.customer_id,
        email: 'ada@example.com',
        type: 'individual',
        first_name: 'Ada',
        last_name: 'Lovelace',
        kycs: expect.objectContaining({ status_breakdown: expect.any(Array) }),
      }),
    ]);
    expect(info.whitelisted_walletAddress_list).toEqual([expect.objectContaining({ address: EIP55, coin: 'usdc', network: 'polygon' })]);
    expect(info.whitelisted_bankAccount_list).toEqual([expect.objectContaining({ bankAccountNumber: '…3000', bicSwift: 'COBADEFFXXX' })]);
    expect(info.reserved_fiat).toEqual([
      { currency: 'usd', balance: '0.00' },
      { currency: 'eur', balance: '0.00' },
      { currency: 'aed', balance: '0.00' },
    ]);
    expect(info.reserved_crypto).toEqual([
      { coin: 'usdc', balance: '0.000000' },
      { coin: 'usdt', balance: '0.000000' },
    ]);
    expect(info.crypto_threshold).toContainEqual({ coin: 'usdc', minimumThreshold: '0.000000', currentBalance: '0.000000', remainingBalance: '0.000000' });
  });

  it('shows the demo partner record as stored', async () => {
    const res = await api.get(ACCOUNT_INFO);
    expect(res.body.info).toMatchObject({ enterpriseName: 'Demo Partner', clientRepresentiveEmail: 'demo@partner.example', enterpriseLocation: 'Sandbox' });
  });

  it('lists one valid, stable sandbox deposit address per network', async () => {
    const own = await freshPartner();
    const first = (await own.get(ACCOUNT_INFO)).body.info.deposit_addresses;
    expect(first.map((d: any) => d.network)).toEqual([...NETWORKS]);
    for (const d of first) {
      expect(isValidAddress(d.network, d.address)).toBe(true);
      expect(d.coins).toEqual(['usdc', 'usdt']);
    }
    expect((await own.get(ACCOUNT_INFO)).body.info.deposit_addresses).toEqual(first);
    const other = (await (await freshPartner()).get(ACCOUNT_INFO)).body.info.deposit_addresses;
    expect(other[0].address).not.toBe(first[0].address);
  });

  it('answers at the double-slash spelling too', async () => {
    expect((await api.get('/v1//partners/accountInfo')).status).toBe(200);
  });
});

describe('authentication and tenancy', () => {
  it.each([
    ['GET', ACCOUNT_INFO],
    ['POST', WALLET],
    ['POST', BANK],
  ])('answers 401 EN-AUTH-001 to %s %s without a key or with a wrong key', async (method, path) => {
    for (const client of [t.client(null as never), t.client('rk_sandbox_AAAAAAAAaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa')]) {
      const res = await client.request(method, path, method === 'POST' ? { body: wallet() } : {});
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ success: false, status: 401, code: 'EN-AUTH-001' });
    }
  });

  it("does not show one partner's customers or whitelists to another", async () => {
    const first = await freshPartner();
    const second = await freshPartner();
    await first.post('/v0/customers', { email: 'first@example.com', type: 'corporate', company_name: 'First Co' });
    await first.post(WALLET, wallet());
    await first.post(BANK, bank());
    const info = (await second.get(ACCOUNT_INFO)).body.info;
    expect(info.user_list).toEqual([]);
    expect(info.whitelisted_walletAddress_list).toEqual([]);
    expect(info.whitelisted_bankAccount_list).toEqual([]);
  });

  it('keeps production apart from the sandbox: nothing from one shows in the other, and production lists no deposit address', async () => {
    const name = `Partner ${++partners}`;
    const sandbox = t.client(await t.keyFor(name, 'sandbox'));
    const production = t.client(await t.keyFor(name, 'production'));
    await sandbox.post('/v0/customers', { email: 'sandbox@example.com', type: 'corporate', company_name: 'Sandbox Co' });
    await sandbox.post(WALLET, wallet());
    await sandbox.post(BANK, bank());
    const info = (await production.get(ACCOUNT_INFO)).body.info;
    expect(info).toMatchObject({
      enterpriseName: name,
      active_env: 'production',
      user_list: [],
      whitelisted_walletAddress_list: [],
      whitelisted_bankAccount_list: [],
      deposit_addresses: [],
    });
    // The same entries are new in production, so not duplicates there.
    expect((await production.post(WALLET, wallet())).status).toBe(200);
    expect((await production.post(BANK, bank())).status).toBe(200);
  });
});

describe('partner over GraphQL', () => {
  const PARTNER = `{ partner {
    id databaseId name email phone location clientId grantServices platformFeeBps activeEnvironment
    whitelistedWalletAddresses { totalCount edges { node { id databaseId address coin network label createdAt } } }
    whitelistedBankAccounts { totalCount edges { node { id databaseId accountHolderName bankAccountNumber bicSwift fiatCurrency } } }
    depositAddresses { network address coins }
    reservedFiat { currency balance }
    reservedCrypto { coin balance }
    cryptoThresholds { coin minimumThreshold currentBalance remainingBalance }
  } }`;
  const WHITELIST_WALLET = `mutation($input: WhitelistWalletAddressInput!) {
    whitelistWalletAddress(input: $input) {
      __typename
      ... on WhitelistWalletAddressPayload { whitelistedWalletAddress { id databaseId address coin network label } }
      ... on Error { code message }
      ... on ValidationError { fieldErrors { path code } }
    }
  }`;
  const WHITELIST_BANK = `mutation($input: WhitelistBankAccountInput!) {
    whitelistBankAccount(input: $input) {
      __typename
      ... on WhitelistBankAccountPayload { whitelistedBankAccount { id databaseId bankAccountNumber bicSwift fiatCurrency } }
      ... on Error { code message }
      ... on ValidationError { fieldErrors { path code } }
    }
  }`;
  /** The partner with its whitelist connections read as lists (every entry fits one page here). */
  const partnerOf = async (client: ApiClient) => {
    const res = await client.graphql(PARTNER);
    expect(res.body.errors).toBeUndefined();
    const { whitelistedWalletAddresses: wallets, whitelistedBankAccounts: banks, ...partner } = res.body.data.partner;
    expect(wallets.totalCount).toBe(wallets.edges.length);
    expect(banks.totalCount).toBe(banks.edges.length);
    const nodes = (connection: { edges: { node: unknown }[] }) => connection.edges.map((e) => e.node);
    return { ...partner, whitelistedWalletAddresses: nodes(wallets), whitelistedBankAccounts: nodes(banks) };
  };
  /** The REST fixtures in GraphQL's spelling: enums in SCREAMING_SNAKE. */
  const gqlWallet = (overrides: Record<string, unknown> = {}) => wallet({ coin: 'USDC', network: 'POLYGON', ...overrides });
  const gqlBank = (overrides: Record<string, unknown> = {}) => bank({ fiatCurrency: 'EUR', ...overrides });

  it('whitelists through the same service as REST and reads it back on partner, with the number masked', async () => {
    const own = await freshPartner();
    const w = await own.graphql(WHITELIST_WALLET, { input: gqlWallet({ address: SOLANA, network: 'SOLANA' }) });
    expect(w.body.data.whitelistWalletAddress).toMatchObject({
      __typename: 'WhitelistWalletAddressPayload',
      whitelistedWalletAddress: { address: SOLANA, network: 'SOLANA', coin: 'USDC' },
    });
    const b = await own.graphql(WHITELIST_BANK, { input: gqlBank() });
    expect(b.body.data.whitelistBankAccount.whitelistedBankAccount).toMatchObject({ bankAccountNumber: 'DE89370400440532013000', fiatCurrency: 'EUR' });

    const partner = await partnerOf(own);
    expect(partner).toMatchObject({ grantServices: ['QUOTESANDORDERS'], platformFeeBps: 0, activeEnvironment: 'SANDBOX' });
    expect(partner.whitelistedWalletAddresses).toEqual([
      expect.objectContaining({ id: w.body.data.whitelistWalletAddress.whitelistedWalletAddress.id, address: SOLANA }),
    ]);
    expect(partner.whitelistedBankAccounts).toEqual([expect.objectContaining({ bankAccountNumber: '…3000' })]);
    expect(partner.depositAddresses).toHaveLength(NETWORKS.length);
    expect(partner.reservedFiat).toContainEqual({ currency: 'USD', balance: '0.00' });
    expect(partner.reservedCrypto).toContainEqual({ coin: 'USDT', balance: '0.000000' });
    expect(partner.cryptoThresholds).toHaveLength(2);
    // The same object REST shows: ids joined through databaseId, enums the spec's lower-case values.
    const info = (await own.get(ACCOUNT_INFO)).body.info;
    expect(info.client_ID).toBe(partner.clientId);
    expect(info.whitelisted_walletAddress_list.map((e: any) => e.id)).toEqual(partner.whitelistedWalletAddresses.map((e: any) => e.databaseId));
    expect(info.whitelisted_bankAccount_list.map((e: any) => e.id)).toEqual(partner.whitelistedBankAccounts.map((e: any) => e.databaseId));
    expect(info.deposit_addresses).toEqual(
      partner.depositAddresses.map((d: any) => ({ ...d, network: d.network.toLowerCase(), coins: d.coins.map((c: string) => c.toLowerCase()) })),
    );
    const [stored] = await t.sql<{ id: string }>('select id from partners where client_id = ?', [partner.clientId]);
    expect(partner.databaseId).toBe(stored!.id);
  });

  it('returns typed errors: ValidationError with field paths, ConflictError for a duplicate', async () => {
    const own = await freshPartner();
    const invalid = await own.graphql(WHITELIST_WALLET, {
      input: gqlWallet({ address: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU8', network: 'TRON', coin: 'USDT', label: ' ' }),
    });
    expect(invalid.body.data.whitelistWalletAddress.__typename).toBe('ValidationError');
    expect(invalid.body.data.whitelistWalletAddress.fieldErrors).toEqual(
      expect.arrayContaining([
        { path: '/label', code: 'too_small' },
        { path: '/address', code: 'invalid_address' },
      ]),
    );
    const badBank = await own.graphql(WHITELIST_BANK, { input: gqlBank({ bicSwift: 'NOPE', bankAccountNumber: 'DE00370400440532013000' }) });
    expect(badBank.body.data.whitelistBankAccount.fieldErrors).toEqual(
      expect.arrayContaining([
        { path: '/bicSwift', code: 'invalid_bic' },
        { path: '/bankAccountNumber', code: 'invalid_iban' },
      ]),
    );

    expect((await own.graphql(WHITELIST_BANK, { input: gqlBank() })).body.data.whitelistBankAccount.__typename).toBe('WhitelistBankAccountPayload');
    const duplicate = await own.graphql(WHITELIST_BANK, { input: gqlBank() });
    expect(duplicate.body.data.whitelistBankAccount).toMatchObject({ __typename: 'ConflictError', code: 'BANK_ACCOUNT_ALREADY_WHITELISTED' });
  });

  it('refuses a coin, network or currency outside its enum before anything runs', async () => {
    const own = await freshPartner();
    for (const [mutation, input] of [
      [WHITELIST_WALLET, gqlWallet({ coin: 'DOGE' })],
      [WHITELIST_WALLET, gqlWallet({ network: 'BITCOIN' })],
      [WHITELIST_BANK, gqlBank({ fiatCurrency: 'GBP' })],
    ] as const) {
      const res = await own.graphql(mutation, { input });
      expect(res.body.data).toBeUndefined();
      expect(res.body.errors?.[0]?.message).toMatch(/Value "(DOGE|BITCOIN|GBP)" does not exist/);
    }
    expect((await partnerOf(own)).whitelistedWalletAddresses).toEqual([]);
  });

  it('replays a mutation sent again with the same idempotencyKey', async () => {
    const own = await freshPartner();
    const first = await own.graphql(WHITELIST_BANK, { input: gqlBank({ idempotencyKey: 'gql-wl-1' }) });
    const second = await own.graphql(WHITELIST_BANK, { input: gqlBank({ idempotencyKey: 'gql-wl-1' }) });
    expect(second.body.data.whitelistBankAccount).toEqual(first.body.data.whitelistBankAccount);
    const reused = await own.graphql(WHITELIST_BANK, { input: gqlBank({ fiatCurrency: 'USD', idempotencyKey: 'gql-wl-1' }) });
    expect(reused.body.data.whitelistBankAccount).toMatchObject({ __typename: 'UnprocessableError', code: 'IDEMPOTENCY_KEY_REUSED' });
  });

  it("shows a partner only its own whitelists, and the production key's environment", async () => {
    const first = await freshPartner();
    await first.graphql(WHITELIST_WALLET, { input: gqlWallet() });
    const second = await partnerOf(await freshPartner());
    expect(second.whitelistedWalletAddresses).toEqual([]);
    const production = await partnerOf(await freshPartner('production'));
    expect(production).toMatchObject({ activeEnvironment: 'PRODUCTION', depositAddresses: [] });
  });
});
