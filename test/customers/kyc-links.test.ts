import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlFieldErrors, restFieldErrors } from '../support/clients/faces.js';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';

/**
 * KYC links as Align has them. POST /v0/customers/{id}/kycs answers the current
 * kycs with a fresh kyc_flow_link; the sandbox page returns a decided applicant to redirect_uri;
 * kycs.status sits at the top level of the REST customer. GraphQL: createKycLink.
 */
let t: TestRamp;
let api: ApiClient;
let n = 0;
const email = () => `kyclink${++n}@example.com`;

beforeAll(async () => {
  t = await startRamp();
  api = t.client(t.key);
});
afterAll(() => t.close());

const newCustomer = async (client: ApiClient = api) =>
  (await client.post('/v0/customers', { email: email(), type: 'individual', first_name: 'Ada', last_name: 'Lovelace' })).body.customer_id as string;

const createLink = (id: string, body?: unknown, client: ApiClient = api, headers?: Record<string, string>) =>
  client.request('POST', `/v0/customers/${id}/kycs`, { body, headers });

const CREATE_LINK = `mutation ($id: ID!, $redirectUri: String, $key: String) {
  createKycLink(input: { customerId: $id, redirectUri: $redirectUri, idempotencyKey: $key }) {
    __typename
    ... on Error { code message }
    ... on ValidationError { fieldErrors { path code message } }
    ... on CreateKycLinkPayload { kyc { status subStatus kycFlowLink statusBreakdown { status } } }
  }
}`;
const DECIDE = `mutation($id: ID!, $d: KycDecision!) { simulateKycDecision(input: { customerId: $id, decision: $d }) { __typename } }`;

const tokenOf = (link: string) => new URL(link).searchParams.get('token');
/** The page's meta refresh target, if it has one. */
const refreshTarget = (html: string) => /<meta http-equiv="refresh" content="0; url=([^"]*)">/.exec(html)?.[1]?.replaceAll('&amp;', '&') ?? null;

describe('POST /v0/customers/{id}/kycs', () => {
  it("answers 201 with the customer's kycs and a working kyc_flow_link, the one GET shows", async () => {
    const id = await newCustomer();
    const res = await createLink(id, { redirect_uri: 'https://partner.example/kyc/done' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      kycs: {
        status: 'not_started',
        status_breakdown: expect.arrayContaining([{ currency: 'usd', payment_rails: 'ach', status: 'not_started' }]),
        sub_status: null,
        kyc_flow_link: expect.stringMatching(new RegExp(`^${t.url}/sandbox/kyc/${id}\\?token=[A-Za-z0-9_-]{32}$`)),
      },
    });
    expect((await api.get(`/v0/customers/${id}`)).body.kycs).toEqual(res.body.kycs);
    const page = await fetch(res.body.kycs.kyc_flow_link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<dd id="kyc-status">not_started</dd>');
  });

  it('accepts no body at all, and an empty one, as a link without redirect_uri', async () => {
    const id = await newCustomer();
    const bare = await api.request('POST', `/v0/customers/${id}/kycs`);
    expect(bare.status).toBe(201);
    expect(bare.body.kycs.kyc_flow_link).toContain(`/sandbox/kyc/${id}?token=`);
    expect((await createLink(id, {})).status).toBe(201);
  });

  it('issues a fresh token every time; only the newest link opens the page', async () => {
    const id = await newCustomer();
    const before = (await api.get(`/v0/customers/${id}`)).body.kycs.kyc_flow_link;
    const first = (await createLink(id, {})).body.kycs.kyc_flow_link;
    const second = (await createLink(id, {})).body.kycs.kyc_flow_link;
    expect(new Set([tokenOf(before), tokenOf(first), tokenOf(second)]).size).toBe(3);
    for (const old of [before, first]) {
      const res = await fetch(old);
      expect(res.status).toBe(404);
      expect(await res.text()).toContain('This verification link is not valid');
    }
    expect((await fetch(second)).status).toBe(200);
    expect((await api.get(`/v0/customers/${id}`)).body.kycs.kyc_flow_link).toBe(second);
  });

  it('replays the first link when the same Idempotency-Key is sent twice, and needs no key', async () => {
    const id = await newCustomer();
    const headers = { 'idempotency-key': `kyc-link-${id}` };
    const first = await createLink(id, { redirect_uri: 'https://partner.example/back' }, api, headers);
    const again = await createLink(id, { redirect_uri: 'https://partner.example/back' }, api, headers);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await createLink(id, { redirect_uri: 'https://partner.example/other' }, api, headers)).body.code).toBe('idempotency_key_reused');
  });

  it('records no event: a link is not a KYC change', async () => {
    const id = await newCustomer();
    await createLink(id, { redirect_uri: 'https://partner.example/back' });
    const events = await t.sql<{ type: string }>('select type from events where entity_id = ? order by cursor', [id]);
    expect(events.map((e) => e.type)).toEqual(['customer.created']);
  });

  it("answers 404 for an unknown customer and another partner's", async () => {
    const other = t.client(await t.keyFor('Kyc Link Other Partner'));
    const theirs = await newCustomer(other);
    for (const id of [theirs, '5b0f3c56-3c0e-4f7e-9d0e-1f2a3b4c5d6e']) {
      const res = await createLink(id, {});
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
  });

  it('answers 403 kyc_provider_not_configured with a production key: production has no hosted flow yet', async () => {
    const prod = t.client(await t.keyFor('Demo Partner', 'production'));
    const id = await newCustomer(prod);
    const res = await createLink(id, { redirect_uri: 'https://partner.example/back' }, prod);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('kyc_provider_not_configured');
    const gql = await prod.graphql(CREATE_LINK, { id, redirectUri: 'https://partner.example/back' });
    expect(gql.body.data.createKycLink).toMatchObject({ __typename: 'ForbiddenError', code: 'KYC_PROVIDER_NOT_CONFIGURED' });
    // http to this machine is a sandbox convenience: a production key is told to use https.
    expect(restFieldErrors(await createLink(id, { redirect_uri: 'http://localhost:3000/back' }, prod))).toEqual(['/redirect_uri url_not_https']);
  });
});

describe('redirect_uri validation, the same in both faces', () => {
  const cases: Array<[string, unknown, string]> = [
    ['not a URL', 'partner.example/back', 'invalid_url'],
    ['a relative path', '/kyc/done', 'invalid_url'],
    ['another scheme', 'javascript:alert(1)', 'invalid_url'],
    ['ftp', 'ftp://partner.example/back', 'invalid_url'],
    ['credentials in it', 'https://user:secret@partner.example/back', 'invalid_url'],
    ['a username alone', 'https://user@partner.example/back', 'invalid_url'],
    ['a #fragment', 'https://partner.example/back#done', 'invalid_url'],
    ['plain http to another host', 'http://partner.example/back', 'url_not_https'],
    ['plain http to a private address', 'http://10.0.0.5/back', 'url_not_https'],
    ['over 2048 characters', `https://partner.example/${'a'.repeat(2030)}`, 'too_big'],
    ['not a string', 42, 'invalid_type'],
  ];

  for (const [what, value, code] of cases) {
    it(`refuses ${what} with ${code}: /redirect_uri in REST, /redirectUri in GraphQL`, async () => {
      const id = await newCustomer();
      const before = (await api.get(`/v0/customers/${id}`)).body.kycs.kyc_flow_link;
      expect(restFieldErrors(await createLink(id, { redirect_uri: value }))).toEqual([`/redirect_uri ${code}`]);
      if (typeof value === 'string') {
        expect(await graphqlFieldErrors(api, CREATE_LINK, 'createKycLink', { id, redirectUri: value })).toEqual([`/redirectUri ${code}`]);
      }
      // A refused request issues no link: the one shown before still works.
      expect((await api.get(`/v0/customers/${id}`)).body.kycs.kyc_flow_link).toBe(before);
    });
  }

  it('words the same rule the same way in both faces', async () => {
    const id = await newCustomer();
    const rest = await createLink(id, { redirect_uri: 'https://user:secret@partner.example/' });
    const gql = await api.graphql(CREATE_LINK, { id, redirectUri: 'https://user:secret@partner.example/' });
    expect(rest.body.errors[0].detail).toBe(gql.body.data.createKycLink.fieldErrors[0].message);
    expect(JSON.stringify(rest.body)).not.toContain('secret');
  });

  it('refuses unknown body fields', async () => {
    const id = await newCustomer();
    expect(restFieldErrors(await createLink(id, { redirect_url: 'https://partner.example/' }))).toEqual(['/redirect_url unrecognized_keys']);
  });

  it('accepts https anywhere, and plain http to localhost, 127.0.0.1 and [::1] with a sandbox key', async () => {
    const id = await newCustomer();
    for (const uri of ['https://partner.example/kyc?session=1', 'http://localhost:3000/back', 'http://127.0.0.1:8080/back', 'http://[::1]:8080/back']) {
      expect((await createLink(id, { redirect_uri: uri })).status, uri).toBe(201);
    }
  });
});

describe('kycs.status at the top level of the REST customer', () => {
  it('follows the customer-level status beside status_breakdown and sub_status, as GraphQL Kyc.status', async () => {
    const id = await newCustomer();
    const kycsOf = async () => (await api.get(`/v0/customers/${id}`)).body.kycs;
    expect(Object.keys(await kycsOf())).toEqual(['status', 'status_breakdown', 'sub_status', 'kyc_flow_link']);
    expect((await kycsOf()).status).toBe('not_started');
    await api.put(`/v0/customers/${id}`, { identifying_information: { tax_number: 'TX-1' } });
    expect(await kycsOf()).toMatchObject({ status: 'pending', sub_status: 'kyc_form_submission_started' });
    await api.graphql(DECIDE, { id, d: 'APPROVED' });
    expect(await kycsOf()).toMatchObject({ status: 'approved', sub_status: 'kyc_approved' });
    const gql = await api.graphql('query($id: ID!) { customer(id: $id) { kycs { status } } }', { id });
    expect(gql.body.data.customer.kycs.status).toBe('APPROVED');
  });

  it('is in the customer.kycs.updated payload too', async () => {
    const id = await newCustomer();
    await api.graphql(DECIDE, { id, d: 'REJECTED' });
    const [event] = await t.sql<{ payload: any }>(`select payload from events where entity_id = ? and type = 'customer.kycs.updated'`, [id]);
    expect(event!.payload.kycs.status).toBe('rejected');
  });
});

describe('GraphQL createKycLink', () => {
  it("answers the customer's kycs with a fresh link; an idempotencyKey replays the same one", async () => {
    const id = await newCustomer();
    const before = (await api.get(`/v0/customers/${id}`)).body.kycs.kyc_flow_link;
    const res = await api.graphql(CREATE_LINK, { id, redirectUri: 'https://partner.example/back', key: `gql-link-${id}` });
    const result = res.body.data.createKycLink;
    expect(result.__typename).toBe('CreateKycLinkPayload');
    expect(result.kyc).toMatchObject({ status: 'NOT_STARTED', subStatus: null, statusBreakdown: expect.any(Array) });
    expect(tokenOf(result.kyc.kycFlowLink)).not.toBe(tokenOf(before));
    expect((await api.get(`/v0/customers/${id}`)).body.kycs.kyc_flow_link).toBe(result.kyc.kycFlowLink);
    const again = await api.graphql(CREATE_LINK, { id, redirectUri: 'https://partner.example/back', key: `gql-link-${id}` });
    expect(again.body.data.createKycLink.kyc.kycFlowLink).toBe(result.kyc.kycFlowLink);
  });

  it('answers NotFoundError for an unknown customer', async () => {
    const res = await api.graphql(CREATE_LINK, { id: '5b0f3c56-3c0e-4f7e-9d0e-1f2a3b4c5d6e' });
    expect(res.body.data.createKycLink).toMatchObject({ __typename: 'NotFoundError', code: 'NOT_FOUND' });
  });
});

describe('the sandbox page returns to redirect_uri', () => {
  const postForm = (link: string, action: string) => {
    const url = new URL(link);
    return fetch(t.url + url.pathname, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: url.searchParams.get('token')!, action }).toString(),
      redirect: 'manual',
    });
  };

  it('once approved: the page refreshes to redirect_uri with customer_id and status, keeping the partner’s own parameters', async () => {
    const id = await newCustomer();
    const link = (await createLink(id, { redirect_uri: 'https://partner.example/kyc/done?session=abc&status=stale' })).body.kycs.kyc_flow_link;
    expect(refreshTarget(await (await fetch(link)).text())).toBeNull();
    expect((await postForm(link, 'submit')).status).toBe(303);
    // Submitting is not the end of the flow: the page stays for the decision.
    expect(refreshTarget(await (await fetch(link)).text())).toBeNull();
    const approved = await postForm(link, 'approve');
    expect(approved.status).toBe(303);
    // The form is answered back to our own page (form-action 'self' would block a redirect elsewhere) …
    expect(approved.headers.get('location')).toBe(new URL(link).pathname + new URL(link).search);
    const page = await fetch(link);
    const html = await page.text();
    // … which sends the browser on, under the page's unchanged CSP.
    expect(refreshTarget(html)).toBe(`https://partner.example/kyc/done?session=abc&status=approved&customer_id=${id}`);
    expect(html).toContain('id="kyc-return"');
    expect(page.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'");
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('once rejected: status=rejected', async () => {
    const id = await newCustomer();
    const link = (await createLink(id, { redirect_uri: 'http://127.0.0.1:9/back' })).body.kycs.kyc_flow_link;
    await postForm(link, 'reject');
    expect(refreshTarget(await (await fetch(link)).text())).toBe(`http://127.0.0.1:9/back?customer_id=${id}&status=rejected`);
  });

  it('follows the newest link only: a link without redirect_uri makes the page stay', async () => {
    const id = await newCustomer();
    await createLink(id, { redirect_uri: 'https://partner.example/back' });
    const link = (await createLink(id, {})).body.kycs.kyc_flow_link;
    await postForm(link, 'approve');
    const html = await (await fetch(link)).text();
    expect(refreshTarget(html)).toBeNull();
    expect(html).toContain('The verification is final');
  });

  it('keeps a refused action on the page, with the reason and a way back', async () => {
    const id = await newCustomer();
    const link = (await createLink(id, { redirect_uri: 'https://partner.example/back' })).body.kycs.kyc_flow_link;
    await postForm(link, 'approve');
    const refused = await postForm(link, 'reject');
    expect(refused.status).toBe(409);
    const html = await refused.text();
    expect(html).toContain('KYC cannot move from approved to rejected');
    expect(refreshTarget(html)).toBeNull();
    expect(html).toContain(`href="https://partner.example/back?customer_id=${id}&amp;status=approved"`);
  });
});
