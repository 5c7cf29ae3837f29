import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import type { ApiClient } from '../../support/ramp.js';
import { createCustomer, ibanAccount, idempotencyKey, offrampQuoteBody, onrampQuoteBody, wallet } from '../../support/data/transfers.js';
import type { FuzzRequest } from './answers.js';
import { contentType, deepJson, headerText, hostileAmount, hostileId, hostileJson, hostileString, malformedJson } from './hostile-values.js';

export interface Route {
  method: string;
  /** With Fastify's `:param` placeholders. */
  path: string;
}

/**
 * Every route Fastify knows, read from its own route table, so a new route is fuzzed without
 * anyone listing it. printRoutes draws a tree: each line's depth is where its branch starts.
 */
export function routeTable(app: FastifyInstance): Route[] {
  const routes: Route[] = [];
  const prefixes: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^(.*?)(?:├──|└──) (\S+) \(([A-Z, ]+)\)/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    prefixes[depth] = (depth > 0 ? prefixes[depth - 1]! : '') + match[2]!;
    prefixes.length = depth + 1;
    if (match[2] === '*') continue;
    for (const method of match[3]!.split(', ')) routes.push({ method, path: prefixes[depth]! });
  }
  return routes;
}

/** Real resources, so routes with valid ids run past their 404 into validation and the database. */
export interface Seeded {
  ids: Record<string, string[]>;
  /** A valid body per route (`METHOD path`), which the fuzzer then breaks one field at a time. */
  bodies: Record<string, Record<string, unknown>>;
  /** Body fields that name a stored resource by a value of their own (the KYB sections' corporate customer by email). */
  bodyIds: Record<string, string[]>;
}

export async function seed(api: ApiClient): Promise<Seeded> {
  const customer = await createCustomer(api);
  const base = `/v0/customers/${customer}`;
  const onrampQuote = (await api.post(`${base}/onramp-transfer/quote`, onrampQuoteBody())).body.quote_id as string;
  const onrampTransfer = (await api.post(`${base}/onramp-transfer/quote/${onrampQuote}`, { destination_address: wallet() })).body.id as string;
  const account = (await api.post(`${base}/external-accounts`, ibanAccount(), idempotencyKey())).body.id as string;
  const offrampQuote = (await api.post(`${base}/offramp-transfer/quote`, offrampQuoteBody(), idempotencyKey())).body.quote_id as string;
  const virtualAccount = (await api.post(`${base}/virtual-account`, { source_currency: 'eur', destination_network: 'polygon', destination_address: wallet() }))
    .body.id as string;
  const webhook = (await api.post('/v0/webhooks', { url: 'http://127.0.0.1:9/ramp-fuzz' })).body.id as string;
  // An off-ramp transfer, so that completing one reaches the transaction hash's rules.
  const payoutQuote = (await api.post(`${base}/offramp-transfer/quote`, offrampQuoteBody(), idempotencyKey())).body.quote_id as string;
  const offrampTransfer = (
    await api.post(
      `${base}/offramp-transfer/quote/${payoutQuote}`,
      { destination_external_account_id: account, transfer_purpose: 'salaries' },
      idempotencyKey(),
    )
  ).body.id as string;
  const corporateEmail = `fuzz-corporate-${Date.now()}@example.com`;
  const corporate = (await api.post('/v0/customers', { email: corporateEmail, type: 'corporate', company_name: 'Fuzz Trading LLC' })).body
    .customer_id as string;
  for (const [name, id] of Object.entries({ onrampQuote, onrampTransfer, account, offrampQuote, virtualAccount, webhook, offrampTransfer, corporate })) {
    if (typeof id !== 'string') throw new Error(`seeding ${name} failed`);
  }
  return {
    ids: {
      customer_id: [customer],
      customerId: [customer],
      quote_id: [onrampQuote, offrampQuote],
      transfer_id: [onrampTransfer, offrampTransfer],
      external_account_id: [account],
      virtual_account_id: [virtualAccount],
      webhookId: [webhook],
    },
    bodyIds: { userEmail: [corporateEmail], destination_external_account_id: [account] },
    bodies: {
      'POST /v0/customers': { email: 'fuzz@example.com', type: 'individual', first_name: 'Ada', last_name: 'Lovelace' },
      'PUT /v0/customers/:customer_id': { first_name: 'Grace' },
      'POST /v0/customers/:customer_id/onramp-transfer/quote': onrampQuoteBody(),
      'POST /v0/customers/:customer_id/onramp-transfer/quote/:quote_id': { destination_address: wallet() },
      'POST /v0/customers/:customer_id/offramp-transfer/quote': offrampQuoteBody({ destination_external_account_id: account, transfer_purpose: 'salary' }),
      'POST /v0/customers/:customer_id/offramp-transfer/quote/:quote_id': { destination_external_account_id: account, transfer_purpose: 'salary' },
      'POST /v0/customers/:customer_id/offramp-transfer/:transfer_id/complete': { deposit_transaction_hash: `0x${'ab'.repeat(32)}` },
      'POST /v0/customers/:customer_id/external-accounts': ibanAccount(),
      'POST /v0/customers/:customer_id/virtual-account': { source_currency: 'usd', destination_network: 'polygon', developer_fee_percent: '0.5' },
      'POST /v0/webhooks': { url: 'https://example.com/ramp' },
      'POST /v1/partners/forensics/whitelist/walletAddress': { address: wallet(), coin: 'USDC', network: 'Polygon', label: 'treasury' },
      'POST /v1/partners/forensics/whitelist/bankAccount': {
        accountHolderName: 'Ada Lovelace',
        accountHolderAddress: '1 Marina Walk, Dubai',
        beneficiaryBankName: 'Emirates NBD',
        beneficiaryBankAddress: 'Deira, Dubai',
        beneficiaryBankCountry: 'United Arab Emirates',
        bankAccountNumber: 'AE070331234567890123456',
        bicSwift: 'EBILAEAD',
        fiatCurrency: 'AED',
      },
      'POST /auth/importKYC': { providersharedtoken: 'share-token' },
    },
  };
}

const FIELDS = [
  'email',
  'type',
  'first_name',
  'last_name',
  'company_name',
  'source_amount',
  'destination_amount',
  'amount',
  'developer_fee_percent',
  'url',
  'iban',
  'bic',
  'label',
  'address',
  'network',
  'coin',
];

/** One field broken (a hostile value, or removed), the rest as a valid request has them. */
const brokenBody = (valid: Record<string, unknown>) =>
  fc
    .tuple(
      fc.oneof(fc.constantFrom(...Object.keys(valid), ...FIELDS), hostileString),
      fc.oneof(hostileJson, hostileAmount, hostileString, fc.constant(undefined)),
    )
    .map(([field, value]) => JSON.stringify({ ...valid, [field]: value }));

function bodyFor(route: Route, seeded: Seeded): fc.Arbitrary<string | undefined> {
  const valid = seeded.bodies[`${route.method} ${route.path}`] ?? {};
  return fc.oneof(
    { arbitrary: brokenBody(valid), weight: 6 },
    { arbitrary: hostileJson.map((v) => JSON.stringify(v)), weight: 2 },
    { arbitrary: fc.dictionary(fc.constantFrom(...FIELDS), hostileJson, { maxKeys: 5 }).map((v) => JSON.stringify(v)), weight: 2 },
    { arbitrary: deepJson('1'), weight: 1 },
    { arbitrary: malformedJson, weight: 2 },
    { arbitrary: fc.constant(undefined), weight: 1 },
    { arbitrary: fc.integer({ min: 10_000, max: 1_200_000 }).map((n) => JSON.stringify({ ...valid, first_name: 'x'.repeat(n) })), weight: 1 },
  );
}

const QUERY = fc.dictionary(
  fc.constantFrom('limit', 'skip', 'after', 'types', 'token', 'status', hostileString as never),
  fc.oneof(hostileString, hostileAmount.map(String)),
  { maxKeys: 3 },
);

/** A request to `route` with something wrong in it: method, path, ids, query, headers or body. */
export function hostileRequest(routes: Route[], seeded: Seeded, key: string): fc.Arbitrary<FuzzRequest> {
  return fc.constantFrom(...routes).chain((route) =>
    fc
      .record({
        method: fc.oneof(
          { arbitrary: fc.constant(route.method), weight: 8 },
          { arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'), weight: 1 },
        ),
        slashes: fc.constantFrom('/', '/', '/', '/', '//'),
        params: fc.record(
          Object.fromEntries((route.path.match(/:\w+/g) ?? []).map((p) => [p.slice(1), hostileId(seeded.ids[p.slice(1)] ?? [])])) as Record<
            string,
            fc.Arbitrary<string>
          >,
        ),
        query: fc.option(QUERY, { freq: 3 }),
        authorization: fc.oneof(
          { arbitrary: fc.constant(`Bearer ${key}`), weight: 8 },
          { arbitrary: fc.constant(key), weight: 1 },
          { arbitrary: headerText, weight: 2 },
        ),
        idempotencyKey: fc.option(fc.oneof(fc.uuid(), headerText), { freq: 2 }),
        requestId: fc.option(headerText, { freq: 4 }),
        contentType: fc.oneof({ arbitrary: fc.constant('application/json'), weight: 6 }, { arbitrary: contentType, weight: 1 }),
        body: bodyFor(route, seeded),
      })
      .map((r) => {
        const path = route.path.replace(/:(\w+)/g, (_, name: string) => r.params[name]!).replace(/^\//, r.slashes);
        const query = r.query ? `?${new URLSearchParams(r.query as Record<string, string>).toString()}` : '';
        const headers: Record<string, string> = { authorization: r.authorization };
        if (r.idempotencyKey !== null) headers['idempotency-key'] = r.idempotencyKey;
        if (r.requestId !== null) headers['x-request-id'] = r.requestId;
        const hasBody = r.body !== undefined && r.method !== 'GET' && r.method !== 'HEAD';
        if (hasBody) headers['content-type'] = r.contentType;
        return { method: r.method, path: path + query, headers, body: hasBody ? r.body : undefined };
      }),
  );
}
