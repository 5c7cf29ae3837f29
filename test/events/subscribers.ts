import type { Client } from 'graphql-ws';
import { afterAll, beforeAll } from 'vitest';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';
import { wsClient } from '../support/clients/subscriptions.js';

/**
 * The `events` subscription as the scale, tenancy and resume tests use it: with the typed subject a client
 * caches, so the O(1) SQL count covers it (a subject is read from its event, not per subscriber).
 */
export const EVENTS =
  'subscription($after: String, $types: [EventType!]) { events(after: $after, types: $types) { cursor type subject { __typename ... on CustomerSnapshot { id email kycs { status } } } } }';

/** Every cursor of a tenant's stream, as GET /v0/events lists them: the truth a subscriber is checked against. */
export async function cursorsOf(api: ApiClient, types?: string): Promise<string[]> {
  const cursors: string[] = [];
  let after = '0';
  for (;;) {
    const page = await api.get(`/v0/events?after=${after}&limit=100${types ? `&types=${types}` : ''}`);
    if (page.status !== 200) throw new Error(`events not listed: ${JSON.stringify(page.body)}`);
    cursors.push(...page.body.items.map((e: { cursor: string }) => e.cursor));
    after = page.body.next_cursor;
    if (!page.body.has_more) return cursors;
  }
}

/** A new customer, which commits one customer.created event. */
export async function commitEvent(api: ApiClient, n: number): Promise<string> {
  const res = await api.post('/v0/customers', { email: `fan${n}-${Date.now()}@example.com`, type: 'individual', first_name: 'Ada', last_name: 'Lovelace' });
  if (res.status !== 201) throw new Error(`customer not created: ${JSON.stringify(res.body)}`);
  return res.body.customer_id as string;
}

export interface Subscriber {
  client: Client;
  cursors: string[];
  errors: unknown[];
}

/** One graphql-ws connection holding one `events` subscription, collecting the cursors it receives. */
export function subscriber(url: string, key: string, variables: Record<string, unknown> = {}, query = EVENTS): Subscriber {
  const client = wsClient(url, key);
  const sub: Subscriber = { client, cursors: [], errors: [] };
  client.subscribe<{ events: { cursor: string } }>(
    { query, variables },
    {
      next: (result) => {
        if (result.errors) sub.errors.push(...result.errors);
        if (result.data) sub.cursors.push(result.data.events.cursor);
      },
      error: (error) => sub.errors.push(error),
      complete: () => undefined,
    },
  );
  return sub;
}

/**
 * One Ramp for a file of subscription tests, with no timer-driven reads (only what committed events
 * cause, so the SQL a window counts is the events'), and the subscribers the file connects, closed after it.
 */
export function quietRampForSubscribers(): { readonly ramp: TestRamp; subscribers: Subscriber[] } {
  let ramp: TestRamp | undefined;
  const subscribers: Subscriber[] = [];
  beforeAll(async () => {
    ramp = await startRamp({ EVENTS_CATCHUP_INTERVAL_MS: '60000', WEBHOOK_POLL_INTERVAL_MS: '60000' });
  });
  afterAll(async () => {
    await Promise.all(subscribers.map((s) => s.client.dispose()));
    await ramp?.close();
  });
  return {
    get ramp() {
      if (!ramp) throw new Error('Ramp starts in beforeAll');
      return ramp;
    },
    subscribers,
  };
}
