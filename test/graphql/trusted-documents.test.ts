import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';
import { wsClient } from '../support/clients/subscriptions.js';

const COUNT_CUSTOMERS = 'query CountCustomers { customers(first: 1) { totalCount } }';
const WATCH = 'subscription Watch { events { cursor } }';
const sha256 = (document: string) => createHash('sha256').update(document).digest('hex');

let t: TestRamp;
let api: ApiClient;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ramp-trusted-'));
  const manifest = join(dir, 'persisted-documents.json');
  // The shape graphql-codegen's client preset writes: hash → document.
  writeFileSync(manifest, JSON.stringify({ [sha256(COUNT_CUSTOMERS)]: COUNT_CUSTOMERS, [sha256(WATCH)]: WATCH }));
  t = await startRamp({ GRAPHQL_TRUSTED_DOCUMENTS: manifest });
  api = t.client(t.key);
});
afterAll(() => t?.close());

const post = (body: Record<string, unknown>) => api.request('POST', '/graphql', { body });

describe('trusted documents (GRAPHQL_TRUSTED_DOCUMENTS)', () => {
  it('runs a registered operation named by documentId, with or without the sha256: prefix, or by persistedQuery', async () => {
    for (const body of [
      { documentId: sha256(COUNT_CUSTOMERS) },
      { documentId: `sha256:${sha256(COUNT_CUSTOMERS)}` },
      { extensions: { persistedQuery: { version: 1, sha256Hash: sha256(COUNT_CUSTOMERS) } } },
    ]) {
      const res = await post(body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({ data: { customers: { totalCount: 0 } } });
    }
  });

  it('refuses any other document before it runs, each with a stable code', async () => {
    const arbitrary = await post({ query: COUNT_CUSTOMERS });
    expect(arbitrary.status).toBe(400);
    expect(arbitrary.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_ONLY');
    const unknown = await post({ documentId: sha256('{ __typename }') });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_IN_LIST');
    const unnamed = await post({ variables: {} });
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_ID_REQUIRED');
  });

  it('limits subscriptions over graphql-ws to the trusted documents too', async () => {
    const client = wsClient(t.url, t.key);
    const refusalOf = (payload: { query: string; extensions?: Record<string, unknown> }) =>
      new Promise<unknown>((resolve) => {
        client.subscribe(payload, { next: () => undefined, error: resolve, complete: () => resolve(null) });
      });
    expect(JSON.stringify(await refusalOf({ query: WATCH }))).toContain('PERSISTED_QUERY_ID_REQUIRED');
    const unknownHash = { persistedQuery: { version: 1, sha256Hash: sha256('subscription { events { type } }') } };
    expect(JSON.stringify(await refusalOf({ query: '', extensions: unknownHash }))).toContain('PERSISTED_QUERY_NOT_IN_LIST');

    // The registered subscription runs, whatever text rides along with its hash.
    const cursors: string[] = [];
    const stop = client.subscribe<{ events: { cursor: string } }>(
      { query: '', extensions: { persistedQuery: { version: 1, sha256Hash: sha256(WATCH) } } },
      { next: (r) => r.data && cursors.push(r.data.events.cursor), error: () => undefined, complete: () => undefined },
    );
    await new Promise((r) => setTimeout(r, 300));
    await api.post('/v0/customers', { email: 'trusted@example.com', type: 'individual', first_name: 'Ada', last_name: 'Lovelace' });
    await expect.poll(() => cursors.length, { timeout: 5000 }).toBeGreaterThan(0);
    stop();
    await client.dispose();
  });
});
