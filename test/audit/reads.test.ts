import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeApiKey } from '../../src/modules/partners/api-keys.js';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';

let t: TestRamp;
let api: ApiClient;
const customerIds: string[] = [];

beforeAll(async () => {
  t = await startRamp();
  api = t.client(t.key);
  for (let i = 0; i < 5; i++) {
    const res = await api.post('/v0/customers', { email: `reader${i}@example.com`, type: 'corporate', company_name: `Reader ${i}, "quoted"` });
    customerIds.push(res.body.customer_id);
  }
  await api.post('/v0/customers', { email: 'bad', type: 'corporate', company_name: 'X' }, { 'user-agent': '=HYPERLINK("x"), evil' });
});
afterAll(() => t.close());

describe('GET /v0/audit-events', () => {
  it('lists the caller’s rows newest first in the documented shape', async () => {
    const res = await api.get('/v0/audit-events');
    expect(res.status).toBe(200);
    expect(res.body.next_cursor).toBeNull();
    const [newest] = res.body.items;
    expect(newest).toEqual({
      id: expect.any(String),
      occurred_at: expect.any(String),
      action: 'customer.create',
      outcome: 'refused',
      code: 'validation_failed',
      replayed: false,
      entity_type: null,
      entity_id: null,
      actor: { type: 'api_key', api_key_prefix: t.key.slice(0, 19), ip: expect.stringMatching(/127\.0\.0\.1$/), user_agent: '=HYPERLINK("x"), evil' },
      request_id: expect.any(String),
    });
    const created = res.body.items.filter((i: any) => i.outcome === 'succeeded' && i.action === 'customer.create').map((i: any) => i.entity_id);
    expect(created).toEqual([...customerIds].reverse());
  });

  it('filters by action and entity, and pages with next_cursor until the end', async () => {
    const one = await api.get(`/v0/audit-events?entity_id=${customerIds[2]}`);
    expect(one.body.items.map((i: any) => i.entity_id)).toEqual([customerIds[2]]);
    const seen: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page: any = await api.get(`/v0/audit-events?action=customer.create&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.items.map((i: any) => i.id));
      cursor = page.body.next_cursor;
    }
    expect(seen).toHaveLength(6);
    expect(new Set(seen).size).toBe(6);
    const bad = await api.get('/v0/audit-events?cursor=forged');
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toContainEqual(expect.objectContaining({ pointer: '/cursor', code: 'invalid_cursor' }));
  });

  it('exports every matching row as CSV with Accept: text/csv, escaped', async () => {
    const res = await fetch(`${t.url}/v0/audit-events?action=customer.create`, { headers: { authorization: `Bearer ${t.key}`, accept: 'text/csv' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await res.text()).split('\r\n');
    expect(lines[0]).toBe('id,occurred_at,action,outcome,code,replayed,entity_type,entity_id,actor_type,api_key_prefix,ip,user_agent,request_id');
    expect(lines.at(-1)).toBe('');
    expect(lines).toHaveLength(1 + 6 + 1);
    // A user agent a spreadsheet would run as a formula is defused, and its quotes and comma escaped.
    expect(lines[1]).toContain(`,"'=HYPERLINK(""x""), evil",`);
    expect(lines[2]).toContain(`,customer.create,succeeded,,false,customer,${customerIds[4]},api_key,`);
  });

  it('shows another partner nothing of this one’s log, and this one nothing of theirs', async () => {
    const other = t.client(await t.keyFor('Other Partner'));
    const mine = await api.get('/v0/audit-events?limit=100');
    const theirs = await other.get('/v0/audit-events');
    expect(theirs.status).toBe(200);
    expect(theirs.body.items).toEqual([
      expect.objectContaining({ action: 'api_key.create', actor: expect.objectContaining({ type: 'cli', api_key_prefix: null }) }),
    ]);
    expect(theirs.body.items.map((i: any) => i.id)).not.toContain(mine.body.items[0].id);
    expect((await other.get(`/v0/audit-events?entity_id=${customerIds[0]}`)).body.items).toEqual([]);
    const cursor = (await api.get('/v0/audit-events?limit=1')).body.next_cursor;
    expect((await other.get(`/v0/audit-events?cursor=${encodeURIComponent(cursor)}`)).status).toBe(400);
  });

  it('records the keys CLI’s revocation with actor cli, in the partner’s log', async () => {
    const key = await t.keyFor('Revoked Partner');
    const prefix = key.slice(0, 19);
    const before = await t.client(key).get('/v0/audit-events');
    await revokeApiKey(t.ramp.db.fork(), prefix);
    const rows = await t.sql<{ action: string; actor_type: string }>(
      `select action, actor_type from audit_events where partner_id = (select partner_id from api_keys where prefix = ?) order by occurred_at, action`,
      [prefix],
    );
    expect(before.body.items).toHaveLength(1);
    expect(rows).toEqual([
      { action: 'api_key.create', actor_type: 'cli' },
      { action: 'api_key.revoke', actor_type: 'cli' },
    ]);
  });
});

describe('auditEvents (GraphQL)', () => {
  const QUERY = `query ($first: Int, $after: String, $action: String, $entityId: String) {
    auditEvents(first: $first, after: $after, action: $action, entityId: $entityId) {
      edges { cursor node { databaseId action outcome code replayed entityType entityId actorType apiKeyPrefix ip userAgent requestId occurredAt } }
      pageInfo { hasNextPage endCursor }
    }
  }`;

  it('pages the same rows as REST, newest first, with the same filters', async () => {
    const rest = await api.get('/v0/audit-events?action=customer.create&limit=100');
    const ids: string[] = [];
    let after: string | null = null;
    for (;;) {
      const res: any = await api.graphql(QUERY, { first: 4, after, action: 'customer.create' });
      expect(res.body.errors).toBeUndefined();
      const connection = res.body.data.auditEvents;
      ids.push(...connection.edges.map((e: any) => e.node.databaseId));
      if (!connection.pageInfo.hasNextPage) break;
      after = connection.pageInfo.endCursor;
    }
    expect(ids).toEqual(rest.body.items.map((i: any) => i.id));
    const one = await api.graphql(QUERY, { entityId: customerIds[1] });
    expect(one.body.data.auditEvents.edges).toEqual([
      {
        cursor: expect.any(String),
        node: expect.objectContaining({ action: 'customer.create', outcome: 'SUCCEEDED', actorType: 'API_KEY', entityType: 'customer' }),
      },
    ]);
  });

  it('counts the rows its filters match as totalCount, the same as REST lists', async () => {
    const rest = await api.get('/v0/audit-events?action=customer.create&limit=100');
    const counted = await api.graphql(
      `query ($action: String, $entityId: String) { all: auditEvents(first: 1) { totalCount } created: auditEvents(first: 1, action: $action) { totalCount }
        one: auditEvents(first: 1, entityId: $entityId) { totalCount } }`,
      { action: 'customer.create', entityId: customerIds[1] },
    );
    expect(counted.body.errors).toBeUndefined();
    expect(counted.body.data.created.totalCount).toBe(rest.body.items.length);
    expect(counted.body.data.one.totalCount).toBe(1);
    expect(counted.body.data.all.totalCount).toBeGreaterThan(counted.body.data.created.totalCount);
  });
});
