import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lintOpenApi } from '../../scripts/lint-openapi.js';
import { OPENAPI_GENERATED_NOTE, withGeneratedNote } from '../../scripts/print-openapi.js';
import { foldedPath, openApiPath } from '../../src/rest/openapi/document.js';
import { contractCheck } from '../../src/rest/openapi/check.js';
import { startRamp, type TestRamp } from '../support/ramp.js';

const committed = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8'));

/** Routes that are not the REST API: pages for people (docs, console, sandbox KYC) and their icon, GraphQL, Prometheus text, CORS preflights. */
// `/` is the site's door (a browser to the guide, a client to the addresses), not an API operation.
const NOT_REST = [/^\/$/, /^\/favicon\.ico$/, /^\/docs(\/|$)/, /^\/console(\/|$)/, /^\/graphql(\/|$)/, /^\/metrics$/, /^\/sandbox\//, /^\*$/];

let t: TestRamp;
beforeAll(async () => {
  t = await startRamp();
});
afterAll(() => t.close());

describe('openapi.json', () => {
  it('is the document the running code serves at GET /openapi.json, without a key (run `npm run openapi:print` after changing REST code)', async () => {
    const served = await fetch(`${t.url}/openapi.json`);
    expect(served.status).toBe(200);
    // The committed file is that document with its generated-file mark (JSON has no comments).
    expect(withGeneratedNote(await served.json())).toEqual(committed);
  });

  it('says at its root that it is generated, and by which command', () => {
    expect(Object.keys(committed)[0]).toBe('x-generated');
    expect(committed['x-generated']).toBe(OPENAPI_GENERATED_NOTE);
    expect(OPENAPI_GENERATED_NOTE).toContain('npm run openapi:print');
  });

  it('documents every REST route Fastify registered, at its path and method', () => {
    const documented = new Set<string>();
    for (const [path, methods] of Object.entries(committed.paths as Record<string, object>)) {
      for (const method of Object.keys(methods)) documented.add(`${method.toUpperCase()} ${foldedPath(path)}`);
    }
    const routes = t.ramp.http.openApi.routes.filter((r) => r.method !== 'OPTIONS' && !NOT_REST.some((pattern) => pattern.test(r.url)));
    expect(routes.length).toBeGreaterThan(35);
    expect(routes.map((r) => `${r.method} ${foldedPath(openApiPath(r.url))}`).filter((route) => !documented.has(route))).toEqual([]);
  });

  it("keeps the spec's double slash in Encryptus's whitelist paths", () => {
    expect(Object.keys(committed.paths)).toEqual(
      expect.arrayContaining(['/v1//partners/forensics/whitelist/walletAddress', '/v1//partners/forensics/whitelist/bankAccount']),
    );
  });

  it("is OpenAPI 3.1 with no finding of Redocly's recommended rules, and the lint does find a broken document", async () => {
    expect(committed.openapi).toMatch(/^3\.1\./);
    expect(await lintOpenApi(JSON.stringify(committed))).toEqual([]);
    const broken = structuredClone(committed);
    delete broken.paths['/v0/customers'].post.responses;
    broken.paths['/v0/customers'].get.parameters.push({ name: 'limit', in: 'query' });
    expect((await lintOpenApi(JSON.stringify(broken))).map((p) => p.ruleId)).toEqual(expect.arrayContaining(['struct']));
  });

  it('lists its groups /v0 first, then /v1, then operations, as Swagger UI shows them', () => {
    const tags: string[] = committed.tags.map((tag: { name: string }) => tag.name);
    const pathsOf = (tag: string) =>
      Object.entries(committed.paths as Record<string, Record<string, { tags: string[] }>>)
        .filter(([, methods]) => Object.values(methods).some((op) => op.tags.includes(tag)))
        .map(([path]) => path);
    const rank = (tag: string) => (pathsOf(tag).some((p) => p.startsWith('/v0/')) ? 0 : pathsOf(tag).some((p) => p.startsWith('/v1/')) ? 1 : 2);
    expect(tags[0]).toBe('Customers');
    expect(tags.map(rank)).toEqual([...tags.map(rank)].sort());
  });

  it("names its license without an SPDX identifier or link it does not have (npm's UNLICENSED is none)", () => {
    expect(committed.info.license).toEqual({ name: expect.stringMatching(/^Proprietary/) });
  });

  it('offers on each simulate route only the actions it takes: fiat_deposit on an on-ramp, crypto_deposit on an off-ramp', () => {
    const bodyOf = (direction: string) =>
      committed.paths[`/v0/customers/{customer_id}/${direction}-transfer/simulate`].post.requestBody.content['application/json'].schema;
    expect(bodyOf('onramp').properties.action.enum).toEqual(['fiat_deposit', 'complete_transfer', 'fail_transfer', 'refund_transfer']);
    expect(bodyOf('offramp').properties.action.enum).toEqual(['crypto_deposit', 'complete_transfer', 'fail_transfer', 'refund_transfer']);
    // The amount of a deposit: fiat on the one, tokens on the other.
    for (const direction of ['onramp', 'offramp']) expect(bodyOf(direction).properties.amount).toBeDefined();
  });

  it('compiles every response schema under Ajv strict mode', () => {
    const { compiled, errors } = contractCheck(committed).schemaErrors();
    expect(errors).toEqual([]);
    expect(compiled).toBeGreaterThan(200);
  });

  it('states the bounds of every list: limit 1–100 (default 20) and skip 0–10000', () => {
    const parameters = committed.paths['/v0/customers/{customer_id}/external-accounts'].get.parameters;
    expect(parameters).toContainEqual({
      name: 'limit',
      in: 'query',
      required: false,
      schema: expect.objectContaining({ type: 'integer', minimum: 1, maximum: 100 }),
    });
    expect(parameters).toContainEqual({
      name: 'skip',
      in: 'query',
      required: false,
      schema: expect.objectContaining({ type: 'integer', minimum: 0, maximum: 10000 }),
    });
    const list = committed.paths['/v0/customers'].get.responses['200'].content['application/json'].schema;
    expect(list.required).toEqual(['items', 'has_more']);
  });

  it('names the Idempotency-Key, required where the spec requires it, and every code a route can answer', () => {
    const key = (path: string) => committed.paths[path].post.parameters.find((p: { name: string }) => p.name === 'Idempotency-Key');
    expect(key('/v0/customers/{customer_id}/external-accounts').required).toBe(true);
    expect(key('/v0/customers/{customer_id}/offramp-transfer/quote').required).toBe(true);
    expect(key('/v0/customers').required).toBe(false);
    const conflict = committed.paths['/v0/customers'].post.responses['409'].content['application/problem+json'].schema;
    expect(conflict.allOf[1].properties.code.enum).toEqual(['customer_email_taken', 'idempotency_key_in_use']);
    const encryptus = committed.paths['/v1//partners/forensics/whitelist/walletAddress'].post.responses['400'].content['application/json'].schema;
    expect(encryptus.allOf[1].properties.data.properties.error.enum).toContain('wallet_address_already_whitelisted');
  });
});
