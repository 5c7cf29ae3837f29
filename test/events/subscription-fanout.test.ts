import { describe, expect, it } from 'vitest';
import { recordSqlStatements } from '../support/sql-statements.js';
import { sleep, waitFor } from '../support/clients/webhook-receiver.js';
import { type Subscriber, commitEvent, cursorsOf, quietRampForSubscribers, subscriber } from './subscribers.js';

const quiet = quietRampForSubscribers();
const { subscribers } = quiet;
const sql = recordSqlStatements();

function connect(key: string, variables: Record<string, unknown> = {}) {
  const sub = subscriber(quiet.ramp.url, key, variables);
  subscribers.push(sub);
  return sub;
}

/** Commits one event and waits until every subscriber holds it; returns the SQL statements of that window. */
async function statementsOfOneEvent(key: string, waiting: Subscriber[], n: number) {
  const api = quiet.ramp.client(key);
  const counts = waiting.map((s) => s.cursors.length);
  return sql.during(async () => {
    await commitEvent(api, n);
    await waitFor(() => waiting.every((s, i) => s.cursors.length > counts[i]!), 20_000, 'the event at every subscriber');
  });
}

describe('the shared fan-out of subscriptions', () => {
  it('runs the same SQL per committed event with 200 subscribers as with 20', async () => {
    const key = await quiet.ramp.keyFor('Fan-out');
    const other = await quiet.ramp.keyFor('Fan-out neighbour');
    const measure = async (count: number) => {
      while (subscribers.length < count) connect(subscribers.length % 4 === 3 ? other : key);
      const ours = subscribers.filter((_, i) => i % 4 !== 3);
      // Every subscription is in the fan-out once it has received an event committed after it started. Two events at
      // least: the tenant's email digest key, made by the first customer, is kept in memory from the second on.
      for (let n = 0; n < 2 || !ours.every((s) => s.cursors.length > 0); n++) {
        await commitEvent(quiet.ramp.client(key), 1000 + n);
        await sleep(500);
      }
      const perEvent: number[] = [];
      for (let n = 1; n <= 3; n++) {
        // The key watch reads once a second for all connections, and a background job claims its batch (`skip
        // locked`) on its own schedule: neither is per event.
        perEvent.push((await statementsOfOneEvent(key, ours, n)).filter((s) => !/api_keys|skip locked/i.test(s)).length);
      }
      return perEvent;
    };
    const with20 = await measure(20);
    const with200 = await measure(200);
    expect(with200).toEqual(with20);
    // And small: the write itself, the request's own reads, and one read of new events for everyone.
    expect(Math.max(...with200)).toBeLessThan(30);
    for (const sub of subscribers) expect(sub.errors).toEqual([]);
  });

  it("hands every subscriber exactly its own partner's and environment's events, in order", async () => {
    const tenants = [
      { name: 'Tenant A', environment: 'sandbox' as const },
      { name: 'Tenant A', environment: 'production' as const },
      { name: 'Tenant B', environment: 'sandbox' as const },
    ];
    const keys: string[] = [];
    for (const x of tenants) keys.push(await quiet.ramp.keyFor(x.name, x.environment));
    const everything = keys.map((key) => [connect(key, { after: '0' }), connect(key)]);
    const onlyCreated = keys.map((key) => connect(key, { after: '0', types: ['CUSTOMER_CREATED'] }));
    // The live-only subscribers have joined once each has received an event committed after it started.
    for (let n = 0; !everything.every(([, live]) => live!.cursors.length > 0); n++) {
      await Promise.all(keys.map((key, i) => commitEvent(quiet.ramp.client(key), 100 + n * 10 + i)));
      await sleep(500);
    }
    // Events of all three tenants, interleaved, while they are subscribed.
    for (let round = 0; round < 4; round++) {
      await Promise.all(keys.map((key, i) => commitEvent(quiet.ramp.client(key), round * 10 + i)));
    }
    for (const [i, key] of keys.entries()) {
      const api = quiet.ramp.client(key);
      const all = await cursorsOf(api);
      const created = await cursorsOf(api, 'customer.created');
      expect(all.length).toBeGreaterThanOrEqual(4);
      await waitFor(() => everything[i]![0]!.cursors.length >= all.length && onlyCreated[i]!.cursors.length >= created.length, 10_000, 'every event');
      expect(everything[i]![0]!.cursors).toEqual(all);
      expect(onlyCreated[i]!.cursors).toEqual(created);
      // Live only: the same events from its start, none of another tenant's.
      const live = everything[i]![1]!.cursors;
      expect(live).toEqual(all.slice(all.length - live.length));
      expect(live.length).toBeGreaterThanOrEqual(5);
    }
  });
});
