import cors from '@fastify/cors';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Config } from '../config.js';
import { AddressNotAllowed, type Authenticate } from '../platform/security/auth.js';
import type { Feature } from '../feature.js';
import type { Database } from '../platform/db/database.js';
import { RequestEntityManager } from '../platform/db/request-em.js';
import { BAD_REQUEST, answerClientError, problemOfCode, replyWithProblem, toProblem } from './http-errors.js';
import { routePath } from '../platform/http/route-path.js';
import { registerRequestInput } from './request-input.js';
import { registerTracing } from '../platform/observability/http-tracing.js';
import type { Tracing } from '../platform/observability/tracing.js';
import { type AuditActions, registerAudit } from './audit.js';
import type { Logger } from '../platform/observability/logging.js';
import { type Metrics, metricsRoutes } from '../platform/observability/metrics.js';
import { registerRateLimit } from '../platform/security/rate-limit.js';
import { OVERLOADED_RETRY_AFTER_SECONDS, registerAdmission } from '../platform/http/admission.js';
import { registerCompression } from '../platform/http/compression.js';
import { registerSecurityHeaders } from '../platform/security/headers.js';
import { DATABASE_RETRY_AFTER_SECONDS } from '../platform/db/database-errors.js';
import { contract } from './openapi/contract.js';
import { API_VERSION, allowedMethods, type OpenApi, registerOpenApi } from './openapi/document.js';
import { requireScope } from '../domain/scopes.js';
import { ChainUnavailableError } from '../domain/errors.js';
import type { ClientAddresses } from '../platform/security/client-address.js';
import { requireRouteScopes } from './route-scopes.js';
import { registerAnswerScopes } from './answer-scopes.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;
/** The refusals of a request's body (problem codes, toProblem's), which a request no route takes does not get. */
const BODY_REFUSALS = new Set<string>([BAD_REQUEST, 'malformed_json', 'body_too_deep', 'unsupported_media_type', 'payload_too_large']);
/** Routes that need an API key; /graphql authenticates in its own context. */
const AUTHENTICATED_PREFIXES = ['/v0/', '/v1/', '/auth/'];
/** Whether a path needs an API key (routePath folds duplicate slashes as the router does: //v0/… is /v0/…). */
const needsKey = (url: string) => AUTHENTICATED_PREFIXES.some((p) => routePath(url).startsWith(p));

/** Where a request keeps its RequestEntityManager once made (`request.requestEm`). */
const REQUEST_EM = Symbol('requestEm');

export interface HttpApp {
  app: FastifyInstance;
  /** The routes as registered and the OpenAPI document of the REST ones (GET /openapi.json). */
  openApi: OpenApi;
  close(): Promise<void>;
}

/** What the server must close with itself: the GraphQL endpoint's WebSocket server. */
export interface Mounted {
  close(): Promise<void>;
}

/** `Services` is whatever the features' routes take: this layer only hands it on. */
export interface HttpDeps<Services> {
  config: Config;
  db: Database;
  services: Services;
  logger: Logger;
  metrics: Metrics;
  /** Resolves the API key of a request (the partners module's keys, handed in by the composition root). */
  authenticate: Authenticate;
  /** Spans of requests, and the W3C trace context a caller sends, carried into what the request records. */
  tracing: Tracing;
  /** Who sent a request: the trusted proxies of TRUST_PROXY (platform/security/client-address.ts). */
  clientAddresses: ClientAddresses;
  /** The features whose routes this server answers. */
  features: readonly Feature<Services>[];
  /** The audit log's names of state-changing operations (the audit module's table, handed in by app.ts). */
  auditActions: AuditActions;
  /** Each live chain's state (`sandbox:polygon` → `ok` or `unreachable`), probed within a second, for /readyz. */
  chainReadiness?: () => Promise<Record<string, 'ok' | 'unreachable'>>;
  /** Mounts what answers beside the REST routes, after them: GraphQL at /graphql (graphql/server.ts, from app.ts). */
  mount?: (app: FastifyInstance) => Mounted;
}

export async function buildHttpApp<Services>(deps: HttpDeps<Services>): Promise<HttpApp> {
  const { config, db, services, logger, metrics, authenticate } = deps;
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    bodyLimit: config.BODY_LIMIT_BYTES,
    // request.ip is the client's: X-Forwarded-For is read only from the proxies TRUST_PROXY names.
    trustProxy: deps.clientAddresses.trustProxy,
    // The spec writes some /v1 paths with a double slash; both spellings must route.
    routerOptions: { ignoreDuplicateSlashes: true },
    // The router's and Node's own refusals (bad percent-encoding, over-long ids, unparsable HTTP) in our shapes.
    frameworkErrors: (error, request, reply) => replyWithProblem(request, reply.header('x-request-id', request.id), toProblem(error)),
    clientErrorHandler: answerClientError,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
  });

  app.decorate('publicUrl', config.PUBLIC_URL);
  registerTracing(app, deps.tracing);
  await app.register(cors, {
    origin: config.isProduction ? config.CORS_ORIGINS : true,
    // An OPTIONS that is not a real preflight gets the plain 204 too, not the plugin's own text/plain 400.
    strictPreflight: false,
    exposedHeaders: [
      'x-request-id',
      'idempotent-replayed',
      'retry-after',
      'ratelimit-limit',
      'ratelimit-remaining',
      'ratelimit-reset',
      'ratelimit-policy',
      'ratelimit',
    ],
  });
  // Before every hook that can refuse a request, so refusals carry them too.
  await registerSecurityHeaders(app, config);
  await registerCompression(app);

  registerRequestInput(app);
  // Before any route registers: it wraps their handlers (the audit log, rest/audit.ts).
  registerAudit(app, deps.auditActions);

  // A request the instance has no room for is refused before its route does any work.
  registerAdmission(app, { config, metrics, connectionWaitMs: db.connectionWaitMs });
  // One EntityManager per request, shared by the rate limiter, authentication, the routes and GraphQL, and forked
  // only when one of them needs it: a read that runs Kysely statements alone needs none. Made on first use rather
  // than in a hook, so a request refused by an earlier hook (admission) has one too if its answer asks for it.
  app.decorateRequest(REQUEST_EM, null);
  app.decorateRequest('requestEm', {
    getter(this: FastifyRequest) {
      const kept = this as unknown as { [REQUEST_EM]: RequestEntityManager | null };
      kept[REQUEST_EM] ??= RequestEntityManager.of(db);
      return kept[REQUEST_EM];
    },
  });
  app.decorateRequest('em', {
    getter(this: FastifyRequest) {
      return this.requestEm.get();
    },
  });
  app.decorateRequest('actor', null);
  // Before authentication, so floods with bad keys are limited too; it leaves the resolved key on request.actor.
  await registerRateLimit(app, { config, db, logger, metrics, authenticate });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (needsKey(request.url)) {
      try {
        request.actor ??= await authenticate(request.requestEm, request.headers.authorization, { clientIp: request.ip });
      } catch (error) {
        // The key was valid, the address not: the refusal is the key's, for the audit log (it never runs as the key).
        if (error instanceof AddressNotAllowed) request.actor = error.actor;
        throw error;
      }
      // Before the body is read or anything runs: a key without the route's scope does nothing.
      const scope = request.routeOptions.config?.contract?.scope;
      if (scope) requireScope(request.actor, scope);
    }
  });
  // Every route that needs a key declares the scope it needs in its contract, or Ramp does not start.
  requireRouteScopes(app, needsKey);
  // A key without `read` gets the ids of what a change changed, not the resource.
  registerAnswerScopes(app, needsKey);

  app.setErrorHandler((error, request, reply) => {
    const problem = toProblem(error);
    // Fastify reads the body before the not-found handler runs. On a request no route takes, a body it cannot read
    // (a QUERY without Content-Type, which RFC 10008 §2 refuses; malformed JSON) hides the more basic answer: 405 or 404.
    if (request.is404 && BODY_REFUSALS.has(problem.code)) return answerUnrouted(request, reply);
    // Only our own failures are errors; a client's mistake is information, with its code for support
    // (not its detail, which may quote the client's input).
    if (problem.code === 'overloaded') {
      // Load shed (here or by a saturated connection pool): expected under bursts, told to retry.
      request.log.warn({ code: problem.code }, 'overloaded');
      reply.header('retry-after', String(OVERLOADED_RETRY_AFTER_SECONDS));
    } else if (problem.code === 'database_unavailable') {
      // An outage, not a bug: one short line per request, and the client is told when to retry.
      request.log.warn({ code: problem.code, reason: error instanceof Error ? error.message : String(error) }, 'database unavailable');
      reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
    } else if (error instanceof ChainUnavailableError) {
      // The chain's outage, as the database's: a warning with what the node did, and when to retry.
      const reason = error.cause instanceof Error ? error.cause.message : error.message;
      request.log.warn({ code: problem.code, network: error.network, reason }, 'chain unavailable');
      reply.header('retry-after', String(error.retryAfterSeconds));
    } else if (problem.status >= 500) request.log.error({ err: error }, 'unexpected error');
    else request.log.info({ code: problem.code, status: problem.status }, 'client error');
    return replyWithProblem(request, reply, problem);
  });
  const openApi = registerOpenApi(app, { version: API_VERSION });
  /** A request no route takes: a known path with a method it does not take is 405 with the methods it does (RFC 9110 §15.5.6). */
  function answerUnrouted(request: FastifyRequest, reply: FastifyReply) {
    const allow = allowedMethods(openApi.routes, request.url);
    if (allow.length) {
      reply.header('allow', allow.join(', '));
      const detail = `This endpoint takes ${allow.join(', ')}, not ${request.method}; see /docs/api`;
      return replyWithProblem(request, reply, problemOfCode('method_not_allowed', detail));
    }
    // The path is not echoed: it may be kilobytes of whatever the client sent.
    return replyWithProblem(request, reply, problemOfCode('route_not_found', `No ${request.method} endpoint at this path; see /docs`));
  }
  app.setNotFoundHandler((request, reply) => answerUnrouted(request, reply));
  const health = { tag: 'Operations', public: true } as const;
  const Status = z.strictObject({ status: z.string(), database: z.enum(['pglite', 'postgresql']).optional() });
  /** Each live chain, `environment:network` → whether its node answered: only /readyz asks them. */
  const Readiness = Status.extend({ chains: z.record(z.string(), z.enum(['ok', 'unreachable'])).optional() });
  app.get(
    '/healthz',
    contract({ ...health, operationId: 'healthz', summary: 'Liveness', responses: { 200: { description: 'The process answers', body: Status } } }),
    async () => ({ status: 'ok' }),
  );
  const readiness = { ...health, operationId: 'readyz', summary: 'Readiness: the database answers, and which live chains do' };
  const ready = {
    200: { description: 'Ready (`ready`), or `degraded` when a live chain does not answer: reads and the other chains still work', body: Readiness },
    503: { description: 'The database cannot be reached', body: Readiness },
  };
  app.get('/readyz', contract({ ...readiness, responses: ready }), async (_, reply) => {
    // Probed together, each bounded on its own: the answer comes within a second whatever hangs.
    const [ready, chains] = await Promise.all([db.isReachable(), deps.chainReadiness?.() ?? {}]);
    const degraded = Object.values(chains).some((state) => state !== 'ok');
    const status = !ready ? 'database unreachable' : degraded ? 'degraded' : 'ready';
    const body = { status, database: db.kind, ...(Object.keys(chains).length ? { chains } : {}) };
    return reply.code(ready ? 200 : 503).send(body);
  });
  metricsRoutes(app, metrics, config);

  for (const feature of deps.features) await feature.routes?.(app, services);
  const mounted = deps.mount?.(app);

  return {
    app,
    openApi,
    async close() {
      await mounted?.close();
      // A keep-alive connection still answering when closing began goes idle later, and Node closes idle connections
      // only once, at close: swept again until close ends, it is closed as soon as its answer left, so closing never
      // waits out the keep-alive timeout (a compressed page in flight at SIGTERM did).
      const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
      try {
        await app.close();
      } finally {
        clearInterval(sweep);
      }
    },
  };
}
