import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, type ErrorCode, STATUS_OF_CODE } from '../../src/domain/error-codes.js';
import { ChainUnavailableError, ConflictError, DomainError, ForbiddenError, UnprocessableError, ValidationError } from '../../src/domain/errors.js';
import { encryptusEnvelope, problemJson, shapeOf, titleOf, toProblem } from '../../src/rest/http-errors.js';
import { foldedPath, openApiPath } from '../../src/rest/openapi/document.js';
import { codesOf } from '../../src/rest/openapi/errors.js';
import { startRamp, type TestRamp } from '../support/ramp.js';

/** Any domain error: the status must come from its code alone. */
class Raised extends DomainError {}

const committed = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8'));

/** Codes no REST route declares, each answered before or outside any route, with where. */
const OUTSIDE_ROUTES: Partial<Record<ErrorCode, string>> = {
  scope_escalation: 'GraphQL only: creating an API key has no REST route',
  route_not_found: 'the not-found handler: no route matched',
  method_not_allowed: 'the not-found handler: the path is a route, not with this method',
  method_not_implemented: "Node's HTTP parser, before Fastify: a method it does not know",
  throttled: "GraphQL only: an operation over its key's cost budget (graphql/guards/cost.ts)",
  malformed_request: "Node's HTTP parser, before Fastify",
  headers_too_large: "Node's HTTP parser, before Fastify",
  request_timeout: "Node's HTTP parser, before Fastify",
  webhook_disabled: 'GraphQL only: redelivering an event has no REST route',
};

describe('the table of error codes → HTTP status (domain/error-codes.ts)', () => {
  it.each(ERROR_CODES.map((code) => [code, STATUS_OF_CODE[code]] as const))('answers %s with %i over REST, as the table says', (code, status) => {
    const problem = toProblem(new Raised(code, 'why'));
    expect(problem).toMatchObject({ status, code, title: titleOf(status) });
    expect(problemJson(problem, 'req')).toMatchObject({ status, code });
  });

  it("gives Fastify's and Node's refusals and an outage the table's status for their code", () => {
    const cases: [unknown, ErrorCode][] = [
      [Object.assign(new Error('x'), { code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', statusCode: 415 }), 'unsupported_media_type'],
      [Object.assign(new Error('x'), { code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 }), 'payload_too_large'],
      [Object.assign(new Error('x'), { code: 'FST_ERR_CTP_INVALID_JSON_BODY', statusCode: 400 }), 'malformed_json'],
      [Object.assign(new Error('x'), { code: 'FST_ERR_BAD_URL', statusCode: 400 }), 'malformed_url'],
      [Object.assign(new Error('x'), { code: 'FST_ERR_MAX_PARAM_LENGTH', statusCode: 414 }), 'not_found'],
      [Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), 'database_unavailable'],
      // A chain's node refusing a connection fails with the same errno as a database: still the chain's outage.
      [
        Object.assign(new ChainUnavailableError('polygon'), { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) }),
        'chain_unavailable',
      ],
      [new Error('a bug'), 'internal_error'],
    ];
    for (const [error, code] of cases) expect(toProblem(error)).toMatchObject({ code, status: STATUS_OF_CODE[code] });
  });

  it('lets an error class carry only the codes of its own status', () => {
    // Each line fails to compile (tsc --noEmit checks the tests): the class and the table would disagree.
    // @ts-expect-error quote_used is 422, not 409
    expect(new ConflictError('quote_used', 'x').code).toBe('quote_used');
    // @ts-expect-error customer_email_taken is 409, not 422
    expect(new UnprocessableError('customer_email_taken', 'x').code).toBe('customer_email_taken');
    // @ts-expect-error not_found is 404, not 403
    expect(new ForbiddenError('not_found', 'x').code).toBe('not_found');
    // @ts-expect-error quote_expired is 422, not 400
    expect(new ValidationError([], 'x', 'quote_expired').code).toBe('quote_expired');
  });
});

describe('openapi.json declares every code at its status on the routes that can raise it', () => {
  let t: TestRamp;
  beforeAll(async () => {
    t = await startRamp();
  });
  afterAll(() => t.close());

  /** The codes a response of the document lists, its `$ref` to a shared response followed. */
  const codesListed = (response: { $ref?: string; description: string }): string[] => {
    const resolved = response.$ref ? committed.components.responses[response.$ref.split('/').pop()!] : response;
    return resolved.description.split(', ').map((code: string) => code.replaceAll('`', ''));
  };

  it('for every code of the table', () => {
    const declared = new Set<string>();
    const missing: string[] = [];
    for (const route of t.ramp.http.openApi.routes) {
      if (!route.contract) continue;
      const path = Object.keys(committed.paths).find((p) => foldedPath(p) === foldedPath(openApiPath(route.url)))!;
      const responses = committed.paths[path][route.method.toLowerCase()].responses;
      for (const code of codesOf(route.contract, { hasParams: route.url.includes(':') })) {
        if (code === 'bad_request') continue;
        const status = STATUS_OF_CODE[code];
        // /v1 and /auth answer in Encryptus's envelope, which folds 409 into 400.
        const answered = shapeOf(route.url) === 'encryptus' ? encryptusEnvelope(toProblem(new Raised(code, 'x')), '').status : status;
        declared.add(code);
        // A status the route answers itself (/readyz's 503) is documented as its own answer.
        if (answered in route.contract.responses) continue;
        const response = responses[String(answered)];
        if (!response || !codesListed(response).includes(code)) missing.push(`${route.method} ${route.url}: ${code} at ${answered}`);
      }
    }
    expect(missing).toEqual([]);
    expect(ERROR_CODES.filter((code) => !declared.has(code))).toEqual(Object.keys(OUTSIDE_ROUTES));
  });
});
