import cors from '@fastify/cors';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { Config } from '../config.js';
import { customerRoutes } from '../modules/customers/rest.js';
import { kycPageRoutes } from '../modules/customers/kyc-page.js';
import { kycImportRoutes } from '../modules/kyc-import/rest.js';
import { kybRoutes } from '../modules/kyb/rest.js';
import { bankAccountRoutes } from '../modules/bank-accounts/rest.js';
import { virtualAccountRoutes } from '../modules/virtual-accounts/rest.js';
import { transferRoutes } from '../modules/transfers/rest.js';
import { docsRoutes } from '../modules/docs/rest.js';
import { partnerRoutes } from '../modules/partners/rest.js';
import type { Services } from '../services.js';
import { authenticate } from './auth.js';
import type { Database } from './db.js';
import { mountGraphQL } from './graphql-server.js';
import { encryptusEnvelope, problemJson, toProblem } from './http-errors.js';
import type { Logger } from './logging.js';
import { eventRoutes } from '../modules/events/rest.js';
import { webhookRoutes } from '../modules/webhooks/rest.js';
import { type Metrics, metricsRoutes } from './metrics.js';
import { registerRateLimit } from './rate-limit.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;
/** Routes that need an API key; /graphql authenticates in its own context. */
const AUTHENTICATED_PREFIXES = ['/v0/', '/v1/', '/v1//', '/auth/'];

// /auth/importKYC comes from Encryptus too, so it answers in their envelope (issue 3; README "KYC and KYB").
const isEncryptus = (request: FastifyRequest) => request.url.startsWith('/v1/') || request.url.startsWith('/auth/');

export interface HttpApp {
  app: FastifyInstance;
  close(): Promise<void>;
}

export async function buildHttpApp(deps: { config: Config; db: Database; services: Services; logger: Logger; metrics: Metrics }): Promise<HttpApp> {
  const { config, db, services, logger, metrics } = deps;
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    bodyLimit: config.BODY_LIMIT_BYTES,
    // The spec writes some /v1 paths with a double slash; both spellings must route.
    routerOptions: { ignoreDuplicateSlashes: true },
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
  });

  await app.register(cors, {
    origin: config.isProduction ? config.CORS_ORIGINS : true,
    exposedHeaders: ['x-request-id', 'idempotent-replayed', 'retry-after', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'],
  });

  // JSON only: Fastify's built-in text/plain parser would hand a string to the validators (415 is clearer).
  app.removeContentTypeParser('text/plain');
  // A POST without a body (cancel, simulate) may still say Content-Type: application/json.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
    body === '' ? done(null, undefined) : parseJson(request, body as string, done),
  );

  app.decorateRequest('em', null as never);
  app.decorateRequest('actor', null);
  // Before authentication, so floods with bad keys are limited too; it leaves the resolved key on request.actor.
  await registerRateLimit(app, { config, db, logger, metrics });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    request.em = db.fork();
    if (AUTHENTICATED_PREFIXES.some((p) => request.url.startsWith(p))) {
      request.actor ??= await authenticate(request.em, request.headers.authorization);
    }
  });

  app.setErrorHandler((error, request, reply) => {
    const problem = toProblem(error);
    if (problem.status >= 500) request.log.error({ err: error }, 'unexpected error');
    if (isEncryptus(request)) {
      const envelope = encryptusEnvelope(problem, request.id);
      return reply.code(envelope.status).type('application/json').send(envelope.body);
    }
    return reply.code(problem.status).type('application/problem+json').send(problemJson(problem, request.id));
  });
  app.setNotFoundHandler((request, reply) => {
    const problem = { status: 404, code: 'route_not_found', title: 'Not Found', detail: `No route ${request.method} ${request.url.split('?')[0]}`, errors: [] };
    if (isEncryptus(request)) {
      const envelope = encryptusEnvelope(problem, request.id);
      return reply.code(envelope.status).send(envelope.body);
    }
    return reply.code(404).type('application/problem+json').send(problemJson(problem, request.id));
  });

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_, reply) => {
    const ready = await db.isReachable();
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'database unreachable', database: db.kind });
  });
  metricsRoutes(app, metrics, config);

  await docsRoutes(app);
  customerRoutes(app, services);
  kycPageRoutes(app, services);
  kycImportRoutes(app, services);
  kybRoutes(app, services);
  bankAccountRoutes(app, services);
  virtualAccountRoutes(app, services);
  transferRoutes(app, services);
  partnerRoutes(app, services);
  webhookRoutes(app, services);
  eventRoutes(app, services);
  const graphql = mountGraphQL(app, deps);

  return {
    app,
    async close() {
      await graphql.close();
      await app.close();
    },
  };
}
