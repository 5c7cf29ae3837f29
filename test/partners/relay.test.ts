import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';
import { createCustomer } from '../support/data/transfers.js';
import { waitFor } from '../support/clients/webhook-receiver.js';

/**
 * For the partner, its whitelists, webhooks and events: Relay identity scoped to the caller,
 * one payload and an exact error union per mutation, connections that count.
 */
let t: TestRamp;
let partners = 0;

beforeAll(async () => {
  t = await startRamp();
});
afterAll(() => t?.close());

/** A partner of its own with both keys, so counts and lists see only what the test made. */
async function newPartner() {
  const name = `Relay partner ${++partners}`;
  return { name, api: t.client(await t.keyFor(name, 'sandbox')), production: t.client(await t.keyFor(name, 'production')) };
}

const BANK_ACCOUNT = {
  accountHolderName: 'Acme GmbH',
  accountHolderAddress: 'Friedrichstrasse 1, 10117 Berlin',
  beneficiaryBankName: 'Commerzbank',
  beneficiaryBankAddress: 'Kaiserplatz, 60311 Frankfurt',
  beneficiaryBankCountry: 'DE',
  bankAccountNumber: 'DE89370400440532013000',
  bicSwift: 'COBADEFFXXX',
  fiatCurrency: 'eur',
};

const NODE = `query ($id: ID!) { node(id: $id) { __typename id
  ... on Partner { databaseId name }
  ... on WebhookEndpoint { databaseId url }
  ... on WebhookDelivery { databaseId eventId }
  ... on Event { databaseId type }
  ... on WhitelistedWalletAddress { databaseId address }
  ... on WhitelistedBankAccount { databaseId bankAccountNumber }
} }`;
const nodeOf = async (api: ApiClient, id: string) => {
  const res = await api.graphql(NODE, { id });
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  return res.body.data.node;
};
const nodesOf = async (api: ApiClient, ids: string[]) => (await api.graphql(`query ($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids })).body.data.nodes;

/** A webhook registered over REST (a closed loopback port: deliveries are made and fail). */
const registerWebhook = async (api: ApiClient, path: string) => (await api.post('/v0/webhooks', { url: `http://127.0.0.1:9/${path}` })).body.id as string;
const endpointsOf = async (api: ApiClient, args = '') =>
  (await api.graphql(`{ webhookEndpoints${args} { totalCount edges { node { id databaseId url } } pageInfo { hasNextPage endCursor } } }`)).body.data
    .webhookEndpoints;
const DELIVERIES = `query ($endpointId: ID, $status: WebhookDeliveryStatus, $first: Int, $after: String) {
  webhookDeliveries(endpointId: $endpointId, status: $status, first: $first, after: $after) {
    totalCount edges { node { id databaseId eventId eventType endpoint { databaseId } } } pageInfo { hasNextPage endCursor } } }`;

describe('node(id:) for the partner, its whitelists, webhooks, deliveries and events', () => {
  it('round-trips the partner, and another partner reads its id as null', async () => {
    const { api, production } = await newPartner();
    const partner = (await api.graphql('{ partner { id databaseId name } }')).body.data.partner;
    expect(await nodeOf(api, partner.id)).toEqual({ __typename: 'Partner', ...partner });
    const [row] = await t.sql<{ id: string }>('select id from partners where name = ?', [partner.name]);
    expect(partner.databaseId).toBe(row!.id);
    // One partner in both environments: its production key names the same partner with the same id.
    expect((await production.graphql('{ partner { id } }')).body.data.partner.id).toBe(partner.id);
    const other = await newPartner();
    expect(await nodeOf(other.api, partner.id)).toBeNull();
    expect(await nodesOf(other.api, [partner.id])).toEqual([null]);
  });

  it("round-trips a webhook endpoint; another partner's key and the production key read it as null", async () => {
    const { api, production } = await newPartner();
    const databaseId = await registerWebhook(api, 'node');
    const [{ node }] = (await endpointsOf(api)).edges;
    expect(node.databaseId).toBe(databaseId);
    expect(node.id).not.toContain(databaseId);
    expect(await nodeOf(api, node.id)).toEqual({ __typename: 'WebhookEndpoint', id: node.id, databaseId, url: 'http://127.0.0.1:9/node' });
    const byEitherId = `query ($id: ID!) { webhookEndpoint(id: $id) { id } }`;
    expect((await api.graphql(byEitherId, { id: databaseId })).body.data.webhookEndpoint.id).toBe(node.id);
    expect((await api.graphql(byEitherId, { id: node.id })).body.data.webhookEndpoint.id).toBe(node.id);
    for (const client of [production, (await newPartner()).api]) {
      expect(await nodeOf(client, node.id)).toBeNull();
      expect(await nodesOf(client, [node.id])).toEqual([null]);
      expect((await client.graphql(byEitherId, { id: node.id })).body).toEqual({ data: { webhookEndpoint: null } });
    }
  });

  it("round-trips a webhook delivery, with its endpoint; another partner's key and the production key read it as null", async () => {
    const { api, production } = await newPartner();
    const endpointId = await registerWebhook(api, 'deliveries');
    await createCustomer(api, { approved: false });
    const page = await waitFor(async () => {
      const found = (await api.graphql(DELIVERIES, { endpointId })).body.data.webhookDeliveries;
      return found.edges.length > 0 && found;
    });
    const delivery = page.edges[0].node;
    expect(delivery).toMatchObject({ eventType: 'CUSTOMER_CREATED', endpoint: { databaseId: endpointId } });
    const [row] = await t.sql<{ id: string }>('select id from webhook_deliveries where endpoint_id = ?', [endpointId]);
    expect(delivery.databaseId).toBe(row!.id);
    expect(await nodeOf(api, delivery.id)).toEqual({
      __typename: 'WebhookDelivery',
      id: delivery.id,
      databaseId: delivery.databaseId,
      eventId: delivery.eventId,
    });
    // The delivery's eventId is the event's databaseId, as the events API shows it.
    expect((await api.get('/v0/events')).body.items.map((e: { event_id: string }) => e.event_id)).toContain(delivery.eventId);
    for (const client of [production, (await newPartner()).api]) {
      expect(await nodeOf(client, delivery.id)).toBeNull();
      expect(await nodesOf(client, [delivery.id])).toEqual([null]);
    }
  });

  it('gives events a global id of type Event and their REST event_id as databaseId', async () => {
    const { api } = await newPartner();
    const customerId = await createCustomer(api, { approved: false });
    const [event] = (await api.graphql('{ events(first: 1) { edges { node { id databaseId type entityType entityId } } } }')).body.data.events.edges.map(
      (e: { node: unknown }) => e.node,
    );
    expect(event).toMatchObject({ type: 'CUSTOMER_CREATED', entityType: 'CUSTOMER', entityId: customerId });
    expect(Buffer.from(event.id, 'base64').toString()).toBe(`Event:${event.databaseId}`);
    expect((await api.get('/v0/events')).body.items[0].event_id).toBe(event.databaseId);
  });

  it("shows the object an event is about as a snapshot of its own, a Node loaded through the caller's scope, and the object itself as `live`", async () => {
    const { api } = await newPartner();
    const customerId = await createCustomer(api, { approved: false });
    const EVENTS = '{ events(first: 1) { edges { node { entityId subject { __typename ... on CustomerSnapshot { id databaseId live { id } } } } } } }';
    const [{ node }] = (await api.graphql(EVENTS)).body.data.events.edges;
    expect(node.subject).toMatchObject({ __typename: 'CustomerSnapshot', databaseId: customerId });
    expect(node.subject.live.id).not.toBe(node.subject.id);
    expect(await nodeOf(api, node.subject.id)).toMatchObject({ __typename: 'CustomerSnapshot', id: node.subject.id });
    expect(await nodeOf(api, node.subject.live.id)).toMatchObject({ __typename: 'Customer', id: node.subject.live.id });
  });

  it('round-trips an event; another partner and the production key read it as null', async () => {
    const { api, production } = await newPartner();
    const other = await newPartner();
    await createCustomer(api, { approved: false });
    const [{ node: event }] = (await api.graphql('{ events(first: 1) { edges { node { id databaseId type } } } }')).body.data.events.edges;
    expect(await nodeOf(api, event.id)).toMatchObject({ __typename: 'Event', id: event.id });
    expect((await api.graphql(`query ($ids: [ID!]!) { nodes(ids: $ids) { ... on Event { databaseId type } } }`, { ids: [event.id] })).body.data.nodes).toEqual([
      { databaseId: event.databaseId, type: 'CUSTOMER_CREATED' },
    ]);
    for (const stranger of [other.api, production]) expect(await nodesOf(stranger, [event.id])).toEqual([null]);
  });

  it("round-trips whitelisted wallet addresses and bank accounts; another partner's key and the production key read them as null", async () => {
    const { api, production } = await newPartner();
    const wallet = await api.post('/v1/partners/forensics/whitelist/walletAddress', {
      address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      coin: 'usdc',
      network: 'polygon',
      label: 'Treasury',
    });
    const bank = await api.post('/v1/partners/forensics/whitelist/bankAccount', BANK_ACCOUNT);
    const partner = (
      await api.graphql(
        '{ partner { whitelistedWalletAddresses { edges { node { id databaseId } } } whitelistedBankAccounts { edges { node { id databaseId } } } } }',
      )
    ).body.data.partner;
    const [w] = partner.whitelistedWalletAddresses.edges.map((e: { node: unknown }) => e.node);
    const [b] = partner.whitelistedBankAccounts.edges.map((e: { node: unknown }) => e.node);
    expect([w.databaseId, b.databaseId]).toEqual([wallet.body.data.id, bank.body.data.id]);
    expect(await nodeOf(api, w.id)).toMatchObject({ __typename: 'WhitelistedWalletAddress', databaseId: w.databaseId });
    // Loaded by id it is a read like any other: the number stays masked.
    expect(await nodeOf(api, b.id)).toMatchObject({ __typename: 'WhitelistedBankAccount', databaseId: b.databaseId, bankAccountNumber: '…3000' });
    for (const client of [production, (await newPartner()).api]) expect(await nodesOf(client, [w.id, b.id])).toEqual([null, null]);
  });
});

describe('mutations', () => {
  const possibleTypes = async (union: string) =>
    (await t.client(t.key).graphql(`{ __type(name: "${union}") { possibleTypes { name } } }`)).body.data.__type.possibleTypes
      .map((p: { name: string }) => p.name)
      .sort();

  it.each([
    ['WhitelistWalletAddressResult', ['ConflictError', 'UnprocessableError', 'ValidationError', 'WhitelistWalletAddressPayload']],
    ['WhitelistBankAccountResult', ['ConflictError', 'UnprocessableError', 'ValidationError', 'WhitelistBankAccountPayload']],
    ['RegisterWebhookResult', ['ConflictError', 'RegisterWebhookPayload', 'UnprocessableError', 'ValidationError']],
    ['DeleteWebhookResult', ['DeleteWebhookPayload', 'NotFoundError']],
    ['EnableWebhookResult', ['EnableWebhookPayload', 'NotFoundError']],
    ['DisableWebhookResult', ['DisableWebhookPayload', 'NotFoundError']],
    ['RotateWebhookSecretResult', ['NotFoundError', 'RotateWebhookSecretPayload']],
    ['RedeliverEventResult', ['ConflictError', 'NotFoundError', 'RedeliverEventPayload']],
  ])('%s holds only the errors that mutation can return', async (union, expected) => {
    expect(await possibleTypes(union)).toEqual(expected);
  });

  it('each takes one required input argument', async () => {
    const fields = (await t.client(t.key).graphql('{ __type(name: "Mutation") { fields { name args { name type { kind ofType { name } } } } } }')).body.data
      .__type.fields;
    const mine = [
      'whitelistWalletAddress',
      'whitelistBankAccount',
      'registerWebhook',
      'deleteWebhook',
      'enableWebhook',
      'disableWebhook',
      'rotateWebhookSecret',
      'redeliverEvent',
    ];
    for (const name of mine) {
      const field = fields.find((f: { name: string }) => f.name === name);
      const input = `${name[0]!.toUpperCase()}${name.slice(1)}Input`;
      expect(field.args, name).toEqual([{ name: 'input', type: { kind: 'NON_NULL', ofType: { name: input } } }]);
    }
  });

  it('registerWebhook shows the secret once beside the endpoint; deleteWebhook answers the global id it deleted', async () => {
    const { api } = await newPartner();
    const registered = await api.graphql(
      `mutation { registerWebhook(input: { url: "http://127.0.0.1:9/once", idempotencyKey: "relay-register" }) {
        __typename ... on RegisterWebhookPayload { secret webhookEndpoint { id databaseId } } } }`,
    );
    const { secret, webhookEndpoint } = registered.body.data.registerWebhook;
    expect(secret).toMatch(/^whsec_/);
    // The same key and input replay the first answer, secret included.
    const replay = await api.graphql(
      `mutation { registerWebhook(input: { url: "http://127.0.0.1:9/once", idempotencyKey: "relay-register" }) {
        ... on RegisterWebhookPayload { secret webhookEndpoint { id } } } }`,
    );
    expect(replay.body.data.registerWebhook).toEqual({ secret, webhookEndpoint: { id: webhookEndpoint.id } });
    const DELETE = `mutation ($id: ID!) { deleteWebhook(input: { id: $id }) { __typename ... on DeleteWebhookPayload { deletedWebhookId } ... on Error { code } } }`;
    expect((await api.graphql(DELETE, { id: webhookEndpoint.databaseId })).body.data.deleteWebhook).toEqual({
      __typename: 'DeleteWebhookPayload',
      deletedWebhookId: webhookEndpoint.id,
    });
    expect(await nodeOf(api, webhookEndpoint.id)).toBeNull();
    expect((await api.graphql(DELETE, { id: webhookEndpoint.id })).body.data.deleteWebhook).toEqual({ __typename: 'NotFoundError', code: 'NOT_FOUND' });
  });

  it('redeliverEvent refuses a disabled webhook with ConflictError webhook_disabled', async () => {
    const { api } = await newPartner();
    const endpointId = await registerWebhook(api, 'disabled');
    await createCustomer(api, { approved: false });
    const eventId = (await api.get('/v0/events')).body.items[0].event_id;
    await api.graphql(`mutation ($id: ID!) { disableWebhook(input: { id: $id }) { __typename } }`, { id: endpointId });
    const res = await api.graphql(
      `mutation ($e: ID!, $w: ID!) { redeliverEvent(input: { eventId: $e, endpointId: $w }) { __typename ... on Error { code } } }`,
      { e: eventId, w: endpointId },
    );
    expect(res.body.data.redeliverEvent).toEqual({ __typename: 'ConflictError', code: 'WEBHOOK_DISABLED' });
  });
});

describe('connections', () => {
  it('webhookEndpoints is a WebhookEndpointConnection whose totalCount counts every webhook across pages, deleted ones not', async () => {
    const { api, production } = await newPartner();
    const ids = [await registerWebhook(api, 'a'), await registerWebhook(api, 'b'), await registerWebhook(api, 'c')];
    const first = await endpointsOf(api, '(first: 2)');
    expect(first.totalCount).toBe(3);
    expect(first.edges.map((e: { node: { databaseId: string } }) => e.node.databaseId)).toEqual(ids.slice(0, 2));
    expect(first.pageInfo.hasNextPage).toBe(true);
    const rest = await endpointsOf(api, `(first: 2, after: "${first.pageInfo.endCursor}")`);
    expect(rest).toMatchObject({ totalCount: 3, pageInfo: { hasNextPage: false } });
    expect(rest.edges.map((e: { node: { databaseId: string } }) => e.node.databaseId)).toEqual([ids[2]]);
    expect((await api.delete(`/v0/webhooks/${ids[1]}`)).status).toBe(204);
    expect((await endpointsOf(api)).totalCount).toBe(2);
    expect(await endpointsOf(production)).toEqual({ totalCount: 0, edges: [], pageInfo: { hasNextPage: false, endCursor: null } });
  });

  it('webhookDeliveries is a WebhookDeliveryConnection whose totalCount counts what the filters match', async () => {
    const { api } = await newPartner();
    const [one, two] = [await registerWebhook(api, 'one'), await registerWebhook(api, 'two')];
    for (let i = 0; i < 3; i++) await createCustomer(api, { approved: false });
    const all = await waitFor(async () => {
      const found = (await api.graphql(DELIVERIES, { first: 2 })).body.data.webhookDeliveries;
      return found.totalCount === 6 && found;
    });
    expect(all.edges).toHaveLength(2);
    expect(all.pageInfo.hasNextPage).toBe(true);
    const ofOne = (await api.graphql(DELIVERIES, { endpointId: one, first: 100 })).body.data.webhookDeliveries;
    expect(ofOne.totalCount).toBe(3);
    expect(ofOne.edges.every((e: { node: { endpoint: { databaseId: string } } }) => e.node.endpoint.databaseId === one)).toBe(true);
    // A global id filters like the REST id.
    const [{ node: endpointTwo }] = (await endpointsOf(api, '(last: 1)')).edges;
    expect(endpointTwo.databaseId).toBe(two);
    expect((await api.graphql(DELIVERIES, { endpointId: endpointTwo.id })).body.data.webhookDeliveries.totalCount).toBe(3);
    expect((await api.graphql(DELIVERIES, { status: 'SUCCEEDED' })).body.data.webhookDeliveries.totalCount).toBe(0);
    // An event's global id filters like its REST event_id; an id that names no event matches nothing (never everything).
    const [{ node: event }] = (await api.graphql('{ events(first: 1) { edges { node { id databaseId } } } }')).body.data.events.edges;
    const ofEvent = `query ($eventId: ID) { webhookDeliveries(eventId: $eventId) { totalCount } }`;
    for (const eventId of [event.id, event.databaseId]) expect((await api.graphql(ofEvent, { eventId })).body.data.webhookDeliveries.totalCount).toBe(2);
    expect((await api.graphql(ofEvent, { eventId: 'nonsense' })).body.data.webhookDeliveries.totalCount).toBe(0);
    expect((await api.graphql(ofEvent, { eventId: endpointTwo.id })).body.data.webhookDeliveries.totalCount).toBe(0);
    // An endpoint id that names no webhook of the caller is an error, not an unfiltered list.
    const unknown = await api.graphql(DELIVERIES, { endpointId: 'nonsense' });
    expect(unknown.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('the whitelists are connections whose totalCount counts every entry of the environment across pages', async () => {
    const { api, production } = await newPartner();
    const networks = ['POLYGON', 'ETHEREUM', 'BASE'];
    for (const network of networks) {
      const res = await api.graphql(`mutation ($input: WhitelistWalletAddressInput!) { whitelistWalletAddress(input: $input) { __typename } }`, {
        input: { address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', coin: 'USDC', network, label: network },
      });
      expect(res.body.data.whitelistWalletAddress.__typename).toBe('WhitelistWalletAddressPayload');
    }
    const WALLETS = `query ($after: String) { partner { whitelistedWalletAddresses(first: 2, after: $after) {
      totalCount edges { node { network } } pageInfo { hasNextPage endCursor } } } }`;
    const first = (await api.graphql(WALLETS)).body.data.partner.whitelistedWalletAddresses;
    expect(first).toMatchObject({
      totalCount: 3,
      edges: [{ node: { network: 'POLYGON' } }, { node: { network: 'ETHEREUM' } }],
      pageInfo: { hasNextPage: true },
    });
    const second = (await api.graphql(WALLETS, { after: first.pageInfo.endCursor })).body.data.partner.whitelistedWalletAddresses;
    expect(second).toMatchObject({ totalCount: 3, edges: [{ node: { network: 'BASE' } }], pageInfo: { hasNextPage: false } });
    const elsewhere = (await production.graphql(WALLETS)).body.data.partner.whitelistedWalletAddresses;
    expect(elsewhere).toMatchObject({ totalCount: 0, edges: [] });
    const BANKS = '{ partner { whitelistedBankAccounts(first: 1) { totalCount edges { node { fiatCurrency } } } } }';
    for (const fiatCurrency of ['usd', 'aed']) {
      const account = { ...BANK_ACCOUNT, bankAccountNumber: '000123456789', bicSwift: 'CHASUS33', beneficiaryBankCountry: 'US', fiatCurrency };
      expect((await api.post('/v1/partners/forensics/whitelist/bankAccount', account)).status).toBe(200);
    }
    expect((await api.graphql(BANKS)).body.data.partner.whitelistedBankAccounts).toEqual({ totalCount: 2, edges: [{ node: { fiatCurrency: 'USD' } }] });
  });

  it('events is an EventConnection without totalCount (the outbox only grows: counting it is a scan)', async () => {
    const fields = (await t.client(t.key).graphql('{ __type(name: "EventConnection") { fields { name } } }')).body.data.__type.fields.map(
      (f: { name: string }) => f.name,
    );
    expect(fields.sort()).toEqual(['edges', 'pageInfo']);
    const { api } = await newPartner();
    const empty = (await api.graphql('{ events { edges { cursor } pageInfo { startCursor endCursor hasNextPage } } }')).body.data.events;
    expect(empty).toEqual({ edges: [], pageInfo: { startCursor: null, endCursor: null, hasNextPage: false } });
  });
});
