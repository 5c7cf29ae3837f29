import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { sandboxAddress } from '../../src/domain/identifiers/chain.js';
import type { ApiClient, TestRamp } from '../support/ramp.js';
import {
  ageQuote,
  ageTransfer,
  createCustomer,
  ibanAccount,
  idempotencyKey,
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

const path = (customer = customerId) => `/v0/customers/${customer}/offramp-transfer`;
const withDestination = { destination_bank_account: ibanAccount(), transfer_purpose: 'personal_expenses' };
const AE_IBAN = { bic: 'EBILAEADXXX', iban_number: 'AE070331234567890123456' };

async function quote(overrides: Record<string, unknown> = {}, customer = customerId) {
  const res = await api.post(`${path(customer)}/quote`, offrampQuoteBody(overrides), idempotencyKey());
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}
/** A pending off-ramp transfer (created with its quote), as GET shows it. */
async function pendingTransfer(overrides: Record<string, unknown> = {}, customer = customerId) {
  // Tron offers USDT only (USDC is no longer issued there).
  const token = overrides.source_network === 'tron' ? { source_token: 'usdt' } : {};
  const q = await quote({ ...withDestination, ...token, ...overrides }, customer);
  return (await api.get(`${path(customer)}/${q.transfer_id}`)).body;
}
const complete = (transferId: string, hash: string, headers: Record<string, string> = idempotencyKey(), customer = customerId) =>
  api.post(`${path(customer)}/${transferId}/complete`, { deposit_transaction_hash: hash }, headers);

describe('POST /v0/customers/{customer_id}/offramp-transfer/quote', () => {
  it('answers 201 with a bare quote (BySourceAmount) and no transfer', async () => {
    const res = await api.post(`${path()}/quote`, offrampQuoteBody(), idempotencyKey());
    expect(res.status).toBe(201);
    // 100 USDC → EUR at 1/1.08: fees 0.50 + 1.00 + 0.05 USDC; 98.45 × 0.92592593 = 91.157407… → 91.15 (down).
    expect(res.body).toEqual({
      quote_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      customer_id: customerId,
      source_amount: '100.000000',
      source_token: 'usdc',
      source_network: 'polygon',
      destination_amount: '91.15',
      destination_currency: 'eur',
      destination_payment_rails: 'sepa',
      exchange_rate: '0.92592593',
      fee_amount: '1.550000',
      fee_breakdown: { currency: 'usdc', platform_fee: '0.500000', developer_fee: '1.000000', network_fee: '0.050000' },
      developer_fee_percent: '1',
      expire_at: expect.any(String),
      created_at: expect.any(String),
      transfer_id: null,
      transfer: null,
    });
  });

  it('prices ByDestinationAmount: the tokens to send, rounded up', async () => {
    const q = await quote({ source_amount: undefined, destination_amount: '91.15' });
    expect(q.destination_amount).toBe('91.15');
    // The smallest USDC amount that still pays out 91.15 EUR: fees 0.499960 + 0.999919 + 0.05 leave
    // 98.442000 × 0.92592593 = 91.1500004…; one unit less leaves 98.441999 → 91.14.
    expect(q.source_amount).toBe('99.991879');
    expect(q.fee_amount).toBe('1.549879');
  });

  it('answers 400 idempotency_key_missing without an Idempotency-Key', async () => {
    const res = await api.post(`${path()}/quote`, offrampQuoteBody());
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('idempotency_key_missing');
  });

  it('creates the transfer at once when the quote names an inline destination and a purpose', async () => {
    const q = await quote(withDestination);
    expect(q.transfer_id).toMatch(/^[0-9a-f-]{36}$/);
    const transfer = await api.get(`${path()}/${q.transfer_id}`);
    expect(transfer.status).toBe(200);
    expect(transfer.body).toMatchObject({ status: 'pending', quote: { quote_id: q.quote_id } });
  });

  it('answers with the created transfer under `transfer`: what GET shows, the payout account in full', async () => {
    const q = await quote(withDestination);
    expect(q.transfer).toMatchObject({
      id: q.transfer_id,
      status: 'pending',
      quote: { quote_id: q.quote_id, deposit_blockchain_address: sandboxAddress('polygon', q.transfer_id), deposit_transaction_hash: null },
      deposit_expire_at: expect.any(String),
    });
    const read = (await api.get(`${path()}/${q.transfer_id}`)).body;
    // The response that creates the transfer is the only one with the full numbers, as for POST …/quote/{quote_id}.
    expect(q.transfer.destination_bank_account.iban).toEqual({ bic: 'DEUTDEFFXXX', iban_number: 'DE89370400440532013000' });
    expect(read).toEqual({
      ...q.transfer,
      destination_bank_account: { ...q.transfer.destination_bank_account, iban: { bic: 'DEUTDEFFXXX', iban_number: '…3000' } },
    });
  });

  it('replays the quote response with its transfer byte for byte for the same Idempotency-Key', async () => {
    const send = () =>
      fetch(`${t.url}${path()}/quote`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify(offrampQuoteBody(withDestination)),
      });
    const key = `quote-replay-${Date.now()}`;
    const first = await send();
    const firstText = await first.text();
    const replay = await send();
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.text()).toBe(firstText);
    expect(JSON.parse(firstText).transfer.id).toBe(JSON.parse(firstText).transfer_id);
    expect(await t.sql('select id from transfers where quote_id = ?', [JSON.parse(firstText).quote_id])).toHaveLength(1);
  });

  it('creates the transfer at once to a registered external account of the customer', async () => {
    const account = await api.post(`/v0/customers/${customerId}/external-accounts`, ibanAccount(), idempotencyKey());
    expect(account.status).toBe(201);
    const q = await quote({ destination_external_account_id: account.body.id, transfer_purpose: 'salaries' });
    const transfer = (await api.get(`${path()}/${q.transfer_id}`)).body;
    expect(transfer).toMatchObject({ destination_external_account_id: account.body.id, transfer_purpose: 'salaries' });
    expect(transfer.destination_bank_account).toMatchObject({ account_type: 'iban', iban: { bic: 'DEUTDEFFXXX', iban_number: '…3000' } });
  });

  it.each([
    ['a destination without a purpose', { destination_bank_account: ibanAccount() }, '/transfer_purpose', 'required'],
    ['a purpose without a destination', { transfer_purpose: 'charity' }, '/destination_external_account_id', 'required'],
    [
      'two destinations',
      { ...withDestination, destination_external_account_id: '00000000-0000-4000-8000-000000000000' },
      '/destination_bank_account',
      'mutually_exclusive',
    ],
    ['a purpose outside Align’s list', { ...withDestination, transfer_purpose: 'gambling' }, '/transfer_purpose', 'invalid_enum_value'],
    [
      'an account with a bad IBAN',
      { ...withDestination, destination_bank_account: ibanAccount({ iban: { bic: 'DEUTDEFFXXX', iban_number: 'DE88370400440532013000' } }) },
      '/destination_bank_account/iban/iban_number',
      'invalid_iban',
    ],
    [
      'an IBAN whose BIC is of another country',
      { ...withDestination, destination_bank_account: ibanAccount({ iban: { bic: 'INGBNL2A', iban_number: 'DE89370400440532013000' } }) },
      '/destination_bank_account/iban/bic',
      'bic_country_mismatch',
    ],
    [
      'a SEPA payout to an IBAN outside SEPA',
      { ...withDestination, destination_bank_account: ibanAccount({ iban: AE_IBAN }) },
      '/destination_bank_account/iban/iban_number',
      'account_not_reachable_by_rails',
    ],
    [
      'a UAEFTS payout to a German IBAN',
      { ...withDestination, destination_currency: 'aed', destination_payment_rails: 'uaefts' },
      '/destination_bank_account/iban/iban_number',
      'account_not_reachable_by_rails',
    ],
    [
      'a US account for SEPA',
      {
        ...withDestination,
        destination_bank_account: ibanAccount({ account_type: 'us', iban: undefined, us: { account_number: '123456789', routing_number: '021000021' } }),
      },
      '/destination_bank_account/account_type',
      'account_type_not_supported',
    ],
    ['both amounts', { destination_amount: '10' }, '/source_amount', 'mutually_exclusive'],
    ['a token amount with 7 places', { source_amount: '1.1234567' }, '/source_amount', 'too_many_decimals'],
    ['rails of another currency', { destination_payment_rails: 'uaefts' }, '/destination_payment_rails', 'unsupported_rails'],
    ['an unknown token', { source_token: 'eurc' }, '/source_token', 'invalid_enum_value'],
  ])('answers 400 for %s', async (_, overrides, pointer, code) => {
    const res = await api.post(`${path()}/quote`, offrampQuoteBody(overrides), idempotencyKey());
    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual(expect.objectContaining({ pointer, code }));
  });

  it.each([
    ['UAEFTS to a UAE IBAN', { destination_currency: 'aed', destination_payment_rails: 'uaefts', destination_bank_account: ibanAccount({ iban: AE_IBAN }) }],
    [
      'SEPA to a Swiss IBAN (SEPA, outside the EU)',
      { destination_bank_account: ibanAccount({ iban: { bic: 'UBSWCHZH80A', iban_number: 'CH9300762011623852957' } }) },
    ],
  ])('pays %s', async (_, overrides) => {
    const q = await quote({ transfer_purpose: 'family', ...overrides });
    expect(q.transfer).toMatchObject({ status: 'pending' });
  });

  it('answers 400 account_not_reachable_by_rails for a registered account the rails cannot reach, creating nothing', async () => {
    const customer = await createCustomer(api);
    const account = await api.post(`/v0/customers/${customer}/external-accounts`, ibanAccount({ iban: AE_IBAN }), idempotencyKey());
    expect(account.status).toBe(201);
    const res = await api.post(
      `${path(customer)}/quote`,
      offrampQuoteBody({ destination_external_account_id: account.body.id, transfer_purpose: 'family' }),
      idempotencyKey(),
    );
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '/destination_external_account_id', code: 'account_not_reachable_by_rails' })]);
    expect(await t.sql('select id from quotes where customer_id = ?', [customer])).toHaveLength(0);
  });

  it("answers 404 for an unknown external account and for another customer's, creating no quote", async () => {
    const customer = await createCustomer(api);
    const other = await createCustomer(api);
    const theirs = await api.post(`/v0/customers/${other}/external-accounts`, ibanAccount(), idempotencyKey());
    for (const id of ['00000000-0000-4000-8000-000000000000', theirs.body.id]) {
      const res = await api.post(
        `${path(customer)}/quote`,
        offrampQuoteBody({ destination_external_account_id: id, transfer_purpose: 'family' }),
        idempotencyKey(),
      );
      expect(res.status).toBe(404);
    }
    expect(await t.sql('select id from quotes where customer_id = ?', [customer])).toHaveLength(0);
  });

  it('answers 422 kyc_not_approved for a customer not verified for the payout rails', async () => {
    const unverified = await createCustomer(api, { approved: false });
    const res = await api.post(`${path(unverified)}/quote`, offrampQuoteBody(), idempotencyKey());
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('kyc_not_approved');
  });

  it('answers 422 amount_out_of_range below the minimum', async () => {
    const res = await api.post(`${path()}/quote`, offrampQuoteBody({ source_amount: '0.99' }), idempotencyKey());
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('amount_out_of_range');
  });
});

describe('POST /v0/customers/{customer_id}/offramp-transfer/quote/{quote_id}', () => {
  it('creates the transfer of a bare quote: 201 with every off-ramp field and the account in full', async () => {
    const q = await quote();
    const res = await api.post(`${path()}/quote/${q.quote_id}`, withDestination);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: 'pending',
      amount: '100.000000',
      source_token: 'usdc',
      source_network: 'polygon',
      destination_currency: 'eur',
      destination_payment_rails: 'sepa',
      destination_amount: '91.15',
      transfer_purpose: 'personal_expenses',
      destination_external_account_id: null,
      destination_bank_account: {
        bank_name: 'Deutsche Bank',
        account_holder_type: 'individual',
        account_holder_first_name: 'Ada',
        account_holder_last_name: 'Lovelace',
        account_holder_business_name: null,
        account_holder_address: { country: 'DE', city: 'Berlin', street_line_1: 'Unter den Linden 1', postal_code: '10117' },
        account_type: 'iban',
        iban: { bic: 'DEUTDEFFXXX', iban_number: 'DE89370400440532013000' },
      },
      quote: {
        quote_id: q.quote_id,
        deposit_network: 'polygon',
        deposit_token: 'usdc',
        deposit_blockchain_address: sandboxAddress('polygon', res.body.id),
        deposit_amount: '100.000000',
        source_amount: '100.000000',
        destination_amount: '91.15',
        exchange_rate: '0.92592593',
        fee_amount: '1.550000',
        fee_breakdown: { currency: 'usdc', platform_fee: '0.500000', developer_fee: '1.000000', network_fee: '0.050000' },
        deposit_transaction_hash: null,
      },
      // Ramp's extension: the payout's UETR, once an ISO 20022 bank is asked to pay it (null with the in-process bank).
      uetr: null,
      customer_id: customerId,
      failure_reason: null,
      deposit_expire_at: expect.any(String),
      // Ramp's extension: the chain transaction's progress (null on a simulated network).
      confirmations: null,
      required_confirmations: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const read = await api.get(`${path()}/${res.body.id}`);
    expect(read.body).toEqual({
      ...res.body,
      destination_bank_account: { ...res.body.destination_bank_account, iban: { bic: 'DEUTDEFFXXX', iban_number: '…3000' } },
    });
  });

  it('answers 422 quote_used the second time, and 422 quote_expired for an old quote', async () => {
    const q = await quote();
    expect((await api.post(`${path()}/quote/${q.quote_id}`, withDestination)).status).toBe(201);
    const again = await api.post(`${path()}/quote/${q.quote_id}`, withDestination);
    expect(again.status).toBe(422);
    expect(again.body.code).toBe('quote_used');
    const old = await quote();
    await ageQuote(t, old.quote_id);
    const expired = await api.post(`${path()}/quote/${old.quote_id}`, withDestination);
    expect(expired.status).toBe(422);
    expect(expired.body.code).toBe('quote_expired');
  });

  it('answers 422 quote_used for a quote that already made its transfer at creation', async () => {
    const q = await quote(withDestination);
    const res = await api.post(`${path()}/quote/${q.quote_id}`, withDestination);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('quote_used');
  });

  it('answers 400 without a destination, and 404 for an on-ramp quote', async () => {
    const q = await quote();
    expect((await api.post(`${path()}/quote/${q.quote_id}`, { transfer_purpose: 'family' })).status).toBe(400);
    const onramp = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote`, onrampQuoteBody());
    expect((await api.post(`${path()}/quote/${onramp.body.quote_id}`, withDestination)).status).toBe(404);
  });
});

describe('POST /v0/customers/{customer_id}/offramp-transfer/{transfer_id}/complete', () => {
  it('moves pending → processing with the deposit transaction hash (200)', async () => {
    const transfer = await pendingTransfer();
    const hash = txHash('polygon');
    const res = await complete(transfer.id, hash);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: transfer.id, status: 'processing', quote: { deposit_transaction_hash: hash } });
    expect((await api.get(`${path()}/${transfer.id}`)).body).toEqual(res.body);
    const events = await t.sql<{ type: string; payload: any }>('select type, payload from events where entity_id = ? order by cursor', [transfer.id]);
    expect(events.map((e) => e.type)).toEqual(['offramp_transfer.created', 'offramp_transfer.status.updated']);
    expect(events[1]!.payload).toEqual(res.body);
    const history = await t.sql('select from_status, to_status, reason from transfer_status_history where transfer_id = ? order by id', [transfer.id]);
    expect(history).toEqual([
      { from_status: null, to_status: 'pending', reason: 'transfer_created' },
      { from_status: 'pending', to_status: 'processing', reason: 'deposit_transaction_submitted' },
    ]);
  });

  it.each([
    ['tron', txHash('tron'), `0x${'a'.repeat(64)}`],
    ['solana', txHash('solana'), 'a'.repeat(64)],
    ['ethereum', txHash('ethereum'), 'a'.repeat(64)],
  ] as const)('validates the hash for %s: accepts its own format, 400 invalid_transaction_hash otherwise', async (network, good, bad) => {
    const transfer = await pendingTransfer({ source_network: network });
    expect(transfer.quote.deposit_blockchain_address).toBe(sandboxAddress(network, transfer.id));
    const refused = await complete(transfer.id, bad);
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toContainEqual(expect.objectContaining({ pointer: '/deposit_transaction_hash', code: 'invalid_transaction_hash' }));
    expect((await complete(transfer.id, good)).status).toBe(200);
  });

  it('answers 409 when completed again with another hash', async () => {
    const transfer = await pendingTransfer();
    expect((await complete(transfer.id, txHash())).status).toBe(200);
    const again = await complete(transfer.id, txHash());
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('transfer_transition_not_allowed');
  });

  it('replays the response for the same Idempotency-Key, and 422 for the same key with another hash', async () => {
    const transfer = await pendingTransfer();
    const headers = idempotencyKey();
    const hash = txHash();
    const first = await complete(transfer.id, hash, headers);
    const replay = await complete(transfer.id, hash, headers);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    const reused = await complete(transfer.id, txHash(), headers);
    expect(reused.status).toBe(422);
    expect(reused.body.code).toBe('idempotency_key_reused');
  });

  it('answers 409 deposit_transaction_hash_used when a hash already funded another transfer', async () => {
    const hash = txHash();
    expect((await complete((await pendingTransfer()).id, hash)).status).toBe(200);
    const res = await complete((await pendingTransfer()).id, hash);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('deposit_transaction_hash_used');
  });

  const postings = async (transferId: string) => (await t.sql('select id from ledger_entries where transfer_id = ?', [transferId])).length;
  const upper = (hash: string) => (hash.startsWith('0x') ? `0x${hash.slice(2).toUpperCase()}` : hash.toUpperCase());

  it.each(['polygon', 'ethereum', 'tron'] as const)(
    'answers 409 deposit_transaction_hash_used for a %s hash already used in another letter case, posting nothing',
    async (network) => {
      const hash = txHash(network);
      const first = await pendingTransfer({ source_network: network });
      const second = await pendingTransfer({ source_network: network });
      expect((await complete(first.id, hash)).status).toBe(200);
      const reused = await complete(second.id, upper(hash));
      expect(reused.status).toBe(409);
      expect(reused.body.code).toBe('deposit_transaction_hash_used');
      expect((await api.get(`${path()}/${second.id}`)).body).toMatchObject({ status: 'pending', quote: { deposit_transaction_hash: null } });
      expect(await postings(second.id)).toBe(0);
    },
  );

  it('stores and shows a hex hash in lower case, so its lower-case twin is refused on another transfer', async () => {
    const hash = txHash('tron');
    const first = await pendingTransfer({ source_network: 'tron' });
    const completed = await complete(first.id, upper(hash));
    expect(completed.status).toBe(200);
    expect(completed.body.quote.deposit_transaction_hash).toBe(hash);
    const second = await pendingTransfer({ source_network: 'tron' });
    const reused = await complete(second.id, hash);
    expect(reused.status).toBe(409);
    expect(reused.body.code).toBe('deposit_transaction_hash_used');
    expect(await postings(second.id)).toBe(0);
  });

  it('treats the upper-case form of a transfer’s own hash as that hash: 409 like a repeat, the deposit posted once', async () => {
    const transfer = await pendingTransfer();
    const hash = txHash();
    expect((await complete(transfer.id, hash)).status).toBe(200);
    const deposited = await postings(transfer.id);
    const sameHash = await complete(transfer.id, hash);
    const sameUpper = await complete(transfer.id, upper(hash));
    for (const res of [sameHash, sameUpper]) {
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('transfer_transition_not_allowed');
    }
    expect(await postings(transfer.id)).toBe(deposited);
  });

  it('keeps Solana signatures as sent: base58 is case-sensitive', async () => {
    const transfer = await pendingTransfer({ source_network: 'solana' });
    const hash = txHash('solana');
    const res = await complete(transfer.id, hash);
    expect(res.status).toBe(200);
    expect(res.body.quote.deposit_transaction_hash).toBe(hash);
  });

  it('answers ConflictError deposit_transaction_hash_used in GraphQL for a reused hash in upper case', async () => {
    const hash = txHash();
    expect((await complete((await pendingTransfer()).id, hash)).status).toBe(200);
    const second = await pendingTransfer();
    const res = await api.graphql(
      `mutation ($input: CompleteOfframpTransferInput!) { completeOfframpTransfer(input: $input) { __typename ... on Error { code } } }`,
      { input: { transferId: second.id, depositTransactionHash: upper(hash), idempotencyKey: randomUUID() } },
    );
    expect(res.body.data.completeOfframpTransfer).toEqual({ __typename: 'ConflictError', code: 'DEPOSIT_TRANSACTION_HASH_USED' });
    expect(await postings(second.id)).toBe(0);
  });

  it('answers 422 transfer_expired once the deposit window has passed', async () => {
    const transfer = await pendingTransfer();
    await ageTransfer(t, transfer.id);
    const res = await complete(transfer.id, txHash());
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('transfer_expired');
  });

  it('answers 400 without an Idempotency-Key or a hash, and 404 for unknown or on-ramp transfers', async () => {
    const transfer = await pendingTransfer();
    expect((await api.post(`${path()}/${transfer.id}/complete`, { deposit_transaction_hash: txHash() })).body.code).toBe('idempotency_key_missing');
    expect((await api.post(`${path()}/${transfer.id}/complete`, {}, idempotencyKey())).status).toBe(400);
    expect((await complete('00000000-0000-4000-8000-000000000000', txHash())).status).toBe(404);
    const onrampQuote = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote`, onrampQuoteBody());
    const onramp = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote/${onrampQuote.body.quote_id}`, { destination_address: wallet() });
    expect((await complete(onramp.body.id, txHash())).status).toBe(404);
    const other = t.client(await t.keyFor('Other Partner'));
    expect((await other.post(`${path()}/${transfer.id}/complete`, { deposit_transaction_hash: txHash() }, idempotencyKey())).status).toBe(404);
  });
});

describe('GET /v0/customers/{customer_id}/offramp-transfer', () => {
  it('lists off-ramp transfers only, newest first, with limit and skip', async () => {
    const customer = await createCustomer(api);
    const a = await pendingTransfer({}, customer);
    const b = await pendingTransfer({}, customer);
    await api.post(`/v0/customers/${customer}/onramp-transfer/quote`, onrampQuoteBody());
    const res = await api.get(`${path(customer)}?limit=5`);
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: any) => i.id)).toEqual([b.id, a.id]);
    expect(res.body.items[1]).toEqual(a);
    expect((await api.get(`${path(customer)}?skip=1`)).body.items.map((i: any) => i.id)).toEqual([a.id]);
    expect((await api.get(`${path(customer)}?limit=0`)).status).toBe(400);
  });
});
