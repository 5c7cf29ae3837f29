import { InMemoryCache, gql } from '@apollo/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRamp, type TestRamp } from '../support/ramp.js';
import { createCustomer, onrampQuoteBody, wallet } from '../support/data/transfers.js';

let t: TestRamp;
beforeAll(async () => {
  t = await startRamp();
});
afterAll(() => t?.close());

/**
 * A client's normalized cache, as a frontend team runs it (Apollo's InMemoryCache, which files every
 * object under `__typename:id` as Relay's store does under `id`), fed what Ramp answers: reading an
 * event feed must not roll a settled transfer back to an older status.
 */
describe('a normalized client cache', () => {
  it('keeps a completed transfer COMPLETED after an event feed that shows its earlier states', async () => {
    const api = t.client(t.key);
    const customerId = await createCustomer(api);
    const base = `/v0/customers/${customerId}/onramp-transfer`;
    const quote = (await api.post(`${base}/quote`, onrampQuoteBody())).body;
    const created = (await api.post(`${base}/quote/${quote.quote_id}`, { destination_address: wallet() })).body;
    for (const action of ['fiat_deposit', 'complete_transfer']) await api.post(`${base}/simulate`, { action, transfer_id: created.id });

    // Which types implement which interfaces and unions, as a client generates it (possibleTypes) from the schema.
    const introspection = await api.graphql('{ __schema { types { name kind possibleTypes { name } } } }');
    const possibleTypes = Object.fromEntries(
      introspection.body.data.__schema.types
        .filter((type: { possibleTypes: unknown[] | null }) => type.possibleTypes?.length)
        .map((type: { name: string; possibleTypes: { name: string }[] }) => [type.name, type.possibleTypes.map((p) => p.name)]),
    );
    const cache = new InMemoryCache({ possibleTypes });
    const transferQuery = gql`
      query Transfer($id: ID!) {
        transfer(id: $id) { __typename id status }
      }
    `;
    const feedQuery = gql`
      query Feed {
        events(first: 1, types: [ONRAMP_TRANSFER_CREATED]) { __typename edges { __typename node { __typename id type subject { __typename ... on Transfer { id status } } } } }
      }
    `;
    const run = async (query: ReturnType<typeof gql>, variables = {}) => {
      const res = await api.graphql(query.loc!.source.body, variables);
      expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
      cache.writeQuery({ query, variables, data: res.body.data });
    };

    await run(transferQuery, { id: created.id });
    const read = () => cache.readQuery<{ transfer: { status: string } }>({ query: transferQuery, variables: { id: created.id } })?.transfer.status;
    expect(read()).toBe('COMPLETED');
    await run(feedQuery);
    const feed = cache.readQuery<{ events: { edges: { node: { subject: { status: string } | null } }[] } }>({ query: feedQuery });
    // The feed itself shows the transfer as the event left it (the case: a feed of one event)…
    expect(feed?.events.edges.map((e) => e.node.subject?.status)).toEqual(['PENDING']);
    // …and the transfer the UI shows is still the settled one.
    expect(read()).toBe('COMPLETED');
  });
});
