import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';
import { graphqlFieldErrors, restFieldErrors } from '../support/clients/faces.js';

/**
 * For webhooks: one use case, two faces. A rule of the domain (the URL rules of
 * the caller's environment) fails with the same code in REST and GraphQL, both naming `/url`.
 */
let t: TestRamp;
let api: ApiClient;

beforeAll(async () => {
  t = await startRamp();
  api = t.client(t.key);
});
afterAll(() => t.close());

/** The one 400's field errors as `pointer code` lines, sorted. */

const REGISTER = `mutation ($url: String!) {
  registerWebhook(input: { url: $url }) { __typename ... on ValidationError { code fieldErrors { path argumentPath code message } } }
}`;

describe('REST face', () => {
  it('points a URL the use case refuses (not http or https) at /url of the body', async () => {
    expect(restFieldErrors(await api.post('/v0/webhooks', { url: 'ftp://example.com/hooks' }))).toEqual(['/url invalid_url']);
  });

  it('reports an empty URL and an unknown field in one 400', async () => {
    expect(restFieldErrors(await api.post('/v0/webhooks', { url: '', secret: 'mine' }))).toEqual(['/secret unrecognized_keys', '/url too_small']);
  });
});

describe('GraphQL face', () => {
  it('names the url field of input for a URL the use case refuses', async () => {
    expect(await graphqlFieldErrors(api, REGISTER, 'registerWebhook', { url: 'ftp://example.com/hooks' })).toEqual(['/url invalid_url']);
    const res = await api.graphql(REGISTER, { url: 'ftp://example.com/hooks' });
    expect(res.body.data.registerWebhook.fieldErrors[0].argumentPath).toEqual(['input', 'url']);
  });

  it('names the url field of input for an empty URL', async () => {
    expect(await graphqlFieldErrors(api, REGISTER, 'registerWebhook', { url: '' })).toEqual(['/url too_small']);
  });
});

describe('both faces', () => {
  it('fail the production URL rules with the same code and the same sentence', async () => {
    const production = t.client(await t.keyFor('Demo Partner', 'production'));
    for (const [url, code] of [
      ['http://93.184.215.14/hooks', 'url_not_https'],
      ['https://10.1.2.3/hooks', 'url_not_public'],
    ] as const) {
      const rest = await production.post('/v0/webhooks', { url });
      const gql = await production.graphql(REGISTER, { url });
      const [restError] = rest.body.errors as { pointer: string; code: string; detail: string }[];
      const [gqlError] = gql.body.data.registerWebhook.fieldErrors as { path: string; code: string; message: string }[];
      expect(restError).toMatchObject({ pointer: '/url', code });
      expect(gqlError).toEqual({ path: '/url', argumentPath: ['input', 'url'], code, message: restError!.detail });
    }
  });
});
