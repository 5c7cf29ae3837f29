import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRamp, type Ramp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { issueApiKey, listApiKeys, revokeApiKey } from '../../src/modules/partners/api-keys.js';
import { ensurePartner } from '../../src/modules/partners/service.js';
import { CLOSE_KEY_REVOKED } from '../../src/graphql/server.js';
import { apiClient, freshDatabaseEnv, onPostgres, startRamp, type TestRamp } from '../support/ramp.js';
import { wsClient } from '../support/clients/subscriptions.js';
import { sleep, waitFor } from '../support/clients/webhook-receiver.js';

// docs/operations/api-keys.md: a revoked key stops working within moments on every instance, open subscriptions included.
const EVENTS = 'subscription { events { id type } }';
const prefixOf = (key: string) => key.slice(0, key.lastIndexOf('_') + 9);
/** An instance drops a revoked key from its verified keys when the revocation's notification arrives: moments. */
const NOTIFY_DELAY_MS = 1_000;
async function onceRefused(request: () => Promise<{ status: number; body: any }>) {
  const until = Date.now() + NOTIFY_DELAY_MS;
  for (;;) {
    const res = await request();
    if (res.status === 401 || Date.now() > until) return res;
    await sleep(10);
  }
}

/** A graphql-ws connection holding one subscription; `closed` is the close event once the server ends it. */
async function openSubscription(url: string, key: string) {
  const client = wsClient(url, key);
  const state: { client: Client; connected: boolean; closed: { code: number; reason: string } | null } = { client, connected: false, closed: null };
  client.on('connected', () => (state.connected = true));
  client.on('closed', (event) => (state.closed ??= event as { code: number; reason: string }));
  client.subscribe({ query: EVENTS }, { next: () => undefined, error: () => undefined, complete: () => undefined });
  await waitFor(() => state.connected || state.closed, 10_000, 'the connection');
  return state;
}

describe('revoking an API key', () => {
  let t: TestRamp;
  let partners = 0;
  const clients: Client[] = [];
  beforeAll(async () => {
    t = await startRamp();
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.dispose()));
    await t.close();
  });
  const newKey = () => t.keyFor(`Revoking Partner ${++partners}`);
  const open = async (key: string) => {
    const subscription = await openSubscription(t.url, key);
    clients.push(subscription.client);
    return subscription;
  };

  it('is refused within a second over REST (problem+json and the Encryptus envelope) and GraphQL over HTTP', async () => {
    const key = await newKey();
    const api = t.client(key);
    expect((await api.get('/v0/webhooks')).status).toBe(200);
    expect((await api.graphql('{ customers(first: 1) { edges { node { id } } } }')).status).toBe(200);

    await revokeApiKey(t.ramp.db.fork(), prefixOf(key));

    const rest = await onceRefused(() => api.get('/v0/webhooks'));
    expect(rest.status).toBe(401);
    expect(rest.body).toMatchObject({ code: 'unauthenticated' });
    expect((await api.get('/v1/partners/accountInfo')).body).toMatchObject({ status: 401, code: 'EN-AUTH-001' });
    const graphql = await api.graphql('{ customers(first: 1) { edges { node { id } } } }');
    expect(graphql.status).toBe(401);
    expect(graphql.body.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('closes an open subscription of that key with 4403 within two seconds, and only that key’s', async () => {
    const key = await newKey();
    const otherKey = await newKey();
    const revoked = await open(key);
    const kept = await open(otherKey);
    expect(revoked.connected && kept.connected).toBe(true);

    const started = Date.now();
    await revokeApiKey(t.ramp.db.fork(), prefixOf(key));
    await waitFor(() => revoked.closed, 5_000, 'the revoked connection to close');
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(revoked.closed).toEqual(expect.objectContaining({ code: CLOSE_KEY_REVOKED, reason: 'API key revoked' }));

    await sleep(1_500); // another check or two of the watch
    expect(kept.closed).toBeNull();
    // Reconnecting with the revoked key is refused at connection_init, with the same code.
    const again = await open(key);
    expect(again.connected).toBe(false);
    expect(again.closed?.code).toBe(4403);
  });

  it('accepts the id as well as the prefix, and keeps the first revocation time when revoked twice', async () => {
    const key = await newKey();
    const [summary] = (await listApiKeys(t.ramp.db.fork(), { partner: `Revoking Partner ${partners}` })).filter((k) => k.prefix === prefixOf(key));
    const first = await revokeApiKey(t.ramp.db.fork(), summary!.id.toUpperCase());
    expect(first.alreadyRevoked).toBe(false);
    const second = await revokeApiKey(t.ramp.db.fork(), prefixOf(key));
    expect(second.alreadyRevoked).toBe(true);
    expect(second.key.revokedAt).toEqual(first.key.revokedAt);
    await expect(revokeApiKey(t.ramp.db.fork(), 'rk_sandbox_nosuchkey')).rejects.toThrow('API key not found');
  });
});

describe('when a key was last used', () => {
  let t: TestRamp;
  beforeAll(async () => {
    t = await startRamp();
  });
  afterAll(() => t.close());
  const lastUsed = async (key: string) => (await listApiKeys(t.ramp.db.fork())).find((k) => k.prefix === prefixOf(key))!.lastUsedAt;

  it('is recorded when the key authenticates, at most once a minute, and never for a wrong secret', async () => {
    const key = await t.keyFor('Busy Partner');
    const wrongSecret = `${prefixOf(key)}${'x'.repeat(32)}`;
    expect((await apiClient(t.url, wrongSecret).get('/v0/webhooks')).status).toBe(401);
    expect(await lastUsed(key)).toBeNull();

    expect((await t.client(key).get('/v0/webhooks')).status).toBe(200);
    const first = await lastUsed(key);
    expect(first).toBeInstanceOf(Date);
    for (let i = 0; i < 3; i++) await t.client(key).graphql('{ __typename }');
    expect(await lastUsed(key)).toEqual(first);

    // A minute later the next request records it again: the database's clock and this instance's both move on.
    await t.sql("update api_keys set last_used_at = last_used_at - interval '61 seconds' where prefix = ?", [prefixOf(key)]);
    const backdated = await lastUsed(key);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000 });
    try {
      await t.client(key).get('/v0/webhooks');
    } finally {
      vi.useRealTimers();
    }
    expect((await lastUsed(key))!.getTime()).toBeGreaterThan(backdated!.getTime());
  });
});

// The database is the truth: a revocation made through one instance closes subscriptions on another.
describe.runIf(onPostgres)('two instances on one database', () => {
  let database: Awaited<ReturnType<typeof freshDatabaseEnv>>;
  const instances: Ramp[] = [];
  const clients: Client[] = [];
  beforeAll(async () => {
    database = await freshDatabaseEnv();
    const env = { NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', ...database.env };
    for (let i = 0; i < 2; i++) {
      const ramp = await createRamp(loadConfig(env));
      await ramp.listen();
      instances.push(ramp);
    }
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.dispose()));
    for (const ramp of instances) await ramp.close();
    await database.drop();
  });

  it('refuses the key on both and closes its subscription on the other instance', async () => {
    const [a, b] = instances as [Ramp, Ramp];
    const em = a.db.fork();
    const key = await issueApiKey(em, (await ensurePartner(em, 'Scaled Revoking Partner')).partner, 'sandbox');
    const onB = await openSubscription(b.url(), key);
    clients.push(onB.client);
    expect(onB.connected).toBe(true);

    await revokeApiKey(a.db.fork(), prefixOf(key));
    expect((await onceRefused(() => apiClient(a.url(), key).get('/v0/webhooks'))).status).toBe(401);
    expect((await onceRefused(() => apiClient(b.url(), key).get('/v0/webhooks'))).status).toBe(401);
    await waitFor(() => onB.closed, 3_000, 'the subscription on the other instance to close');
    expect(onB.closed?.code).toBe(CLOSE_KEY_REVOKED);
  });
});
