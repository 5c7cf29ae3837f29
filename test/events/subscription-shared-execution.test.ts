import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/ramp.js';
import { recordSqlStatements } from '../support/sql-statements.js';
import { sleep, waitFor } from '../support/clients/webhook-receiver.js';
import { createCustomer, onrampQuoteBody, wallet } from '../support/data/transfers.js';
import { type Subscriber, commitEvent, cursorsOf, quietRampForSubscribers, subscriber } from './subscribers.js';

const quiet = quietRampForSubscribers();
const { subscribers } = quiet;
const sql = recordSqlStatements();

/**
 * A transfer's `customer` is a relation, loaded as it is now (one query per execution of the
 * document for an event): the count of those queries is the count of executions.
 */
const WITH_RELATION =
  'subscription($after: String, $types: [EventType!]) { events(after: $after, types: $types) { cursor subject { __typename ... on OnrampTransferSnapshot { databaseId customer { databaseId email } } } } }';
const TYPES = ['CUSTOMER_CREATED', 'ONRAMP_TRANSFER_CREATED'];

function connect(key: string, variables: Record<string, unknown> = {}, query = WITH_RELATION) {
  const sub = subscriber(quiet.ramp.url, key, { types: TYPES, ...variables }, query);
  subscribers.push(sub);
  return sub;
}

/** Every subscription is in the fan-out once it has received an event committed after it started. */
async function joined(api: ApiClient, waiting: Subscriber[]) {
  const counts = waiting.map((s) => s.cursors.length);
  for (let n = 0; !waiting.every((s, i) => s.cursors.length > counts[i]!); n++) {
    await commitEvent(api, 500 + n);
    await sleep(300);
  }
}

/** A new onramp transfer (one onramp_transfer.created event) and the statements that read customers while every subscriber took it. */
async function customerReadsOfOneTransfer(api: ApiClient, customerId: string, waiting: Subscriber[]): Promise<number> {
  const counts = waiting.map((s) => s.cursors.length);
  const statements = await sql.during(async () => {
    const base = `/v0/customers/${customerId}/onramp-transfer`;
    const quote = (await api.post(`${base}/quote`, onrampQuoteBody())).body;
    expect((await api.post(`${base}/quote/${quote.quote_id}`, { destination_address: wallet() })).status).toBe(201);
    await waitFor(() => waiting.every((s, i) => s.cursors.length > counts[i]!), 20_000, 'the transfer event at every subscriber');
  });
  return statements.filter((s) => /from "customers"/i.test(s)).length;
}

describe('subscriptions share the execution of an event', () => {
  it('executes a document once per event for all the subscribers of one key, whatever cursor they resumed from, and apart per key', async () => {
    const key = await quiet.ramp.keyFor('Shared execution');
    const api = quiet.ramp.client(key);
    const customerId = await createCustomer(api);

    const first = connect(key);
    await joined(api, [first]);
    const alone = await customerReadsOfOneTransfer(api, customerId, [first]);

    // Twelve more with the same document: some live, some resumed from a cursor (another `after` value).
    const latest = (await cursorsOf(api)).at(-1)!;
    const same = [first, ...Array.from({ length: 12 }, (_, i) => connect(key, i % 2 ? { after: latest } : {}))];
    await joined(api, same);
    const together = await customerReadsOfOneTransfer(api, customerId, same);
    expect(together).toBe(alone);

    // A second key of the same partner, and a different selection under the first key: one execution each more.
    const secondKey = await quiet.ramp.keyFor('Shared execution');
    const apart = [connect(secondKey), connect(key, {}, WITH_RELATION.replace('databaseId email', 'databaseId'))];
    await joined(api, [...same, ...apart]);
    const withApart = await customerReadsOfOneTransfer(api, customerId, [...same, ...apart]);
    expect(withApart).toBe(alone + 2);

    for (const s of [...same, ...apart]) expect(s.errors).toEqual([]);
  });
});
