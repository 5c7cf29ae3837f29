import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { KeyScope } from '../../src/domain/scopes.js';
import { issueApiKey } from '../../src/modules/partners/api-keys.js';
import { ensurePartner } from '../../src/modules/partners/service.js';
import { registerAnswerScopes } from '../../src/rest/answer-scopes.js';
import { contract } from '../../src/rest/openapi/contract.js';
import { apiClient, type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';
import { ibanAccount, idempotencyKey, offrampQuoteBody, onrampQuoteBody, txHash, wallet } from '../support/data/transfers.js';

const ENVELOPE = { success: true, status: expect.any(Number), code: 'EN-SUCCESS-001', message: expect.any(String) };
const id = expect.any(String);

/**
 * A key without `read` gets the ids of what a REST change changed, never the resource: otherwise a write-only key
 * would read a customer's email, KYC, bank account and deposit instructions through the answer of a change, as it
 * could through GraphQL's before that refused such a selection.
 */
describe('what a REST change answers a key without read', () => {
  let t: TestRamp;
  let full: ApiClient;
  let writeOnly: ApiClient;
  let keyWith: (scopes: KeyScope[]) => Promise<ApiClient>;
  let customerId: string;
  beforeAll(async () => {
    t = await startRamp();
    const { partner } = await ensurePartner(t.ramp.db.fork(), 'Answer Scopes Partner');
    keyWith = async (scopes) => apiClient(t.url, await issueApiKey(t.ramp.db.fork(), partner, 'sandbox', { scopes }));
    full = apiClient(t.url, await issueApiKey(t.ramp.db.fork(), partner, 'sandbox'));
    writeOnly = await keyWith(['write']);
    const created = await writeOnly.post('/v0/customers', { email: 'only-ids@example.com', type: 'individual', first_name: 'Grace', last_name: 'Hopper' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ customer_id: id });
    customerId = created.body.customer_id;
    const approved = await (await keyWith(['simulate'])).post(`/v0/customers/${customerId}/kycs/simulate`, { action: 'approve_kyc' });
    expect(approved.status).toBe(200);
    expect(approved.body).toEqual({ customer_id: customerId });
  });
  afterAll(() => t?.close());

  it('answers a customer change with the customer_id only, and nothing of its KYC', async () => {
    const updated = await writeOnly.put(`/v0/customers/${customerId}`, { first_name: 'Ada' });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ customer_id: customerId });
    const link = await writeOnly.post(`/v0/customers/${customerId}/kycs`, {});
    expect(link.status).toBe(201);
    expect(link.body).toEqual({});
    expect((await full.get(`/v0/customers/${customerId}`)).body).toMatchObject({ first_name: 'Ada', email: 'only-ids@example.com' });
  });

  it('answers bank accounts, virtual accounts, quotes and transfers with their ids only', async () => {
    const account = await writeOnly.post(`/v0/customers/${customerId}/external-accounts`, ibanAccount(), idempotencyKey());
    expect(account.status).toBe(201);
    expect(account.body).toEqual({ id, external_account_id: account.body.id });

    const virtual = await writeOnly.post(`/v0/customers/${customerId}/virtual-account`, {
      source_currency: 'eur',
      destination_token: 'usdc',
      destination_network: 'polygon',
      destination_address: wallet(),
    });
    expect(virtual.status).toBe(201);
    expect(virtual.body).toEqual({ id, virtual_account_id: virtual.body.id });

    const quote = await writeOnly.post(`/v0/customers/${customerId}/onramp-transfer/quote`, onrampQuoteBody(), idempotencyKey());
    expect(quote.status).toBe(201);
    expect(quote.body).toEqual({ quote_id: id });
    const onramp = await writeOnly.post(
      `/v0/customers/${customerId}/onramp-transfer/quote/${quote.body.quote_id}`,
      { destination_address: wallet() },
      idempotencyKey(),
    );
    expect(onramp.status).toBe(201);
    expect(onramp.body).toEqual({ id });
    const canceled = await writeOnly.post(`/v0/customers/${customerId}/onramp-transfer/${onramp.body.id}/cancel`, {});
    expect(canceled.status).toBe(200);
    expect(canceled.body).toEqual({ id: onramp.body.id });

    const offQuote = await writeOnly.post(
      `/v0/customers/${customerId}/offramp-transfer/quote`,
      offrampQuoteBody({ destination_external_account_id: account.body.id, transfer_purpose: 'travel' }),
      idempotencyKey(),
    );
    expect(offQuote.status).toBe(201);
    expect(offQuote.body).toEqual({ quote_id: id, transfer_id: id });
    const completed = await writeOnly.post(
      `/v0/customers/${customerId}/offramp-transfer/${offQuote.body.transfer_id}/complete`,
      { deposit_transaction_hash: txHash() },
      idempotencyKey(),
    );
    expect(completed.status).toBe(200);
    expect(completed.body).toEqual({ id: offQuote.body.transfer_id });
  });

  it('answers the Encryptus routes their envelope with the id under data', async () => {
    const whitelisted = await writeOnly.post('/v1/partners/forensics/whitelist/walletAddress', {
      address: wallet('polygon', 'answer-scopes'),
      coin: 'usdc',
      network: 'polygon',
      label: 'treasury',
    });
    expect(whitelisted.status).toBe(200);
    expect(whitelisted.body).toEqual({ ...ENVELOPE, data: { id } });
  });

  it('cuts a replay to the key that asks: the stored answer stays whole for a key that reads', async () => {
    const key = idempotencyKey();
    const body = { email: 'replayed@example.com', type: 'individual', first_name: 'Edsger', last_name: 'Dijkstra' };
    const first = await full.post('/v0/customers', body, key);
    expect(first.body).toMatchObject({ email: 'replayed@example.com', first_name: 'Edsger' });
    const replayed = await writeOnly.post('/v0/customers', body, key);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual({ customer_id: first.body.customer_id });
    expect((await full.post('/v0/customers', body, key)).body).toEqual(first.body);
  });

  it('answers an admin key without read the redacted customer’s id only', async () => {
    const created = await full.post('/v0/customers', { email: 'to-erase@example.com', type: 'individual', first_name: 'Alan', last_name: 'Turing' });
    const redacted = await (await keyWith(['admin'])).post(`/v0/customers/${created.body.customer_id}/redact`, {});
    expect(redacted.status).toBe(200);
    expect(redacted.body).toEqual({ customer_id: created.body.customer_id });
  });

  it('answers a webhooks key without read the whole endpoint it registered, its secret included', async () => {
    const registered = await (await keyWith(['webhooks'])).post('/v0/webhooks', { url: 'http://127.0.0.1:9/answer-scopes' });
    expect(registered.status).toBe(201);
    expect(registered.body).toMatchObject({ id, url: 'http://127.0.0.1:9/answer-scopes', secret: expect.stringMatching(/^whsec_/) });
  });

  it('answers a key with read and write the whole resource', async () => {
    const readWrite = await keyWith(['read', 'write']);
    const updated = await readWrite.put(`/v0/customers/${customerId}`, { last_name: 'Lovelace' });
    expect(updated.body).toMatchObject({ customer_id: customerId, email: 'only-ids@example.com', last_name: 'Lovelace', kycs: { status: 'approved' } });
    const quote = await readWrite.post(`/v0/customers/${customerId}/onramp-transfer/quote`, onrampQuoteBody(), idempotencyKey());
    expect(quote.body).toMatchObject({ quote_id: id, customer_id: customerId, source_amount: '100.00', exchange_rate: expect.any(String) });
  });
});

describe('what a REST change declares it answers a key without read', () => {
  it('stops the start for a change with a key that answers a body but does not declare it, or keeps a field its answer lacks', async () => {
    const app = Fastify();
    registerAnswerScopes(app, (url) => url.startsWith('/v0/'));
    const declared = { summary: 's', tag: 't', responses: { 201: { description: 'The thing', body: z.strictObject({ id: z.string() }) } } };
    app.get('/v0/things', contract({ ...declared, operationId: 'listThings' }), async () => ({}));
    app.post('/v0/public-things', contract({ ...declared, operationId: 'keptThing', withoutRead: ['id'] }), async () => ({}));
    app.delete(
      '/v0/things/:id',
      contract({ operationId: 'deleteThing', summary: 's', tag: 't', responses: { 204: { description: 'Deleted' } } }),
      async () => null,
    );
    expect(() => app.post('/v0/things', contract({ ...declared, operationId: 'createThing' }), async () => ({}))).toThrow(
      'createThing changes something but does not declare what it answers a key without read',
    );
    expect(() => app.put('/v0/things/:id', contract({ ...declared, operationId: 'updateThing', withoutRead: ['email'] }), async () => ({}))).toThrow(
      "updateThing's 201 answer has no field email",
    );
    await app.close();
  });
});
