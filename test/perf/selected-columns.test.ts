import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, type TestRamp, startRamp } from '../support/ramp.js';
import { recordSqlStatements } from '../support/sql-statements.js';
import { createCustomer, ibanAccount, idempotencyKey, offrampQuoteBody, onrampQuoteBody, wallet } from '../support/data/transfers.js';

/**
 * A transfer page selects only the columns its fields read (each field says so: graphql/types/columns.ts).
 * Every field of a transfer, of its quote and of its customer, selected alone in a page, shows what
 * `node(id:)` shows, which reads whole records: a field that reads a column it did not declare
 * answers wrong here (or fails), whichever field it is, because the fields come from the schema.
 */
const sql = recordSqlStatements();
let t: TestRamp;
let api: ApiClient;

interface IntrospectedField {
  name: string;
  args: { name: string }[];
  type: IntrospectedType;
}
interface IntrospectedType {
  kind: string;
  name: string | null;
  ofType: IntrospectedType | null;
}
const types = new Map<string, { kind: string; fields: IntrospectedField[] | null }>();

const named = (type: IntrospectedType): IntrospectedType => (type.ofType ? named(type.ofType) : type);

/** A selection of `field`: a leaf as is, an object with its leaf fields (one level), a connection by its node ids. */
function selectionOf(field: IntrospectedField): string | null {
  if (field.args.some((a) => a.name === 'first')) return `${field.name}(first: 5) { edges { node { id } } }`;
  const type = named(field.type);
  if (type.kind === 'SCALAR' || type.kind === 'ENUM') return field.name;
  const fields = types.get(type.name!)?.fields ?? [];
  const leaves = fields.filter((f) => ['SCALAR', 'ENUM'].includes(named(f.type).kind) && !f.args.length).map((f) => f.name);
  return `${field.name} { __typename ${leaves.join(' ')} }`;
}

const fieldsOf = (typeName: string) => (types.get(typeName)?.fields ?? []).filter((f) => !['id', 'databaseId'].includes(f.name));

async function transferIds(): Promise<{ id: string; typename: string }[]> {
  const page = await api.graphql('{ transfers(first: 10) { edges { node { id __typename } } } }');
  return page.body.data.transfers.edges.map((e: { node: { id: string; __typename: string } }) => ({ id: e.node.id, typename: e.node.__typename }));
}

/** The page's nodes, and each of those nodes read alone through node(id:), under the same selection. */
async function pageAndNodes(selection: (typename: string) => string, nodePath: (node: any) => any) {
  const query = `{ transfers(first: 10) { edges { node { id ... on OnrampTransfer { ${selection('OnrampTransfer')} } ... on OfframpTransfer { ${selection('OfframpTransfer')} } } } } }`;
  const page = await api.graphql(query);
  expect(page.body.errors, `${query}\n${JSON.stringify(page.body.errors)}`).toBeUndefined();
  const listed = page.body.data.transfers.edges.map((e: { node: unknown }) => e.node);
  const alone = await Promise.all(
    (await transferIds()).map(async ({ id, typename }) => {
      const res = await api.graphql(`query ($id: ID!) { node(id: $id) { id ... on ${typename} { ${selection(typename)} } } }`, { id });
      expect(res.body.errors).toBeUndefined();
      return res.body.data.node;
    }),
  );
  return { listed: listed.map(nodePath), alone: alone.map(nodePath) };
}

beforeAll(async () => {
  t = await startRamp({ WEBHOOK_POLL_INTERVAL_MS: '60000', EVENTS_CATCHUP_INTERVAL_MS: '60000' });
  api = t.client(t.key);
  const customerId = await createCustomer(api);
  const onramp = `/v0/customers/${customerId}/onramp-transfer`;
  // Transfers in several states, so nullable fields show values too.
  for (const settle of ['pending', 'deposited', 'completed']) {
    const quote = await api.post(`${onramp}/quote`, onrampQuoteBody());
    const transfer = await api.post(`${onramp}/quote/${quote.body.quote_id}`, { destination_address: wallet() });
    expect(transfer.status).toBe(201);
    if (settle !== 'pending')
      expect((await api.post(`${onramp}/simulate`, { action: 'fiat_deposit', transfer_id: transfer.body.id })).status).toBeLessThan(300);
    if (settle === 'completed')
      expect((await api.post(`${onramp}/simulate`, { action: 'complete_transfer', transfer_id: transfer.body.id })).status).toBeLessThan(300);
  }
  const offramp = offrampQuoteBody({ destination_bank_account: ibanAccount(), transfer_purpose: 'personal_expenses' });
  expect((await api.post(`/v0/customers/${customerId}/offramp-transfer/quote`, offramp, idempotencyKey())).status).toBe(201);

  const schema = await api.graphql(
    '{ __schema { types { kind name fields { name args { name } type { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } }',
  );
  for (const type of schema.body.data.__schema.types) types.set(type.name, type);
});
afterAll(() => t.close());

describe('a transfer page reads only the columns its selection reads', () => {
  it('shows every transfer field as the transfer read alone shows it', async () => {
    const names = new Set([...fieldsOf('OnrampTransfer'), ...fieldsOf('OfframpTransfer')].map((f) => f.name));
    expect(names.size).toBeGreaterThan(25);
    for (const name of names) {
      const selection = (typename: string) => {
        const field = types.get(typename)!.fields!.find((f) => f.name === name);
        return field ? selectionOf(field)! : '__typename';
      };
      const { listed, alone } = await pageAndNodes(selection, (node) => node);
      expect(listed, name).toEqual(alone);
    }
  });

  for (const [relation, typeName] of [
    ['quote', 'Quote'],
    ['customer', 'Customer'],
  ] as const) {
    it(`shows every ${relation} field as the ${relation} read alone shows it`, async () => {
      const fields = fieldsOf(typeName);
      expect(fields.length).toBeGreaterThan(8);
      for (const field of fields) {
        const selection = () => `${relation} { id ${selectionOf(field)} }`;
        const { listed, alone } = await pageAndNodes(selection, (node) => node[relation]);
        expect(listed, `${relation}.${field.name}`).toEqual(alone);
      }
    });
  }

  it('selects a handful of columns for a page showing a few fields, not whole rows', async () => {
    const statements = await sql.during(async () => {
      const page = await api.graphql('{ transfers(first: 100) { edges { node { id status quote { sourceAmount } customer { email } } } } }');
      expect(page.body.errors).toBeUndefined();
      expect(page.body.data.transfers.edges.length).toBe(4);
    });
    const [page] = statements.filter((s) => s.includes('from "transfers" as "t"'));
    const selected = page!.slice(0, page!.indexOf(' from ')).split(',').length;
    // transfer: id, direction, created_at, quote_id, customer_id, status; quote: id, source_amount, source_currency; customer: id, email
    expect(selected, page).toBe(11);
  });

  it('reads whole rows when a selected field does not say what it reads', async () => {
    const statements = await sql.during(async () => {
      const page = await api.graphql('{ transfers(first: 100) { edges { node { id customer { kycs { __typename } } } } } }');
      expect(page.body.errors).toBeUndefined();
    });
    const [page] = statements.filter((s) => s.includes('from "transfers" as "t"'));
    const customerColumns = page!.match(/ as c\d+\b/g)?.length ?? 0;
    expect(customerColumns).toBeGreaterThan(10);
  });
});
