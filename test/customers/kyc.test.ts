import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRamp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { type ApiClient, apiClient, freshDatabaseEnv, startRamp, type TestRamp } from '../support/ramp.js';

let t: TestRamp;
let api: ApiClient;
let n = 0;
const email = () => `kyc${++n}@example.com`;

beforeAll(async () => {
  t = await startRamp();
  api = t.client(t.key);
});
afterAll(() => t.close());

const newCustomer = async (client: ApiClient = api) =>
  (await client.post('/v0/customers', { email: email(), type: 'individual', first_name: 'Ada', last_name: 'Lovelace' })).body.customer_id as string;

const kycOf = async (id: string, client: ApiClient = api) => (await client.get(`/v0/customers/${id}`)).body.kycs;
const statusOf = async (id: string) => {
  const statuses = new Set((await kycOf(id)).status_breakdown.map((r: any) => r.status));
  expect(statuses.size).toBe(1);
  return [...statuses][0];
};
const kycEvents = async (id: string) =>
  await t.sql<{ type: string; payload: any }>(`select type, payload from events where entity_id = ? and type = 'customer.kycs.updated' order by cursor`, [id]);

const SUBMIT = `mutation($id: ID!) { simulateKycSubmission(input: { customerId: $id }) {
  __typename ... on Error { code message } ... on SimulateKycSubmissionPayload { customer { kycs { status subStatus } } } } }`;
const DECIDE = `mutation($id: ID!, $d: KycDecision!) { simulateKycDecision(input: { customerId: $id, decision: $d }) {
  __typename ... on Error { code message } ... on SimulateKycDecisionPayload { customer { kycs { status subStatus } } } } }`;

/** Posts the hosted page's form exactly as a browser does. */
const postForm = (path: string, fields: Record<string, string>) =>
  fetch(t.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });

const linkParts = (link: string) => {
  const url = new URL(link);
  return { path: url.pathname, token: url.searchParams.get('token')!, pathAndQuery: url.pathname + url.search };
};

describe('KYC lifecycle', () => {
  it('walks not_started → pending → in_review → approved, one customer.kycs.updated per change', async () => {
    const id = await newCustomer();
    expect(await kycOf(id)).toMatchObject({ sub_status: null });
    expect(await statusOf(id)).toBe('not_started');

    await api.put(`/v0/customers/${id}`, { identifying_information: { id_document: { number: 'P1234567', issuing_country: 'GB' } } });
    expect(await statusOf(id)).toBe('pending');
    expect((await kycOf(id)).sub_status).toBe('kyc_form_submission_started');

    const submitted = await api.graphql(SUBMIT, { id });
    expect(submitted.body.data.simulateKycSubmission.customer.kycs).toEqual({ status: 'IN_REVIEW', subStatus: 'kyc_form_submitted' });

    const approved = await api.graphql(DECIDE, { id, d: 'APPROVED' });
    expect(approved.body.data.simulateKycDecision.customer.kycs).toEqual({ status: 'APPROVED', subStatus: 'kyc_approved' });

    const events = await kycEvents(id);
    expect(events.map((e) => e.payload.kycs.status_breakdown[0].status)).toEqual(['pending', 'in_review', 'approved']);
    expect(events.map((e) => e.payload.kycs.sub_status)).toEqual(['kyc_form_submission_started', 'kyc_form_submitted', 'kyc_approved']);
  });

  it('refuses every change of an approved customer with ConflictError kyc_transition_not_allowed, recording nothing', async () => {
    const id = await newCustomer();
    await api.graphql(DECIDE, { id, d: 'APPROVED' });
    const before = (await kycEvents(id)).length;
    for (const [query, variables] of [
      [DECIDE, { id, d: 'REJECTED' }],
      [DECIDE, { id, d: 'APPROVED' }],
      [SUBMIT, { id }],
    ] as const) {
      const res = await api.graphql(query, variables);
      const result = Object.values(res.body.data)[0] as any;
      expect(result).toMatchObject({ __typename: 'ConflictError', code: 'KYC_TRANSITION_NOT_ALLOWED' });
    }
    expect(await statusOf(id)).toBe('approved');
    expect(await kycEvents(id)).toHaveLength(before);
  });

  // Two approvals, not an approval and a rejection: a rejected customer may still be approved (the applicant
  // resubmits, rejected → pending → in_review → approved), so with one of each the outcome would hang on which
  // request took the row lock first. Whichever approval locks second sees `approved` and is refused.
  it('lets only one of two simultaneous decisions through: the other sees the decided status and is refused', async () => {
    const id = await newCustomer();
    const [a, b] = await Promise.all([api.graphql(DECIDE, { id, d: 'APPROVED' }), api.graphql(DECIDE, { id, d: 'APPROVED' })]);
    const outcomes = [a, b].map((r) => r.body.data.simulateKycDecision.__typename).sort();
    expect(outcomes).toEqual(['ConflictError', 'SimulateKycDecisionPayload']);
    expect(await kycEvents(id)).toHaveLength(1);
  });

  it('refuses to submit a verification that is already in review', async () => {
    const id = await newCustomer();
    await api.graphql(SUBMIT, { id });
    const again = await api.graphql(SUBMIT, { id });
    expect(again.body.data.simulateKycSubmission).toMatchObject({ __typename: 'ConflictError', code: 'KYC_TRANSITION_NOT_ALLOWED' });
    expect(again.body.data.simulateKycSubmission.message).toBe('KYC cannot move from in_review to in_review');
  });

  it('lets a rejected customer resubmit: new KYC data on PUT moves rejected → pending', async () => {
    const id = await newCustomer();
    await api.graphql(DECIDE, { id, d: 'REJECTED' });
    expect(await statusOf(id)).toBe('rejected');
    await api.put(`/v0/customers/${id}`, { documents: [{ file_id: 'file_2', purpose: 'proof_of_address' }] });
    expect(await statusOf(id)).toBe('pending');
    expect((await kycEvents(id)).map((e) => e.payload.kycs.status_breakdown[0].status)).toEqual(['rejected', 'pending']);
  });

  it('keeps an approved customer approved when the partner sends more KYC data', async () => {
    const id = await newCustomer();
    await api.graphql(DECIDE, { id, d: 'APPROVED' });
    const res = await api.put(`/v0/customers/${id}`, { identifying_information: { tax_number: 'TX-9' } });
    expect(res.status).toBe(200);
    expect(await statusOf(id)).toBe('approved');
    expect(await kycEvents(id)).toHaveLength(1);
  });

  it('shows the customer-level status in GraphQL and filters by it', async () => {
    const own = t.client(await t.keyFor('Kyc Status Partner'));
    const a = await newCustomer(own);
    const b = await newCustomer(own);
    await own.graphql(SUBMIT, { id: b });
    const res = await own.graphql(`query($s: KycStatus) { customers(kycStatus: $s) { edges { node { databaseId kycs { status } } } } }`, { s: 'IN_REVIEW' });
    expect(res.body.data.customers.edges).toEqual([{ node: { databaseId: b, kycs: { status: 'IN_REVIEW' } } }]);
    expect((await own.graphql(`query($id: ID!) { customer(id: $id) { kycs { status } } }`, { id: a })).body.data.customer.kycs.status).toBe('NOT_STARTED');
  });

  it('refuses the sandbox simulations with a production key (ForbiddenError sandbox_only)', async () => {
    const prod = t.client(await t.keyFor('Demo Partner', 'production'));
    const id = await newCustomer(prod);
    expect((await prod.graphql(SUBMIT, { id })).body.data.simulateKycSubmission).toMatchObject({ __typename: 'ForbiddenError', code: 'SANDBOX_ONLY' });
    expect((await prod.graphql(DECIDE, { id, d: 'APPROVED' })).body.data.simulateKycDecision).toMatchObject({
      __typename: 'ForbiddenError',
      code: 'SANDBOX_ONLY',
    });
  });

  it("answers NotFoundError for another partner's customer", async () => {
    const other = t.client(await t.keyFor('Kyc Other Partner'));
    const id = await newCustomer();
    expect((await other.graphql(DECIDE, { id, d: 'APPROVED' })).body.data.simulateKycDecision).toMatchObject({ __typename: 'NotFoundError' });
    expect(await statusOf(id)).toBe('not_started');
  });
});

describe('kyc_flow_link', () => {
  it('carries an unguessable token, different for every customer', async () => {
    const [a, b] = [await newCustomer(), await newCustomer()];
    const [linkA, linkB] = [(await kycOf(a)).kyc_flow_link, (await kycOf(b)).kyc_flow_link];
    expect(linkA).toMatch(new RegExp(`^${t.url}/sandbox/kyc/${a}\\?token=[A-Za-z0-9_-]{32}$`));
    expect(linkParts(linkA).token).not.toBe(linkParts(linkB).token);
    const gql = await api.graphql(`query($id: ID!) { customer(id: $id) { kycs { kycFlowLink } } }`, { id: a });
    expect(gql.body.data.customer.kycs.kycFlowLink).toBe(linkA);
  });

  it('is null for production customers, who have no hosted flow', async () => {
    const prod = t.client(await t.keyFor('Demo Partner', 'production'));
    const id = await newCustomer(prod);
    expect((await kycOf(id, prod)).kyc_flow_link).toBeNull();
  });
});

describe('the sandbox verification page', () => {
  it('shows the customer and its KYC without an API key', async () => {
    const id = await newCustomer();
    const page = await fetch((await kycOf(id)).kyc_flow_link);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await page.text();
    expect(html).toContain('Ada Lovelace');
    expect(html).toContain('<dd id="kyc-status">not_started</dd>');
    expect(html).toContain('value="submit"');
  });

  it('submits, then approves through the form, each answered 303 back to the page', async () => {
    const id = await newCustomer();
    const { path, token, pathAndQuery } = linkParts((await kycOf(id)).kyc_flow_link);

    const submitted = await postForm(path, { token, action: 'submit' });
    expect(submitted.status).toBe(303);
    expect(submitted.headers.get('location')).toBe(pathAndQuery);
    expect(await statusOf(id)).toBe('in_review');
    const page = await (await fetch(t.url + pathAndQuery)).text();
    expect(page).toContain('<dd id="kyc-status">in_review</dd>');
    expect(page).toContain('<dd id="kyc-sub-status">kyc_form_submitted</dd>');
    expect(page).not.toContain('value="submit"');

    expect((await postForm(path, { token, action: 'approve' })).status).toBe(303);
    expect(await statusOf(id)).toBe('approved');
    expect((await kycEvents(id)).map((e) => e.payload.kycs.status_breakdown[0].status)).toEqual(['in_review', 'approved']);
    const final = await (await fetch(t.url + pathAndQuery)).text();
    expect(final).toContain('The verification is final');
  });

  it('rejects through the form', async () => {
    const id = await newCustomer();
    const { path, token } = linkParts((await kycOf(id)).kyc_flow_link);
    expect((await postForm(path, { token, action: 'reject' })).status).toBe(303);
    expect(await statusOf(id)).toBe('rejected');
    expect((await kycOf(id)).sub_status).toBe('kyc_rejected');
  });

  it('answers 409 with the page and the reason for a transition the table forbids', async () => {
    const id = await newCustomer();
    const { path, token } = linkParts((await kycOf(id)).kyc_flow_link);
    await postForm(path, { token, action: 'approve' });
    const res = await postForm(path, { token, action: 'reject' });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain('KYC cannot move from approved to rejected');
    expect(await statusOf(id)).toBe('approved');
  });

  it('answers 400 for an unknown action', async () => {
    const id = await newCustomer();
    const { path, token } = linkParts((await kycOf(id)).kyc_flow_link);
    const res = await postForm(path, { token, action: 'delete' });
    expect(res.status).toBe(400);
    expect(await statusOf(id)).toBe('not_started');
  });

  it('answers 404 for a missing or wrong token, an unknown id and a malformed id, and changes nothing', async () => {
    const id = await newCustomer();
    const { token } = linkParts((await kycOf(id)).kyc_flow_link);
    const wrong = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    for (const path of [
      `/sandbox/kyc/${id}`,
      `/sandbox/kyc/${id}?token=${wrong}`,
      `/sandbox/kyc/5b0f3c56-3c0e-4f7e-9d0e-1f2a3b4c5d6e?token=${token}`,
      `/sandbox/kyc/nope?token=${token}`,
    ]) {
      const res = await fetch(t.url + path);
      expect(res.status).toBe(404);
      expect(await res.text()).toContain('This verification link is not valid');
    }
    expect((await postForm(`/sandbox/kyc/${id}`, { token: wrong, action: 'approve' })).status).toBe(404);
    expect((await postForm(`/sandbox/kyc/${id}`, { action: 'approve' })).status).toBe(404);
    expect(await statusOf(id)).toBe('not_started');
  });

  it("does not open another partner's customer with this partner's token", async () => {
    const other = t.client(await t.keyFor('Page Other Partner'));
    const theirs = await newCustomer(other);
    const mine = await newCustomer();
    const { token } = linkParts((await kycOf(mine)).kyc_flow_link);
    expect((await fetch(`${t.url}/sandbox/kyc/${theirs}?token=${token}`)).status).toBe(404);
    expect((await postForm(`/sandbox/kyc/${theirs}`, { token, action: 'approve' })).status).toBe(404);
    expect((await kycOf(theirs, other)).status_breakdown[0].status).toBe('not_started');
  });

  it('answers 404 for a production customer, even with its stored token', async () => {
    const prod = t.client(await t.keyFor('Demo Partner', 'production'));
    const id = await newCustomer(prod);
    const [row] = await t.sql<{ kyc_page_token: string }>('select kyc_page_token from customers where id = ?', [id]);
    const token = row!.kyc_page_token;
    expect((await fetch(`${t.url}/sandbox/kyc/${id}?token=${token}`)).status).toBe(404);
    expect((await postForm(`/sandbox/kyc/${id}`, { token, action: 'approve' })).status).toBe(404);
  });

  it('parses form bodies on the page only: the API still refuses them with 415', async () => {
    const res = await api.request('POST', '/v0/customers', {
      raw: 'email=form%40example.com&type=corporate&company_name=Form',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
  });
});

describe('logs', () => {
  it('never contain the page token, even at info level', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write: (chunk, _enc, done) => {
        lines.push(String(chunk));
        done();
      },
    });
    const database = await freshDatabaseEnv();
    const config = loadConfig({ NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...database.env });
    const ramp = await createRamp(config, { logger: pino({ level: 'info' }, sink) });
    try {
      const base = await ramp.listen();
      const client = apiClient(base, ramp.demoKey);
      const id = (await client.post('/v0/customers', { email: 'logged@example.com', type: 'corporate', company_name: 'Logged' })).body.customer_id;
      const link = (await client.get(`/v0/customers/${id}`)).body.kycs.kyc_flow_link;
      const { path, token } = linkParts(link);
      expect((await fetch(link)).status).toBe(200);
      expect(
        (
          await fetch(`${base}${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: `token=${token}&action=submit`,
            redirect: 'manual',
          })
        ).status,
      ).toBe(303);
      expect(lines.some((l) => l.includes('/v0/customers'))).toBe(true); // the API's requests are logged
      expect(lines.join('\n')).not.toContain(token);
    } finally {
      await ramp.close();
      await database.drop();
    }
  });
});
