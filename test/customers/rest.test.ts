import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';

let t: TestRamp;
let api: ApiClient;
let n = 0;
const email = () => `customer${++n}@example.com`;

beforeAll(async () => {
  t = await startRamp();
  api = t.client(t.key);
});
afterAll(() => t.close());

describe('POST /v0/customers', () => {
  it('creates an individual customer and answers 201 with exactly the create fields', async () => {
    const res = await api.post('/v0/customers', { email: 'Ada@Example.com', type: 'individual', first_name: 'Ada', last_name: 'Lovelace' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['company_name', 'customer_id', 'email', 'first_name', 'last_name', 'type']);
    expect(res.body).toMatchObject({ email: 'ada@example.com', type: 'individual', first_name: 'Ada', last_name: 'Lovelace', company_name: null });
    expect(res.body.customer_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('creates a corporate customer with a company name', async () => {
    const res = await api.post('/v0/customers', { email: email(), type: 'corporate', company_name: 'Acme Ltd' });
    expect(res.status).toBe(201);
    expect(res.body.company_name).toBe('Acme Ltd');
  });

  it.each([
    [{ type: 'individual', first_name: 'A', last_name: 'B' }, '/email', 'required'],
    [{ email: 'not-an-email', type: 'individual', first_name: 'A', last_name: 'B' }, '/email', 'invalid_email'],
    [{ email: 'x@example.com', type: 'robot', first_name: 'A', last_name: 'B' }, '/type', 'invalid_enum_value'],
    [{ email: 'x@example.com', type: 'individual', last_name: 'B' }, '/first_name', 'required'],
    [{ email: 'x@example.com', type: 'individual', first_name: 'A' }, '/last_name', 'required'],
    [{ email: 'x@example.com', type: 'corporate' }, '/company_name', 'required'],
    [{ email: 'x@example.com', type: 'individual', first_name: 'A', last_name: 'B', nickname: 'x' }, '/nickname', 'unrecognized_keys'],
  ])('refuses %j with 400 naming %s', async (body, pointer, code) => {
    const res = await api.post('/v0/customers', body);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body).toMatchObject({ status: 400, code: 'validation_failed', title: 'Bad Request' });
    expect(res.body.errors).toContainEqual(expect.objectContaining({ pointer, code }));
    expect(res.body.request_id).toBe(res.headers.get('x-request-id'));
  });

  it('answers 409 for a second customer with the same email (in any letter case)', async () => {
    const address = email();
    expect((await api.post('/v0/customers', { email: address, type: 'corporate', company_name: 'One' })).status).toBe(201);
    const again = await api.post('/v0/customers', { email: address.toUpperCase(), type: 'corporate', company_name: 'Two' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('customer_email_taken');
  });

  it('records one customer.created event per created customer, in the same transaction', async () => {
    const res = await api.post('/v0/customers', { email: email(), type: 'corporate', company_name: 'Evented' });
    const events = await t.sql<{ type: string; payload: any }>('select type, payload from events where entity_id = ?', [res.body.customer_id]);
    expect(events).toHaveLength(1);
    expect(events[0]!.type).toBe('customer.created');
    expect(events[0]!.payload).toMatchObject({ customer_id: res.body.customer_id, company_name: 'Evented', kycs: expect.any(Object) });
  });
});

describe('GET /v0/customers/{customer_id}', () => {
  it('returns the customer with address and kycs', async () => {
    const created = await api.post('/v0/customers', {
      email: email(),
      type: 'individual',
      first_name: 'Grace',
      last_name: 'Hopper',
      address: { country: 'US', city: 'New York', street_line_1: '1 Main St', postal_code: '10001', state: 'NY' },
    });
    const res = await api.get(`/v0/customers/${created.body.customer_id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      customer_id: created.body.customer_id,
      first_name: 'Grace',
      address: { country: 'US', city: 'New York', street_line_1: '1 Main St', postal_code: '10001', state: 'NY' },
      // The link carries its page's token: see test/customers/kyc.test.ts.
      kycs: { sub_status: null, kyc_flow_link: expect.stringMatching(new RegExp(`^${t.url}/sandbox/kyc/${created.body.customer_id}\\?token=`)) },
    });
    expect(res.body.kycs.status_breakdown).toContainEqual({ currency: 'usd', payment_rails: 'ach', status: 'not_started' });
  });

  it('answers 404 for an unknown id and for a malformed one', async () => {
    for (const id of ['5b0f3c56-3c0e-4f7e-9d0e-1f2a3b4c5d6e', 'not-a-uuid']) {
      const res = await api.get(`/v0/customers/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
  });
});

describe('PUT /v0/customers/{customer_id}', () => {
  it('stores identity data, starts KYC and records customer.kycs.updated', async () => {
    const created = await api.post('/v0/customers', { email: email(), type: 'individual', first_name: 'Alan', last_name: 'Turing' });
    const id = created.body.customer_id;
    const res = await api.put(`/v0/customers/${id}`, {
      identifying_information: { id_document: { number: 'X1234567', issuing_country: 'GB' }, tax_number: 'TX-1' },
      documents: [{ file_id: 'file_1', purpose: 'proof_of_address', description: 'Utility bill' }],
      last_name: 'M. Turing',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ customer_id: id, last_name: 'M. Turing', kycs: { sub_status: 'kyc_form_submission_started' } });
    expect(res.body.kycs.status_breakdown.every((r: any) => r.status === 'pending')).toBe(true);
    const [stored] = await t.sql<{ profile: any }>('select profile from customers where id = ?', [id]);
    // Kept, sealed at rest by the customer's data key (decision 022).
    expect(stored!.profile.identifying_information.id_document.number).toMatch(/^v1:/);
    expect(JSON.stringify(stored!.profile)).not.toContain('X1234567');
    const types = (await t.sql<{ type: string }>('select type from events where entity_id = ? order by cursor', [id])).map((e) => e.type);
    expect(types).toEqual(['customer.created', 'customer.kycs.updated']);
  });

  it('refuses names that do not fit the customer type, and unknown customers', async () => {
    const created = await api.post('/v0/customers', { email: email(), type: 'corporate', company_name: 'Co' });
    const wrong = await api.put(`/v0/customers/${created.body.customer_id}`, { first_name: 'Bob' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toContainEqual(expect.objectContaining({ pointer: '/first_name', code: 'not_allowed' }));
    const unknown = await api.put('/v0/customers/5b0f3c56-3c0e-4f7e-9d0e-1f2a3b4c5d6e', { company_name: 'X' });
    expect(unknown.status).toBe(404);
  });
});

describe('customers over GraphQL', () => {
  const CREATE = `mutation($input: CreateCustomerInput!) {
    createCustomer(input: $input) {
      __typename
      ... on CreateCustomerPayload { customer { id databaseId email type firstName kycs { kycFlowLink statusBreakdown { currency paymentRails status } } } }
      ... on Error { code message }
      ... on ValidationError { fieldErrors { path code message } }
    }
  }`;

  it('reads over GraphQL a customer created over REST', async () => {
    const created = await api.post('/v0/customers', { email: email(), type: 'individual', first_name: 'Kat', last_name: 'Johnson' });
    const res = await api.graphql(`query($id: ID!) { customer(id: $id) { id databaseId email firstName lastName type kycs { subStatus } } }`, {
      id: created.body.customer_id,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.customer).toEqual({
      id: expect.any(String),
      databaseId: created.body.customer_id,
      email: created.body.email,
      firstName: 'Kat',
      lastName: 'Johnson',
      type: 'INDIVIDUAL',
      kycs: { subStatus: null },
    });
  });

  it('creates a customer, and returns typed validation and conflict errors', async () => {
    const address = email();
    const ok = await api.graphql(CREATE, { input: { email: address, type: 'CORPORATE', companyName: 'GQL Inc' } });
    expect(ok.body.data.createCustomer.__typename).toBe('CreateCustomerPayload');
    expect(ok.body.data.createCustomer.customer).toMatchObject({ email: address, type: 'CORPORATE' });
    expect(ok.body.data.createCustomer.customer.kycs.statusBreakdown).toContainEqual({ currency: 'USD', paymentRails: 'ACH', status: 'NOT_STARTED' });

    const invalid = await api.graphql(CREATE, { input: { email: 'nope', type: 'INDIVIDUAL' } });
    expect(invalid.body.data.createCustomer).toMatchObject({ __typename: 'ValidationError', code: 'VALIDATION_FAILED' });
    expect(invalid.body.data.createCustomer.fieldErrors.map((e: any) => e.path).sort()).toEqual(['/email', '/firstName', '/lastName']);

    const duplicate = await api.graphql(CREATE, { input: { email: address, type: 'CORPORATE', companyName: 'Again' } });
    expect(duplicate.body.data.createCustomer).toMatchObject({ __typename: 'ConflictError', code: 'CUSTOMER_EMAIL_TAKEN' });
  });

  it('replays createCustomer for a repeated idempotencyKey', async () => {
    const input = { email: email(), type: 'CORPORATE', companyName: 'Once Ltd', idempotencyKey: 'gql-key-1' };
    const first = await api.graphql(CREATE, { input });
    const second = await api.graphql(CREATE, { input });
    expect(second.body.data.createCustomer.customer.id).toBe(first.body.data.createCustomer.customer.id);
    const reused = await api.graphql(CREATE, { input: { ...input, companyName: 'Other' } });
    expect(reused.body.data.createCustomer).toMatchObject({ __typename: 'UnprocessableError', code: 'IDEMPOTENCY_KEY_REUSED' });
  });

  it('updates a customer', async () => {
    const created = await api.post('/v0/customers', { email: email(), type: 'individual', first_name: 'Old', last_name: 'Name' });
    const res = await api.graphql(
      `mutation($id: ID!) { updateCustomer(input: { customerId: $id, firstName: "New", taxNumber: "TX-9" }) {
        ... on UpdateCustomerPayload { customer { firstName kycs { subStatus } } } } }`,
      { id: created.body.customer_id },
    );
    expect(res.body.data.updateCustomer.customer).toEqual({ firstName: 'New', kycs: { subStatus: 'kyc_form_submission_started' } });
  });

  it("takes the customer's global id in customerId as well as its databaseId; another type's global id is NotFoundError", async () => {
    const databaseId = (await api.post('/v0/customers', { email: email(), type: 'individual', first_name: 'Glo', last_name: 'Bal' })).body.customer_id;
    const { id } = (await api.graphql(`query($id: ID!) { customer(id: $id) { id } }`, { id: databaseId })).body.data.customer;
    const UPDATE = `mutation($input: UpdateCustomerInput!) { updateCustomer(input: $input) {
      __typename ... on Error { code } ... on UpdateCustomerPayload { customer { id databaseId firstName } } } }`;
    const byGlobalId = await api.graphql(UPDATE, { input: { customerId: id, firstName: 'Global' } });
    expect(byGlobalId.body.data.updateCustomer).toEqual({ __typename: 'UpdateCustomerPayload', customer: { id, databaseId, firstName: 'Global' } });
    const otherType = Buffer.from(`Quote:${databaseId}`).toString('base64');
    const refused = await api.graphql(UPDATE, { input: { customerId: otherType, firstName: 'Nope' } });
    expect(refused.body.data.updateCustomer).toEqual({ __typename: 'NotFoundError', code: 'NOT_FOUND' });
    expect((await api.get(`/v0/customers/${databaseId}`)).body.first_name).toBe('Global');
  });

  it('pages through customers with cursors and filters them', async () => {
    const partnerKey = await t.keyFor('Paging Partner');
    const own = t.client(partnerKey);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const type = i % 2 ? 'corporate' : 'individual';
      const body =
        type === 'corporate'
          ? { email: `page${i}@example.com`, type, company_name: `C${i}` }
          : { email: `page${i}@example.com`, type, first_name: 'F', last_name: `L${i}` };
      ids.push((await own.post('/v0/customers', body)).body.customer_id);
    }
    const PAGE = `query($after: String, $type: CustomerType, $email: String) { customers(first: 2, after: $after, type: $type, email: $email) {
      edges { cursor node { databaseId } } pageInfo { hasNextPage endCursor } } }`;
    const seen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const page: any = (await own.graphql(PAGE, { after })).body.data.customers;
      seen.push(...page.edges.map((e: any) => e.node.databaseId));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(seen).toEqual(ids);
    const corporate = (await own.graphql(PAGE, { type: 'CORPORATE' })).body.data.customers.edges.map((e: any) => e.node.databaseId);
    expect(corporate).toEqual([ids[1], ids[3]]);
    const byEmail = (await own.graphql(PAGE, { email: 'PAGE4@example.com' })).body.data.customers.edges.map((e: any) => e.node.databaseId);
    expect(byEmail).toEqual([ids[4]]);
    const tooMany = await own.graphql(`{ customers(first: 101) { edges { cursor } } }`);
    expect(tooMany.body.errors?.[0]?.message).toBeTruthy();
  });

  it('filters customers by KYC status', async () => {
    const own = t.client(await t.keyFor('Kyc Filter Partner'));
    const a = (await own.post('/v0/customers', { email: 'k1@example.com', type: 'corporate', company_name: 'K1' })).body.customer_id;
    const b = (await own.post('/v0/customers', { email: 'k2@example.com', type: 'corporate', company_name: 'K2' })).body.customer_id;
    await own.put(`/v0/customers/${b}`, { identifying_information: { tax_number: 'TX-2' } });
    const q = `query($s: KycStatus) { customers(kycStatus: $s) { totalCount edges { node { databaseId } } } }`;
    const pending = (await own.graphql(q, { s: 'PENDING' })).body.data.customers;
    expect(pending.edges.map((e: any) => e.node.databaseId)).toEqual([b]);
    expect(pending.totalCount).toBe(1);
    expect((await own.graphql(q, { s: 'NOT_STARTED' })).body.data.customers.edges.map((e: any) => e.node.databaseId)).toEqual([a]);
  });
});

describe('simulateKycDecision', () => {
  const DECIDE = `mutation($id: ID!, $d: KycDecision!) { simulateKycDecision(input: { customerId: $id, decision: $d }) {
    __typename ... on Error { code } ... on SimulateKycDecisionPayload { customer { kycs { subStatus statusBreakdown { status } } } } } }`;

  it('approves every rail in the sandbox and records customer.kycs.updated', async () => {
    const id = (await api.post('/v0/customers', { email: email(), type: 'corporate', company_name: 'Approved' })).body.customer_id;
    const res = await api.graphql(DECIDE, { id, d: 'APPROVED' });
    expect(res.body.data.simulateKycDecision.customer.kycs.subStatus).toBe('kyc_approved');
    expect(res.body.data.simulateKycDecision.customer.kycs.statusBreakdown.every((r: any) => r.status === 'APPROVED')).toBe(true);
    const events = await t.sql<{ type: string }>('select type from events where entity_id = ? order by cursor', [id]);
    expect(events.map((e) => e.type)).toEqual(['customer.created', 'customer.kycs.updated']);
  });

  it('is refused with a production key', async () => {
    const prod = t.client(await t.keyFor('Demo Partner', 'production'));
    const id = (await prod.post('/v0/customers', { email: email(), type: 'corporate', company_name: 'Prod' })).body.customer_id;
    const res = await prod.graphql(DECIDE, { id, d: 'REJECTED' });
    expect(res.body.data.simulateKycDecision).toEqual({ __typename: 'ForbiddenError', code: 'SANDBOX_ONLY' });
  });
});

describe('customer mutation results', () => {
  it.each([
    ['CreateCustomer', 'customer', ['ConflictError', 'UnprocessableError', 'ValidationError']],
    ['UpdateCustomer', 'customer', ['ConflictError', 'NotFoundError', 'ValidationError']],
    ['CreateKycLink', 'kyc', ['ConflictError', 'ForbiddenError', 'NotFoundError', 'UnprocessableError', 'ValidationError']],
    ['SimulateKycDecision', 'customer', ['ConflictError', 'ForbiddenError', 'NotFoundError']],
    ['SimulateKycSubmission', 'customer', ['ConflictError', 'ForbiddenError', 'NotFoundError']],
  ])('%sResult is %sPayload { %s } or only the errors it can return: %j', async (verbNoun, field, errors) => {
    const res = await api.graphql(
      `query ($result: String!, $payload: String!) {
        result: __type(name: $result) { kind possibleTypes { name } }
        payload: __type(name: $payload) { fields { name } }
      }`,
      { result: `${verbNoun}Result`, payload: `${verbNoun}Payload` },
    );
    expect(res.body.data.result.kind).toBe('UNION');
    expect(res.body.data.result.possibleTypes.map((m: { name: string }) => m.name).sort()).toEqual([`${verbNoun}Payload`, ...errors].sort());
    expect(res.body.data.payload.fields.map((f: { name: string }) => f.name)).toEqual([field]);
  });
});
