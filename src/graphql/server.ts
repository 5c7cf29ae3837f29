import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { useDisableIntrospection } from '@graphql-yoga/plugin-disable-introspection';
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ExecutionArgs, GraphQLError, type GraphQLSchema, Kind, getOperationAST, parse } from 'graphql';
import { createGraphQLError, createYoga, isAsyncIterable, type Plugin, processRegularResult, type YogaServerInstance } from 'graphql-yoga';
import type { Context as WsServerContext, SubscribePayload } from 'graphql-ws';
import { type Extra, useServer } from 'graphql-ws/use/ws';
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { WebSocket, WebSocketServer } from 'ws';
import type { Config } from '../config.js';
import type { Actor } from '../domain/environment.js';
import { ChainUnavailableError, DomainError, ForbiddenError, ValidationError } from '../domain/errors.js';
import type { ClientAddresses } from '../platform/security/client-address.js';
import { AddressNotAllowed, type Authenticate } from '../platform/security/auth.js';
import { auditRefusal } from '../platform/security/audit.js';
import { originOf } from '../platform/http/call-origin.js';
import type { Database } from '../platform/db/database.js';
import type { KeyWatch } from './guards/key-watch.js';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable, isPoolSaturated } from '../platform/db/database-errors.js';
import { OVERLOADED_RETRY_AFTER_SECONDS } from '../platform/http/admission.js';
import type { Logger } from '../platform/observability/logging.js';
import { pageCursors } from '../platform/reads/pagination.js';
import { type Metrics, useOperationMetrics } from '../platform/observability/metrics.js';
import { graphiqlContentSecurityPolicy } from '../platform/security/headers.js';
import { sharedSubscriptions } from './shared-subscriptions.js';
import type { Tracing } from '../platform/observability/tracing.js';
import type { GraphQLContext, GraphQLServices } from './context.js';
import { screamingSnake } from './types/enums.js';
import { inPlaceOf, isGraphQLError } from './types/error-place.js';
import { useCompiledQueries, useErrorLocations } from './execution.js';
import { useIncrementalDelivery } from './incremental.js';
import { directQueries } from './direct-queries.js';
import { useQueryLimits } from './guards/limits.js';
import { forbidden, readableTypes, rootFieldScopes, scopeRefusal, useRootFieldScopes } from './guards/scopes.js';
import { type MutationActions, auditRequestRefusal, scopeRefusalAudit, useRequestRefusalAudit } from './audit.js';
import { useCostBudget } from './guards/cost.js';
import { useOperationInLog } from './operation-log.js';
import type { CostBudget } from '../platform/security/cost-budget.js';
import { type FrontendDocuments, TrustedDocuments } from './guards/trusted-documents.js';
import { useOperationTracing } from './tracing.js';
import { RequestEntityManager } from '../platform/db/request-em.js';

type ServerContext = {
  req?: FastifyRequest;
  reply?: FastifyReply;
  authorization?: string;
  requestId?: string;
  params?: unknown;
  /** The caller the direct path (direct-queries.ts) verified before the operation ran. */
  actor?: Actor;
};

/**
 * An operation that only asks for the schema needs no key, so GraphiQL can load before one is set. A document that
 * names neither `__schema` nor `__type` is not one, and is not parsed again here for every request.
 */
function isIntrospectionOnly(query: string | undefined): boolean {
  if (!query || !(query.includes('__schema') || query.includes('__type'))) return false;
  try {
    // Fragments may only be spread where their type fits: under __schema or __type, introspection types.
    const operations = parse(query).definitions.filter((d) => d.kind !== Kind.FRAGMENT_DEFINITION);
    return operations.every(
      (d) => d.kind === Kind.OPERATION_DEFINITION && d.selectionSet.selections.every((s) => s.kind === Kind.FIELD && s.name.value.startsWith('__')),
    );
  } catch {
    return false;
  }
}

/**
 * GraphiQL's first query. Its editor does not wrap lines: each comment line stays within 50 characters, less than
 * the query pane shows beside the result on a 1280-pixel screen (test/resilience/browser/graphiql-csp.test.ts).
 */
const GRAPHIQL_WELCOME = `# Welcome to Ramp.
# 1. In the Headers pane below, replace the
#    placeholder with the sandbox API key that
#    \`npm start\` printed (Bearer rk_sandbox_...).
# 2. Run this query with the play button.
# \`id\` is the global id node(id:) refetches;
# \`databaseId\` is the id REST shows (customer_id).
{
  customers(first: 10) {
    totalCount
    edges {
      node {
        id
        databaseId
        email
        type
        kycs { status kycFlowLink }
      }
    }
  }
}
`;

const describe = (args: unknown[]) => args.map((a) => (a instanceof Error ? a.message : String(a))).join(' ');

type OperationLog = Pick<Logger, 'debug' | 'info' | 'warn' | 'error'>;
/**
 * The HTTP request being served. Yoga's logger and error masking get no context, so without this their
 * lines would carry no request id, and a masked error would name an id found in no log line.
 */
const currentRequest = new AsyncLocalStorage<{ requestId: string; log: OperationLog }>();

/**
 * graphql-ws is the one subscription transport: it authenticates once per connection and bounds the
 * subscriptions a connection holds. Yoga would otherwise stream a subscription sent over HTTP as
 * server-sent events (or multipart), with neither bound and no end. So over HTTP a subscription is
 * refused at once (only the HTTP path's context has `req`), and every answer is one JSON document,
 * whatever the Accept header asks for, except a query's that asked for @defer or @stream: its
 * parts go as multipart/mixed or server-sent events, as the client accepts (decision 024).
 */
function useSubscriptionsOverWebSocketOnly(): Plugin<ServerContext> {
  return {
    onSubscribe({ args, setResultAndStopExecution }) {
      if (!(args.contextValue as ServerContext).req) return;
      const refusal = createGraphQLError(
        'Subscriptions are served over WebSocket only: connect to this same path, /graphql, with graphql-ws (protocol graphql-transport-ws)',
        { extensions: { code: 'SUBSCRIPTIONS_REQUIRE_WEBSOCKET', http: { status: 400 } } },
      );
      setResultAndStopExecution({ errors: [refusal] });
    },
    onResultProcess({ request, result, setResultProcessor }) {
      // Only an incremental query's answer is a stream here: Yoga picked its processor by the Accept header.
      if (isAsyncIterable(result)) return;
      const wantsGraphQLResponse = request.headers.get('accept')?.includes('application/graphql-response+json');
      setResultProcessor(processRegularResult, wantsGraphQLResponse ? 'application/graphql-response+json' : 'application/json');
    },
  };
}

/** An answer in parts (multipart/mixed, text/event-stream), sent as it is produced. */
const isStreamed = (contentType: string | null) => /^(multipart\/mixed|text\/event-stream)/.test(contentType ?? '');

/** Each subscription wakes on every committed event; a connection may hold this many at once. */
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 20;
/** graphql-ws's 4403 Forbidden, which it also sends when connection_init carries a key we refuse. */
export const CLOSE_KEY_REVOKED = 4403;
const wsRefusal = (message: string, code: string) => new GraphQLError(message, { extensions: { code } });

const unauthenticated = (message: string) => createGraphQLError(message, { extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } } });

/** An outage, answered like REST's 503 `database_unavailable` (docs/operations/failure-behaviour.md). */
const databaseUnavailable = () =>
  createGraphQLError('The database cannot be reached right now; retry shortly', {
    extensions: { code: 'DATABASE_UNAVAILABLE', http: { status: 503, headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) } } },
  });

/** A chain's node did not answer, as REST's 503 `chain_unavailable`: the chain's outage, never reported as the database's. */
const chainUnavailable = (error: ChainUnavailableError) =>
  createGraphQLError(error.message, {
    extensions: { code: 'CHAIN_UNAVAILABLE', http: { status: 503, headers: { 'retry-after': String(error.retryAfterSeconds) } } },
  });

/** Every database connection stayed busy while the database answered: the instance is at capacity, as REST's 503 `overloaded`. */
const overloaded = () =>
  createGraphQLError('The server is at capacity; nothing was changed. Retry shortly', {
    extensions: { code: 'OVERLOADED', http: { status: 503, headers: { 'retry-after': String(OVERLOADED_RETRY_AFTER_SECONDS) } } },
  });

/** What Ramp keeps per graphql-ws connection: the caller it authenticated, and which subscriptions count against its key. */
type Connection = {
  authorization?: string;
  /** The client's address, from the upgrade request (TRUST_PROXY's proxies' X-Forwarded-For). */
  clientIp?: string;
  /** The client's User-Agent, from the upgrade request, for the audit of its refusals. */
  userAgent?: string;
  actor?: Actor;
  unwatchKey?: () => void;
  counted?: Set<string>;
};
type WsContext = WsServerContext<{ authorization?: string }, Connection & Extra>;

export interface GraphQLDeps {
  config: Config;
  db: Database;
  services: GraphQLServices;
  logger: Logger;
  metrics?: Metrics;
  authenticate: Authenticate;
  keyWatch: KeyWatch;
  /** The GraphQL cost budget per API key (platform/security/cost-budget.ts); absent when GRAPHQL_COST_BUCKET_SIZE is 0. */
  costBudget?: CostBudget | null;
  /** The Pothos schema the features registered (assembled in graphql/schema.ts, handed in by app.ts). */
  schema: GraphQLSchema;
  /** Subscription pushes continue the trace of the request that caused their event. */
  tracing?: Tracing;
  /** Who sent a graphql-ws upgrade request (platform/security/client-address.ts). */
  clientAddresses: ClientAddresses;
  /** The audit log's names of the mutations, for those refused before they run. */
  mutationActions: MutationActions;
  /** The documents Ramp's own frontends send by hash (the console's): trusted documents whatever the operator's manifest. */
  frontendDocuments?: readonly FrontendDocuments[];
}

export function mountGraphQL(app: FastifyInstance, deps: GraphQLDeps) {
  const { config, db, services, logger, authenticate, keyWatch, schema } = deps;
  // Every root field declares its scope, or this throws and Ramp does not start.
  const fieldScopes = rootFieldScopes(schema);
  const auditScopeRefusal = scopeRefusalAudit(deps.mutationActions);
  const trusted = new TrustedDocuments(
    config.GRAPHQL_TRUSTED_DOCUMENTS ? TrustedDocuments.readManifest(config.GRAPHQL_TRUSTED_DOCUMENTS) : null,
    deps.frontendDocuments,
  );
  const log = (): OperationLog => currentRequest.getStore()?.log ?? logger;
  // One key for every cursor a client is handed: page cursors are sealed under their own subkeys of it.
  const pageCursorsOf = pageCursors(config.eventCursorKey);
  // Each event is executed once per caller and document, whatever the number of its subscribers.
  const shared = sharedSubscriptions<GraphQLContext>({
    callerOf: ({ actor }) => (actor ? `${actor.partnerId}/${actor.environment}/${actor.apiKeyId}` : ''),
    contextFor: ({ actor, requestId }) => ({ requestEm: RequestEntityManager.of(db), actor, requestId, services, pageCursors: pageCursorsOf, log: logger }),
    tracing: deps.tracing,
  });
  // A subscription's own context only starts its stream, whose reads each fork an EntityManager of
  // their own (events/service.ts), and each event runs in a context of its own (above): so the
  // subscriptions fork from one instance-wide EntityManager rather than each holding one for its life.
  const subscribeEm = RequestEntityManager.made(db.fork());
  const sharingSubscriptions: Plugin<ServerContext> = { onSubscribe: ({ setSubscribeFn }) => setSubscribeFn(shared.subscribe as never) };
  /** Subscriptions held now on this instance, by API key (SUBSCRIPTIONS_PER_KEY). */
  const subscriptionsByKey = new Map<string, number>();

  /**
   * `known` is the caller the HTTP layer already resolved (the rate limiter does), saving a second key
   * lookup; `ofRequest` the request's own EntityManager, so one request forks one at most.
   */
  async function contextFor(
    authorization: string | undefined,
    clientIp: string | undefined,
    requestId: string,
    query: string | undefined,
    known?: Actor | null,
    ofRequest?: GraphQLContext['requestEm'],
    userAgent?: string,
  ): Promise<GraphQLContext> {
    const requestEm = ofRequest ?? RequestEntityManager.of(db);
    const origin = { ip: clientIp ?? null, userAgent: userAgent ?? null, requestId };
    const caller = { requestEm, requestId, origin, services, pageCursors: pageCursorsOf, log: log() };
    if (known) return { ...caller, actor: known };
    // The schema is the same for every caller: tools (codegen, GraphiQL, Rover) load it with or without a key,
    // a stale or mistyped one included, so a wrong key in a tool's settings does not hide the schema.
    if (isIntrospectionOnly(query)) return { ...caller, actor: null };
    try {
      return { ...caller, actor: await authenticate(requestEm, authorization, { clientIp }) };
    } catch (error) {
      // A valid key from an address its allowlist leaves out: 403, the refusal kept as its cause, and in the key's audit log.
      if (error instanceof AddressNotAllowed) await auditRefusal(requestEm.get(), error.actor, 'graphql.request', error.code, origin, log());
      if (error instanceof ForbiddenError) throw forbidden(error, { status: 403 });
      if (error instanceof DomainError) throw unauthenticated(error.message);
      if (isPoolSaturated(error)) throw overloaded();
      if (isDatabaseUnavailable(error)) throw databaseUnavailable();
      throw error;
    }
  }

  /** The caller of an HTTP request refused for its shape, from the request itself (Yoga may have built no context). */
  async function refusedCaller({ req }: ServerContext) {
    if (!req) return null;
    const actor = req.actor ?? (await authenticate(req.requestEm, req.headers.authorization, { clientIp: req.ip }).catch(() => null));
    return { requestEm: req.requestEm, log: req.log, requestId: req.id, actor, origin: originOf(req) };
  }

  /** What a client sees of a failure: a domain error's code, an outage's own error, else a request id to quote. */
  const maskError = (error: unknown, message: string): Error => {
    const original = (error as { originalError?: unknown }).originalError;
    if (isPoolSaturated(original ?? error)) {
      log().warn('overloaded: every database connection stayed busy');
      return inPlaceOf(error, overloaded());
    }
    if (isDatabaseUnavailable(original ?? error)) {
      log().warn({ reason: (original as Error | undefined)?.message }, 'database unavailable');
      return inPlaceOf(error, databaseUnavailable());
    }
    if (original instanceof ChainUnavailableError) {
      const reason = original.cause instanceof Error ? original.cause.message : original.message;
      log().warn({ network: original.network, reason }, 'chain unavailable');
      return inPlaceOf(error, chainUnavailable(original));
    }
    if (original instanceof DomainError) {
      log().info({ code: original.code }, 'client error');
      // Queries have no typed error results: the field problems travel in extensions instead.
      // The code as the ErrorCode enum spells it, the field problems as FieldError's fields.
      const fieldErrors =
        original instanceof ValidationError ? original.fieldErrors.map((e) => ({ path: e.pointer, code: e.code, message: e.detail })) : undefined;
      // An HTTP status a refusal carries (403 for a key's scope or address) stays.
      const http = isGraphQLError(error) ? (error as GraphQLError).extensions?.http : undefined;
      const extensions = { code: screamingSnake(original.code), ...(fieldErrors && { fieldErrors }), ...(http !== undefined && { http }) };
      return inPlaceOf(error, createGraphQLError(original.message, { extensions }));
    }
    if (isGraphQLError(error) && (!original || isGraphQLError(original))) return error as Error;
    const requestId = currentRequest.getStore()?.requestId ?? randomUUID();
    log().error({ err: original ?? error, requestId, path: (error as GraphQLError).path }, 'unexpected GraphQL error');
    return inPlaceOf(error, createGraphQLError(message, { extensions: { code: 'INTERNAL_SERVER_ERROR', requestId } }));
  };

  const plugins = [
    useOperationInLog(),
    // A refusal of the request's shape, over HTTP, in the key's audit log before the answer leaves.
    useRequestRefusalAudit(refusedCaller),
    useQueryLimits(),
    // Before anything runs: an operation with a root field outside the key's scopes does nothing.
    useRootFieldScopes(fieldScopes, readableTypes(schema), auditScopeRefusal),
    useIncrementalDelivery(maskError),
    ...(deps.costBudget ? [useCostBudget(deps.costBudget, deps.metrics)] : []),
    useSubscriptionsOverWebSocketOnly(),
    useOperationMetrics(deps.metrics),
    useCSRFPrevention({ requestHeaders: ['x-graphql-yoga-csrf', 'apollo-require-preflight'] }),
    ...(config.graphiqlEnabled ? [] : [useDisableIntrospection()]),
    trusted.plugin(),
    useCompiledQueries((result) => log().info({ errors: result.errors?.map((e) => e.message) }, 'query not compiled')),
    useErrorLocations(),
    useOperationTracing(),
    sharingSubscriptions,
  ];

  const yoga: YogaServerInstance<ServerContext, GraphQLContext> = createYoga<ServerContext, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    // Yoga calls `error` only with an error maskError above replaced, and maskError logs what deserves it:
    // a client's mistake (a DomainError) is not a server error.
    logging: {
      debug: (...args) => log().debug(describe(args)),
      info: (...args) => log().info(describe(args)),
      warn: (...args) => log().warn(describe(args)),
      error: (...args) => log().debug(describe(args)),
    },
    graphiql: config.graphiqlEnabled
      ? {
          title: 'Ramp GraphiQL',
          favicon: '/favicon.ico',
          defaultQuery: GRAPHIQL_WELCOME,
          // The Headers pane opens ready for a key; the schema loads whatever it holds (introspection needs none).
          headers: JSON.stringify({ Authorization: 'Bearer <your sandbox key, printed by npm start>' }, null, 2),
          defaultEditorToolsVisibility: 'headers',
        }
      : false,
    // GraphiQL bundled with the server, so it works without reaching a CDN.
    renderGraphiQL,
    landingPage: false,
    cors: false, // Fastify's CORS plugin answers for the whole server
    context: ({ req, params, actor }) => {
      const requestId = req?.id ?? randomUUID();
      const known = req?.actor ?? actor;
      return contextFor(req?.headers.authorization, req?.ip, requestId, params.query, known, req?.requestEm ?? undefined, req?.headers['user-agent']);
    },
    // Each answer keeps where the failure happened (the field's `path` and `locations`): only its text is replaced.
    maskedErrors: { maskError },
    plugins,
  });

  // A plain query by its text, verified key, answered through the same plugins without Yoga's Fetch-API layer.
  // With trusted documents only, a query by its text is refused: Yoga's path answers that.
  const answerDirectly = directQueries(
    trusted.only,
    yoga as never,
    plugins as Plugin[],
    // The caller as contextFor makes it; an introspection-only document, which runs as no one, goes to Yoga.
    (req, query) =>
      req.actor
        ? Promise.resolve(req.actor)
        : isIntrospectionOnly(query)
          ? Promise.resolve(null)
          : authenticate(req.requestEm, req.headers.authorization, { clientIp: req.ip }).catch(() => null),
    maskError,
  );

  app.route({
    url: yoga.graphqlEndpoint,
    method: ['GET', 'POST', 'OPTIONS'],
    handler: (req, reply) =>
      // The whole answer in the request's context, so a deferred part's log lines and masked errors carry its id too.
      currentRequest.run({ requestId: req.id, log: req.log }, async () => {
        // Media types are case-insensitive (RFC 9110 §8.3.1), Yoga's parser matches them as written.
        const contentType = req.headers['content-type'];
        if (contentType) req.headers['content-type'] = contentType.replace(/^[^;]*/, (mediaType) => mediaType.toLowerCase());
        const direct = await answerDirectly(req, reply);
        if (direct) {
          reply.status(direct.status).headers(direct.headers);
          return reply.send(direct.body);
        }
        const response = await yoga.handleNodeRequestAndResponse(req, reply, { req, reply });
        for (const [key, value] of response.headers) reply.header(key, value);
        reply.status(response.status);
        // Parts of an incremental query go out as they come; every other answer is one document, sent as a
        // string, not piped through Fastify's stream handling (the bytes on the wire are the same).
        if (isStreamed(response.headers.get('content-type')) && response.body) return reply.send(response.body);
        const body = await response.text();
        if (!response.headers.get('content-type')?.startsWith('text/html')) return reply.send(body);
        return reply.header('content-security-policy', graphiqlContentSecurityPolicy(body)).compress(body);
      }),
  });

  // graphql-ws on the same path: authenticated once at connection_init with the API key.
  const wss = new WebSocketServer({ noServer: true });
  app.server.on('upgrade', (request, socket, head) => {
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== yoga.graphqlEndpoint) return socket.destroy();
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
  });
  /** Gives back a subscription's place in its key's count; at most once, whichever of completion and close comes first. */
  const release = (extra: Connection, id: string) => {
    if (!extra.counted?.delete(id) || !extra.actor) return;
    const held = (subscriptionsByKey.get(extra.actor.apiKeyId) ?? 1) - 1;
    if (held > 0) subscriptionsByKey.set(extra.actor.apiKeyId, held);
    else subscriptionsByKey.delete(extra.actor.apiKeyId);
  };
  const wsServer = useServer<{ authorization?: string }, Connection>(
    {
      onConnect: async (ctx) => {
        const authorization = ctx.connectionParams?.authorization;
        const clientIp = deps.clientAddresses.of(ctx.extra.request);
        const userAgent = ctx.extra.request.headers['user-agent'];
        // Nothing reads the upgrade request after this: not held for the connection's life.
        (ctx.extra as { request?: unknown }).request = undefined;
        try {
          // From the database, not the verified-key cache: the connection's one check for its whole life, and a
          // database outage is told as 1013 (retry) whatever the cache holds.
          const actor = await authenticate(RequestEntityManager.of(db), typeof authorization === 'string' ? authorization : undefined, {
            fresh: true,
            clientIp,
          });
          ctx.extra.authorization = authorization as string;
          ctx.extra.clientIp = clientIp;
          ctx.extra.userAgent = userAgent;
          // Its subscriptions run as this caller; a revoked key closes the connection (below).
          ctx.extra.actor = actor;
          // Gone while we looked the key up: onClose has run already, so nothing would unwatch it.
          if (ctx.extra.socket.readyState !== WebSocket.OPEN) return false;
          // The same code as a key refused at connect: this key is no longer accepted (docs/operations/api-keys.md).
          ctx.extra.unwatchKey = keyWatch.watch(actor.apiKeyId, () => ctx.extra.socket.close(CLOSE_KEY_REVOKED, 'API key revoked'));
          return true;
        } catch (error) {
          // A valid key from an address its allowlist leaves out: in the key's audit log before the 4403 leaves.
          if (error instanceof AddressNotAllowed) {
            const origin = { ip: clientIp ?? null, userAgent: userAgent ?? null, requestId: randomUUID() };
            await auditRefusal(db.fork(), error.actor, 'graphql.connection', error.code, origin, logger);
          }
          // 1013 Try Again Later: graphql-ws clients retry it, where 4403 would stop them for good.
          if (isDatabaseUnavailable(error)) ctx.extra.socket.close(1013, 'Database unavailable; try again later');
          return false; // graphql-ws closes with 4403 Forbidden
        }
      },
      onClose: (ctx) => {
        ctx.extra.unwatchKey?.();
        for (const id of ctx.extra.counted ?? []) release(ctx.extra, id);
      },
      onComplete: (ctx, id) => release(ctx.extra, id),
      execute: (args: ExecutionArgs) => (args.rootValue as { execute: (a: ExecutionArgs) => unknown }).execute(args) as never,
      subscribe: (args: ExecutionArgs) => (args.rootValue as { subscribe: (a: ExecutionArgs) => unknown }).subscribe(args) as never,
      onSubscribe: async (ctx, id, params) => {
        const requestId = randomUUID();
        const answer = await subscribeOrRefuse(ctx, id, params, requestId);
        // A subscription refused for its shape is in the key's audit log, as over HTTP, before the refusal leaves.
        if (Array.isArray(answer)) {
          const origin = { ip: ctx.extra.clientIp ?? null, userAgent: ctx.extra.userAgent ?? null, requestId };
          await auditRequestRefusal({ requestEm: RequestEntityManager.of(db), log: logger, requestId, actor: ctx.extra.actor, origin }, answer);
        }
        return answer;
      },
    },
    wss,
  );

  /** What graphql-ws answers a subscribe with: the operation to run, or the errors that refuse it. */
  async function subscribeOrRefuse(ctx: WsContext, id: string, params: SubscribePayload, requestId: string): Promise<ExecutionArgs | readonly GraphQLError[]> {
    // A subscription names a trusted document by hash like an HTTP request does; with trusted documents only, it must.
    let query = params.query;
    const documentId = TrustedDocuments.idOf(params);
    if (documentId !== null || trusted.only) {
      const trustedQuery = documentId === null ? null : await trusted.document(documentId);
      if (!trustedQuery)
        return [
          wsRefusal(
            documentId === null ? 'Only trusted documents run here: name one with documentId' : 'This documentId is not one of the trusted documents',
            documentId === null ? 'PERSISTED_QUERY_ID_REQUIRED' : 'PERSISTED_QUERY_NOT_IN_LIST',
          ),
        ];
      query = trustedQuery;
    }
    const enveloped = yoga.getEnveloped({ authorization: ctx.extra.authorization, requestId, params: { ...params, query } });
    const document = enveloped.parse(query);
    const errors = enveloped.validate(enveloped.schema, document);
    if (errors.length) return errors;
    // Queries and mutations go over HTTP, where rate limits and request logs apply.
    if (getOperationAST(document, params.operationName)?.operation !== 'subscription') {
      return [wsRefusal('The WebSocket carries subscriptions only: send queries and mutations with POST /graphql', 'SUBSCRIPTIONS_ONLY')];
    }
    // graphql-ws has already reserved this subscription's slot when onSubscribe runs.
    if (Object.keys(ctx.subscriptions).length > MAX_SUBSCRIPTIONS_PER_CONNECTION) {
      return [wsRefusal(`At most ${MAX_SUBSCRIPTIONS_PER_CONNECTION} subscriptions per connection`, 'TOO_MANY_SUBSCRIPTIONS')];
    }
    const { actor } = ctx.extra;
    if (!actor) return [wsRefusal('Not authenticated', 'UNAUTHENTICATED')];
    // Subscriptions are reads: a key without `read` is refused here, as graphql-ws's error message.
    const refusal = scopeRefusal(fieldScopes, document, params.operationName, actor);
    if (refusal) {
      const origin = { ip: ctx.extra.clientIp ?? null, userAgent: ctx.extra.userAgent ?? null, requestId };
      await auditScopeRefusal({ requestEm: RequestEntityManager.of(db), log: logger, requestId, actor, origin }, refusal);
      return [forbidden(refusal.error)];
    }
    const held = subscriptionsByKey.get(actor.apiKeyId) ?? 0;
    if (held >= config.SUBSCRIPTIONS_PER_KEY) {
      return [wsRefusal(`At most ${config.SUBSCRIPTIONS_PER_KEY} subscriptions at a time per API key on this instance`, 'TOO_MANY_SUBSCRIPTIONS')];
    }
    subscriptionsByKey.set(actor.apiKeyId, held + 1);
    ctx.extra.counted ??= new Set();
    ctx.extra.counted.add(id);
    return {
      schema: enveloped.schema,
      operationName: params.operationName,
      document,
      variableValues: params.variables,
      contextValue: {
        ...(await contextFor(ctx.extra.authorization, ctx.extra.clientIp, requestId, query, actor, subscribeEm, ctx.extra.userAgent)),
        connection: ctx.extra.socket,
      },
      rootValue: { execute: enveloped.execute, subscribe: enveloped.subscribe },
    };
  }

  return {
    async close() {
      await wsServer.dispose();
      wss.close();
    },
  };
}
