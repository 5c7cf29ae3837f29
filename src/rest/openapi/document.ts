import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { contract, type RouteContract } from './contract.js';
import { describedWithoutRead, keptSchema, keptWithoutRead } from '../answer-scopes.js';
import { type AnsweredCode, STATUS_OF_ANSWERED_CODE, codesOf } from './errors.js';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '../../platform/use-cases/idempotency.js';
import { COMPONENT_SCHEMAS, IDEMPOTENCY_KEY_DESCRIPTION, jsonSchemaOf } from './schemas.js';
import { encryptusEnvelope, shapeOf } from '../http-errors.js';

type JsonObject = Record<string, unknown>;

/** A route as Fastify registered it, with the contract its module declared (none for /docs, /metrics, /graphql…). */
export interface RegisteredRoute {
  method: string;
  url: string;
  contract?: RouteContract;
}

/** `/v0/customers/:customer_id` → `/v0/customers/{customer_id}`. */
export const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** The spec writes Encryptus's whitelist paths with a double slash; the document keeps its spelling. */
const specPath = (path: string) => path.replace(/^\/v1\/partners\/forensics\//, '/v1//partners/forensics/');

/** Paths compared as the router compares them (duplicate slashes folded). */
export const foldedPath = (path: string) => path.replace(/\/{2,}/g, '/');

const jsonContent = (schema: JsonObject, contentType = 'application/json', examples?: unknown) => ({
  [contentType]: { schema, ...(examples === undefined ? {} : { example: examples }) },
});

function parametersOf(url: string, c: RouteContract): JsonObject[] {
  const path = [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    description: c.params?.[name!] ?? 'A resource id (a UUID, either letter case)',
    schema: { type: 'string', format: 'uuid' },
  }));
  const query = c.query ? queryParameters(c) : [];
  const idempotency = c.idempotencyKey
    ? [
        {
          name: 'Idempotency-Key',
          in: 'header',
          required: c.idempotencyKey === 'required',
          description: IDEMPOTENCY_KEY_DESCRIPTION,
          // The bare form, printable ASCII (what a header carries) not starting with the quote of the structured-field form.
          schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH, pattern: '^[!#-~][ -~]*$' },
          // One of its own per operation: a key sent again with another body is 422 idempotency_key_reused.
          example: `${c.operationId}-0001`,
        },
      ]
    : [];
  return [...path, ...query, ...idempotency];
}

/** Query parameters as they are meant (whole numbers with bounds) rather than as the strings they travel as. */
function queryParameters(c: RouteContract): JsonObject[] {
  const input = jsonSchemaOf(c.query!, 'input') as { properties?: Record<string, JsonObject>; required?: string[] };
  // A query that ends in a transform (the events API's) has its parameters' meaning on the pipe's input side.
  const parsed = c.query instanceof z.ZodPipe ? (c.query.in as z.ZodType) : c.query!;
  const output = jsonSchemaOf(parsed, 'output') as { properties?: Record<string, JsonObject> };
  return Object.entries(input.properties ?? {}).map(([name, schema]) => {
    const meant = output.properties?.[name];
    const numeric = meant && (meant.type === 'integer' || meant.type === 'number');
    return { name, in: 'query', required: input.required?.includes(name) ?? false, schema: numeric ? meant : schema };
  });
}

const byStatus = <T>(responses: Record<string, T>) => Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)));

const problemOf = (code: AnsweredCode) => ({ status: STATUS_OF_ANSWERED_CODE[code], code, title: '', detail: '', errors: [] });

/** An error answer: its shape by path, its codes as an enum (and, under /v1 and /auth, the Encryptus codes they map to). */
function errorResponse(encryptus: boolean, status: number, codes: AnsweredCode[]): JsonObject {
  const enumOf = { type: 'string', enum: codes };
  const schema = encryptus
    ? {
        allOf: [
          { $ref: '#/components/schemas/EncryptusError' },
          {
            type: 'object',
            properties: {
              status: { const: status },
              code: { type: 'string', enum: [...new Set(codes.map((code) => encryptusEnvelope(problemOf(code), '').body.code))] },
              data: { type: 'object', properties: { error: enumOf } },
            },
          },
        ],
      }
    : { allOf: [{ $ref: '#/components/schemas/Problem' }, { type: 'object', properties: { status: { const: status }, code: enumOf } }] };
  return {
    description: codes.map((code) => `\`${code}\``).join(', '),
    content: jsonContent(schema, encryptus ? 'application/json' : 'application/problem+json'),
  };
}

/** `rate_limited` → `RateLimited`: the name of a shared response in `components.responses`. */
const pascal = (code: string) => code.replace(/(^|_)([a-z])/g, (_, __, letter: string) => letter.toUpperCase());

/**
 * The error answers of a route, by status. A status with one code every route shares (401, 429,
 * 500…), or a server-side one (503) is a `$ref` to `components.responses`, so the document states it once per shape.
 */
function errorResponses(path: string, codes: AnsweredCode[], shared: Record<string, JsonObject>): Record<string, JsonObject> {
  const encryptus = shapeOf(path) === 'encryptus';
  const byStatus = new Map<number, AnsweredCode[]>();
  for (const code of codes) {
    const status = encryptus ? encryptusEnvelope(problemOf(code), '').status : STATUS_OF_ANSWERED_CODE[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, JsonObject> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    // A server-side status (503: an outage or a shed load) has the same codes on every route: shared too.
    if (list.length === 1 || status >= 500) {
      const name = `${encryptus ? 'Encryptus' : 'Problem'}${list.map(pascal).join('Or')}`;
      shared[name] ??= errorResponse(encryptus, status, list);
      responses[String(status)] = { $ref: `#/components/responses/${name}` };
    } else responses[String(status)] = errorResponse(encryptus, status, list);
  }
  return responses;
}

interface Components {
  schemas: Record<string, JsonObject>;
  responses: Record<string, JsonObject>;
}

function operationOf(route: RegisteredRoute & { contract: RouteContract }, components: Components): JsonObject {
  const c = route.contract;
  const success: Record<string, JsonObject> = {};
  const kept = keptWithoutRead(c);
  for (const [status, declared] of Object.entries(c.responses)) {
    // A change answers a key without `read` its ids only: the reference gives both shapes.
    const cut = kept && declared.body && Number(status) < 300;
    const answer = cut
      ? { ...declared, description: describedWithoutRead(declared.description, kept), body: z.union([declared.body!, keptSchema(declared.body!, kept)]) }
      : declared;
    success[status] = {
      description: answer.description,
      ...(answer.body ? { content: jsonContent(jsonSchemaOf(answer.body, 'output', components.schemas), answer.contentType) } : {}),
      ...(answer.body && answer.alternatives
        ? {
            content: {
              ...jsonContent(jsonSchemaOf(answer.body, 'output', components.schemas), answer.contentType),
              ...Object.fromEntries(
                Object.entries(answer.alternatives).map(([type, body]) => [type, { schema: jsonSchemaOf(body, 'output', components.schemas) }]),
              ),
            },
          }
        : {}),
    };
  }
  const hasParams = route.url.includes(':');
  return {
    operationId: c.operationId,
    summary: c.summary,
    ...(c.description ? { description: c.description } : {}),
    tags: [c.tag],
    security: c.public ? [] : [{ apiKey: [] }],
    parameters: parametersOf(route.url, c),
    ...(c.body ? { requestBody: { required: !c.bodyOptional, content: jsonContent(jsonSchemaOf(c.body, 'input'), 'application/json', c.example) } } : {}),
    // A status the route answers itself (/readyz's 503) is its own answer, not the shared error's.
    responses: byStatus({ ...errorResponses(route.url, codesOf(c, { hasParams }), components.responses), ...success }),
  };
}

/** The document's `info.version`: the REST layer's, moved with breaking or additive changes to it. */
export const API_VERSION = '0.1.0';

/**
 * What each group of operations is (the partner guide, docs/api/ served at /docs, says more of each), in the order
 * the document lists them and Swagger UI shows them: the /v0 API first, then Encryptus's /v1, then operations.
 */
const TAGS: Record<string, string> = {
  Customers: 'Individuals and businesses, their KYC',
  'External accounts': "Customers' bank accounts, payout destinations",
  'Virtual accounts': 'Standing fiat deposit accounts that convert to a fixed wallet',
  'On-ramp': 'Fiat → stablecoin: quotes and transfers',
  'Off-ramp': 'Stablecoin → fiat: quotes and transfers',
  Webhooks: 'Event delivery endpoints',
  Events: 'The event stream after a cursor (extension)',
  Networks: 'The chains stablecoins move on, live or simulated, and the sandbox faucet (extension)',
  Audit: 'The audit log: every state-changing call, succeeded or refused (extension)',
  'Partner (/v1)': "Encryptus's partner account and whitelists",
  'Business KYB (/v1)': 'Corporate KYB import',
  Operations: 'Liveness and readiness (no key)',
  Reference: 'This document (no key)',
};

const TAG_ORDER = Object.keys(TAGS);
/** TAGS's order; a tag it does not describe goes last, by name. */
const byTagOrder = (a: string, b: string) => {
  const rank = (tag: string) => (TAG_ORDER.includes(tag) ? TAG_ORDER.indexOf(tag) : TAG_ORDER.length);
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
};

const sortedByName = <T>(entries: Record<string, T>) => Object.fromEntries(Object.entries(entries).sort(([a], [b]) => (a < b ? -1 : 1)));

export interface OpenApiOptions {
  version: string;
}

/** The OpenAPI 3.1 document of every route that declared a contract. */
export function openApiDocument(routes: readonly RegisteredRoute[], { version }: OpenApiOptions) {
  const paths: Record<string, Record<string, JsonObject>> = {};
  const components: Components = { schemas: {}, responses: {} };
  const documented = routes.filter((r): r is RegisteredRoute & { contract: RouteContract } => !!r.contract);
  for (const route of [...documented].sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0))) {
    const path = specPath(openApiPath(route.url));
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operationOf(route, components);
  }
  return {
    openapi: '3.1.1',
    info: {
      title: 'Ramp partner REST API',
      version,
      description:
        'The REST compatibility layer of Ramp (Align-style `/v0`, Encryptus-style `/v1` and `/auth`). Generated from the ' +
        "zod schemas that parse each request; the guide is at [/docs](/docs). Errors under /v0 are RFC 9457 problem+json whose `type` links to the code's entry in /docs.",
      // Not an SPDX identifier (npm's UNLICENSED is not one): Swagger UI made it a link to a page that does not exist.
      license: { name: 'Proprietary: all rights reserved' },
    },
    servers: [{ url: '/', description: 'This Ramp' }],
    tags: [...new Set(documented.map((r) => r.contract.tag))].sort(byTagOrder).map((name) => ({ name, description: TAGS[name] ?? name })),
    security: [{ apiKey: [] }],
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key (`npm run keys`): `Authorization: Bearer rk_sandbox_…` (`rk_live_…` in production)',
        },
      },
      schemas: { ...COMPONENT_SCHEMAS, ...sortedByName(components.schemas) },
      responses: sortedByName(components.responses),
    },
  };
}
export type OpenApiDocument = ReturnType<typeof openApiDocument>;

/**
 * Gathers every route as it is registered and serves the document at GET /openapi.json (no key:
 * the contract is public, as the partner guide is). Register before the features' routes.
 */
export function registerOpenApi(app: FastifyInstance, options: OpenApiOptions) {
  const routes: RegisteredRoute[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') routes.push({ method, url: route.url, contract: route.config?.contract });
    }
  });
  let document: OpenApiDocument | undefined;
  const current = () => (document ??= openApiDocument(routes, options));
  app.get(
    '/openapi.json',
    contract({
      operationId: 'getOpenApiDocument',
      summary: 'This document',
      tag: 'Reference',
      public: true,
      responses: {
        200: {
          description: 'The OpenAPI 3.1 document of this API',
          body: z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) }),
        },
      },
    }),
    // Read by the reference page on every visit (hundreds of kilobytes): compressed when the client accepts it.
    async (_, reply) => reply.type('application/json; charset=utf-8').compress(JSON.stringify(current())),
  );
  return { routes, document: current };
}
export type OpenApi = ReturnType<typeof registerOpenApi>;

const patternOf = (url: string) =>
  new RegExp(
    `^${foldedPath(url)
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      .replace(/:[A-Za-z0-9_]+/g, '[^/]+')}$`,
  );
const patterns = new Map<string, RegExp>();

/** The methods some route takes at this concrete path (with HEAD beside GET); none for an unknown path. */
export function allowedMethods(routes: readonly RegisteredRoute[], url: string): string[] {
  const path = foldedPath(url.split('?')[0]!);
  const methods = new Set<string>();
  for (const route of routes) {
    if (route.url === '*' || route.method === 'OPTIONS') continue;
    const pattern = patterns.get(route.url) ?? patternOf(route.url);
    patterns.set(route.url, pattern);
    if (pattern.test(path)) methods.add(route.method);
  }
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}
