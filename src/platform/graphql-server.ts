import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { useDisableIntrospection } from '@graphql-yoga/plugin-disable-introspection';
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ExecutionArgs, GraphQLError, Kind, getOperationAST, parse } from 'graphql';
import { createGraphQLError, createYoga, type YogaServerInstance } from 'graphql-yoga';
import { useServer } from 'graphql-ws/use/ws';
import { randomUUID } from 'node:crypto';
import { WebSocketServer } from 'ws';
import type { Config } from '../config.js';
import type { Actor } from '../domain/environment.js';
import { DomainError, ValidationError } from '../domain/errors.js';
import type { GraphQLContext } from '../graphql/context.js';
import { useQueryLimits } from '../graphql/limits.js';
import { schema } from '../graphql/schema.js';
import type { Services } from '../services.js';
import { authenticate } from './auth.js';
import type { Database } from './db.js';
import type { Logger } from './logging.js';
import { type Metrics, useOperationMetrics } from './metrics.js';

type ServerContext = { req?: FastifyRequest; reply?: FastifyReply; authorization?: string; requestId?: string; params?: unknown };

/** An operation that only asks for the schema needs no key, so GraphiQL can load before one is set. */
function isIntrospectionOnly(query: string | undefined): boolean {
  if (!query) return false;
  try {
    return parse(query).definitions.every(
      (d) => d.kind === Kind.OPERATION_DEFINITION && d.selectionSet.selections.every((s) => s.kind === Kind.FIELD && s.name.value.startsWith('__')),
    );
  } catch {
    return false;
  }
}

const GRAPHIQL_WELCOME = `# Welcome to Ramp. Put the sandbox API key that \`npm start\` printed in the Headers pane
# below ({"Authorization": "Bearer rk_sandbox_..."}), then run this query with the play button.
{
  customers(first: 10) {
    edges { node { id email type kycs { status kycFlowLink } } }
  }
}
`;

const describe = (args: unknown[]) => args.map((a) => (a instanceof Error ? a.message : String(a))).join(' ');

/** Each subscription wakes on every committed event; a connection may hold this many at once. */
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 20;
const wsRefusal = (message: string, code: string) => new GraphQLError(message, { extensions: { code } });

const unauthenticated = (message: string) =>
  createGraphQLError(message, { extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } } });

export function mountGraphQL(app: FastifyInstance, deps: { config: Config; db: Database; services: Services; logger: Logger; metrics?: Metrics }) {
  const { config, db, services, logger } = deps;

  /** `known` is the caller the HTTP layer already resolved (the rate limiter does), saving a second key lookup. */
  async function contextFor(authorization: string | undefined, requestId: string, query: string | undefined, known?: Actor | null): Promise<GraphQLContext> {
    const em = db.fork();
    if (known) return { em, actor: known, requestId, services };
    if (!authorization && isIntrospectionOnly(query)) return { em, actor: null, requestId, services };
    try {
      return { em, actor: await authenticate(em, authorization), requestId, services };
    } catch (error) {
      if (error instanceof DomainError) throw unauthenticated(error.message);
      throw error;
    }
  }

  const yoga: YogaServerInstance<ServerContext, GraphQLContext> = createYoga<ServerContext, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    logging: {
      debug: (...args) => logger.debug(describe(args)),
      info: (...args) => logger.info(describe(args)),
      warn: (...args) => logger.warn(describe(args)),
      error: (...args) => logger.error(describe(args)),
    },
    graphiql: config.graphiqlEnabled
      ? { title: 'Ramp GraphiQL', headers: JSON.stringify({ Authorization: 'Bearer <your sandbox API key>' }), defaultQuery: GRAPHIQL_WELCOME }
      : false,
    // GraphiQL bundled with the server, so it works without reaching a CDN.
    renderGraphiQL,
    landingPage: false,
    cors: false, // Fastify's CORS plugin answers for the whole server
    context: ({ req, params }) => {
      const requestId = req?.id ?? randomUUID();
      return contextFor(req?.headers.authorization, requestId, params.query, req?.actor);
    },
    maskedErrors: {
      maskError: (error, message) => {
        // Duck-typed: graphql may be loaded twice (CJS and ESM), so instanceof is not reliable here.
        const original = (error as { originalError?: unknown }).originalError;
        if (original instanceof DomainError) {
          // Queries have no typed error results: the field problems travel in extensions instead.
          const fieldErrors = original instanceof ValidationError ? original.fieldErrors : undefined;
          return createGraphQLError(original.message, { extensions: { code: original.code, ...(fieldErrors && { fieldErrors }) } });
        }
        const isGraphQLError = (e: unknown) => e instanceof Error && e.name === 'GraphQLError';
        if (isGraphQLError(error) && (!original || isGraphQLError(original))) return error as Error;
        const requestId = randomUUID();
        logger.error({ err: original ?? error, requestId }, 'unexpected GraphQL error');
        return createGraphQLError(message, { extensions: { code: 'INTERNAL_SERVER_ERROR', requestId } });
      },
    },
    plugins: [
      useQueryLimits(),
      useOperationMetrics(deps.metrics),
      useCSRFPrevention({ requestHeaders: ['x-graphql-yoga-csrf', 'apollo-require-preflight'] }),
      ...(config.graphiqlEnabled ? [] : [useDisableIntrospection()]),
    ],
  });

  app.route({
    url: yoga.graphqlEndpoint,
    method: ['GET', 'POST', 'OPTIONS'],
    handler: async (req, reply) => {
      const response = await yoga.handleNodeRequestAndResponse(req, reply, { req, reply });
      response.headers.forEach((value, key) => reply.header(key, value));
      reply.status(response.status);
      reply.send(response.body);
      return reply;
    },
  });

  // graphql-ws on the same path: authenticated once at connection_init with the API key.
  const wss = new WebSocketServer({ noServer: true });
  app.server.on('upgrade', (request, socket, head) => {
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== yoga.graphqlEndpoint) return socket.destroy();
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
  });
  const wsServer = useServer<{ authorization?: string }, { authorization?: string }>(
    {
      onConnect: async (ctx) => {
        const authorization = ctx.connectionParams?.authorization;
        try {
          await authenticate(db.fork(), typeof authorization === 'string' ? authorization : undefined);
          ctx.extra.authorization = authorization as string;
          return true;
        } catch {
          return false; // graphql-ws closes with 4403 Forbidden
        }
      },
      execute: (args: ExecutionArgs) => (args.rootValue as { execute: (a: ExecutionArgs) => unknown }).execute(args) as never,
      subscribe: (args: ExecutionArgs) => (args.rootValue as { subscribe: (a: ExecutionArgs) => unknown }).subscribe(args) as never,
      onSubscribe: async (ctx, _id, params) => {
        const enveloped = yoga.getEnveloped({ authorization: ctx.extra.authorization, requestId: randomUUID(), params });
        const document = enveloped.parse(params.query);
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
        return {
          schema: enveloped.schema,
          operationName: params.operationName,
          document,
          variableValues: params.variables,
          contextValue: await contextFor(ctx.extra.authorization, randomUUID(), params.query),
          rootValue: { execute: enveloped.execute, subscribe: enveloped.subscribe },
        };
      },
    },
    wss,
  );

  return {
    async close() {
      await wsServer.dispose();
      wss.close();
    },
  };
}
