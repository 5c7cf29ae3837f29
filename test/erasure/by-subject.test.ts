import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Migration20261128120000_copies_know_their_customer as CopiesKnowTheirCustomer } from '../../migrations/trust/Migration20261128120000_copies_know_their_customer.js';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';
import { ibanAccount, idempotencyKey } from '../support/data/transfers.js';
import { waitFor } from '../support/clients/webhook-receiver.js';

let t: TestRamp;
let api: ApiClient;
let receiver: Server;
/** Every event the receiver got, as JSON. */
const received: any[] = [];

/**
 * A receiver that answers each delivery with JSON quoting the customer's names and street back (as a partner's
 * service might), so the delivery log's answer excerpts hold copies of them.
 */
async function startEchoingReceiver(): Promise<string> {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      received.push(event);
      const p = event.event_payload ?? {};
      const echo = {
        ok: true,
        customer: {
          first_name: p.first_name,
          last_name: p.last_name,
          note: `thanks ${p.first_name ?? p.account_holder_first_name} of ${(p.address ?? p.account_holder_address)?.street_line_1}`,
        },
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(echo));
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
}

beforeAll(async () => {
  t = await startRamp({ WEBHOOK_RETRY_TIME_SCALE: '0.001' });
  api = t.client(t.key);
  expect((await api.post('/v0/webhooks', { url: await startEchoingReceiver() })).status).toBe(201);
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await t.close();
});

/** A value as it reads inside JSON text: `"` and `\` escaped. */
const escaped = (value: string) => JSON.stringify(value).slice(1, -1);

/** Every text and JSON column of every table, searched for each value as written and as JSON escapes it. */
async function whereFound(values: readonly string[], where = ''): Promise<string[]> {
  const columns = await t.sql<{ table_name: string; column_name: string }>(
    `select table_name, column_name from information_schema.columns
     where table_schema = 'public' and data_type in ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY')`,
  );
  const forms = [...new Set(values.flatMap((v) => [v.toLowerCase(), escaped(v).toLowerCase()]))];
  const found: string[] = [];
  for (const { table_name: table, column_name: column } of columns) {
    // strpos, not LIKE: a value's own `\` and `%` are searched for as they are.
    const counts = forms.map((_, i) => `count(*) filter (where strpos(lower("${column}"::text), ?) > 0)::int as v${i}`).join(', ');
    const [row] = await t.sql<Record<string, number>>(`select ${counts} from "${table}" ${where}`, forms);
    forms.forEach((form, i) => {
      if (row![`v${i}`]! > 0) found.push(`${form} in ${table}.${column}`);
    });
  }
  return found;
}

/** Every event GET /v0/events serves, as the text of its pages. */
async function servedEvents(): Promise<{ text: string; items: any[] }> {
  let after = '0';
  let text = '';
  const items: any[] = [];
  for (;;) {
    const page = await api.get(`/v0/events?after=${after}&limit=100`);
    expect(page.status).toBe(200);
    text += JSON.stringify(page.body);
    items.push(...page.body.items);
    if (!page.body.has_more) return { text, items };
    after = page.body.next_cursor;
  }
}

describe('erasure by subject', () => {
  it("rewrites exactly the erased customer's copies, JSON-aware, and leaves a customer sharing its last name untouched", async () => {
    const marker = randomBytes(4).toString('hex');
    const lastName = `O"Love\\lace ${marker}`;
    const ada = { email: `ada.${marker}@example.com`, first_name: `Ada "Byron" \\ ${marker}`, last_name: lastName };
    const grace = { email: `grace.${marker}@example.com`, first_name: `Grace ${marker}`, last_name: lastName };
    const adaStreet = `12 "St. James's" Sq\\uare ${marker}`;
    const graceStreet = `1 Navy Yard ${marker}`;

    const graceKey = idempotencyKey();
    const graceCreated = await api.post('/v0/customers', { ...grace, type: 'individual' }, graceKey);
    expect(graceCreated.status).toBe(201);
    const graceId = graceCreated.body.customer_id as string;
    const address = (street: string) => ({ country: 'GB', city: 'London', street_line_1: street, postal_code: 'SW1Y 4LE' });
    expect((await api.put(`/v0/customers/${graceId}`, { address: address(graceStreet) })).status).toBe(200);

    const adaCreated = await api.post('/v0/customers', { ...ada, type: 'individual' }, idempotencyKey());
    expect(adaCreated.status).toBe(201);
    const adaId = adaCreated.body.customer_id as string;
    expect((await api.put(`/v0/customers/${adaId}`, { address: address(adaStreet) })).status).toBe(200);
    const account = await api.post(
      `/v0/customers/${adaId}/external-accounts`,
      ibanAccount({ account_holder_first_name: ada.first_name, account_holder_last_name: ada.last_name, account_holder_address: address(adaStreet) }),
      idempotencyKey(),
    );
    expect(account.status).toBe(201);
    // The receiver has answered every event of both with their names and streets quoted back.
    await waitFor(
      async () => {
        const [row] = await t.sql<{ n: number }>(
          `select count(*)::int as n from webhook_delivery_attempts a join webhook_deliveries d on d.id = a.delivery_id join events e on e.id = d.event_id
         where e.customer_id in (?, ?) and a.finished_at is not null`,
          [adaId, graceId],
        );
        const [events] = await t.sql<{ n: number }>('select count(*)::int as n from events where customer_id in (?, ?)', [adaId, graceId]);
        return row!.n === events!.n && row!.n >= 3;
      },
      15_000,
      'every delivery answered',
    );

    const adasOwn = [ada.email, ada.first_name, adaStreet];
    // Before: the values are copied in clear and JSON-escaped (events, stored answers, the receiver's answers); no audit row holds one.
    const before = await whereFound(adasOwn);
    for (const table of ['events.payload', 'events.subject', 'idempotency_keys.response_body', 'webhook_delivery_attempts.response_excerpt']) {
      expect(before.some((f) => f.endsWith(table))).toBe(true);
    }
    expect(before.filter((f) => f.includes(' in audit_events.'))).toEqual([]);
    // Every copy names its customer.
    expect(await t.sql(`select id from events where entity_id in (?, ?, ?) and customer_id is null`, [adaId, graceId, account.body.id])).toEqual([]);

    // Her own row holds none of them in clear (sealed by her data key), before erasure and after it.
    const ownRow = async () => JSON.stringify(await t.sql('select * from customers where id = ?', [adaId])).toLowerCase();
    for (const value of [...adasOwn, ada.last_name]) expect(await ownRow()).not.toContain(escaped(value).toLowerCase());

    const res = await api.post(`/v0/customers/${adaId}/redact`);
    expect(res.status).toBe(200);
    for (const value of [...adasOwn, ada.last_name]) expect(await ownRow()).not.toContain(escaped(value).toLowerCase());
    expect(await t.sql('select customer_id from customer_data_keys where customer_id = ?', [adaId])).toEqual([]);

    // No copy of Ada's own values remains anywhere, as written or JSON-escaped; her last name is gone from her rows.
    expect(await whereFound(adasOwn)).toEqual([]);
    const hers = await t.sql<{ text: string }>(
      `select payload::text || coalesce(subject::text, '') as text from events where customer_id = ?
       union all select response_body::text from idempotency_keys where customer_id = ?
       union all select coalesce(a.response_excerpt, '') from webhook_delivery_attempts a join webhook_deliveries d on d.id = a.delivery_id
         join events e on e.id = d.event_id where e.customer_id = ?`,
      [adaId, adaId, adaId],
    );
    expect(hers.length).toBeGreaterThanOrEqual(6);
    for (const { text } of hers) expect(text.toLowerCase()).not.toContain(escaped(lastName).toLowerCase());
    expect(await t.sql("select id from audit_events where strpos(lower(coalesce(entity_id, '') || coalesce(user_agent, '')), ?) > 0", [marker])).toEqual([]);

    // GET /v0/events serves none of them; Ada's events keep their ids, types and customer.
    const served = await servedEvents();
    for (const value of [...adasOwn, lastName]) {
      const adasEvents = served.items.filter((e) => e.entity_id === adaId || e.event_payload?.customer_id === adaId);
      expect(JSON.stringify(adasEvents)).not.toContain(escaped(value));
    }
    for (const value of adasOwn) expect(served.text).not.toContain(escaped(value));
    const adaCreatedEvent = served.items.find((e) => e.event_type === 'customer.created' && e.entity_id === adaId);
    expect(adaCreatedEvent.event_payload).toMatchObject({ customer_id: adaId, email: '[redacted]', first_name: '[redacted]', last_name: '[redacted]' });

    // Grace, who shares the last name, is untouched: her customer, her events, her stored answer, her receiver's answers.
    expect((await api.get(`/v0/customers/${graceId}`)).body).toMatchObject({ ...grace, address: address(graceStreet) });
    const graceCreatedEvent = served.items.find((e) => e.event_type === 'customer.created' && e.entity_id === graceId);
    expect(graceCreatedEvent.event_payload).toMatchObject(grace);
    const replay = await api.post('/v0/customers', { ...grace, type: 'individual' }, graceKey);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toMatchObject(grace);
    const graceAnswers = await t.sql<{ excerpt: string }>(
      `select a.response_excerpt as excerpt from webhook_delivery_attempts a join webhook_deliveries d on d.id = a.delivery_id
       join events e on e.id = d.event_id where e.customer_id = ? and e.type = 'customer.created'`,
      [graceId],
    );
    expect(JSON.parse(graceAnswers[0]!.excerpt).customer).toMatchObject({ first_name: grace.first_name, last_name: lastName });
    expect(await whereFound([graceStreet, grace.email, grace.first_name])).not.toEqual([]);
  });

  it('backfills the customer of events and stored answers written before copies named it', async () => {
    const marker = randomBytes(4).toString('hex');
    const created = await api.post(
      '/v0/customers',
      { email: `old.${marker}@example.com`, type: 'individual', first_name: 'Old', last_name: marker },
      idempotencyKey(),
    );
    const customerId = created.body.customer_id as string;
    const account = await api.post(`/v0/customers/${customerId}/external-accounts`, ibanAccount(), idempotencyKey());
    expect(account.status).toBe(201);
    // As rows from before the column read: no customer named.
    await t.sql('update events set customer_id = null where customer_id = ?', [customerId]);
    await t.sql('update idempotency_keys set customer_id = null where customer_id = ?', [customerId]);

    // The migration's statements, less those that change the schema (already applied).
    const migration = new CopiesKnowTheirCustomer(t.ramp.db.orm.em.getDriver(), t.ramp.db.orm.config);
    await migration.up();
    for (const query of migration.getQueries()) {
      const text = String(query);
      if (text.startsWith('update')) await t.sql(text);
    }
    const events = await t.sql<{ type: string; customer_id: string | null }>('select type, customer_id from events where entity_id in (?, ?)', [
      customerId,
      account.body.id,
    ]);
    expect(events.map((e) => e.type).sort()).toEqual(['customer.created', 'external_account.created']);
    expect(events.every((e) => e.customer_id === customerId)).toBe(true);
    const answers = await t.sql<{ customer_id: string | null }>(
      `select customer_id from idempotency_keys where response_body ->> 'customer_id' = ? or response_body ->> 'id' = ?`,
      [customerId, account.body.id],
    );
    expect(answers.length).toBeGreaterThanOrEqual(1);
    expect(answers.every((a) => a.customer_id === customerId)).toBe(true);
  });
});
