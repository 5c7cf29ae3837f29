import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Config } from '../../config.js';
import type { Database } from '../db/database.js';

/**
 * Prometheus metrics of one Ramp instance. Each app has its own Registry (several instances run in
 * one test process); the Node process metrics live once per process and are appended at scrape.
 */
export interface Metrics {
  readonly registry: Registry;
  /** One webhook attempt ended: 2xx (`succeeded`), anything else (`failed`), or cut short by shutdown (`interrupted`). */
  webhookAttempt(result: 'succeeded' | 'failed' | 'interrupted'): void;
  /** The rate-limit store (Redis) failed and a request was let through unchecked. */
  rateLimitFailedOpen(): void;
  /** Admission control refused a request: the instance was at capacity (503 `overloaded`). */
  requestShed(): void;
  /** A GraphQL operation was refused because its key's cost bucket held too little (429 THROTTLED). */
  graphqlThrottled(): void;
}

/** GraphQL operation names come from clients: past this many distinct ones, new names count as `other`. */
const MAX_OPERATION_NAMES = 200;

/**
 * prom-client's gauges whose names end in `_total`, a suffix Prometheus keeps for counters (promtool flags
 * them). Each is the sum of its labelled gauge without the suffix (`nodejs_active_handles{type}`), which stays.
 */
const GAUGES_NAMED_AS_COUNTERS = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
    for (const name of GAUGES_NAMED_AS_COUNTERS) processRegistry.removeSingleMetric(name);
  }
  return processRegistry;
}

interface InternalMetrics extends Metrics {
  httpRequests: Counter<'method' | 'route' | 'status_code'>;
  httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  graphqlOperations: Counter<'operation_type' | 'operation_name'>;
  operationNames: Set<string>;
}

export function createMetrics(deps: { db?: Database } = {}): Metrics {
  const registry = new Registry();
  const webhookAttempts = new Counter({
    name: 'webhook_delivery_attempts_total',
    help: 'Webhook delivery attempts made by this instance, by result',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  const failOpen = new Counter({
    name: 'rate_limit_fail_open_total',
    help: 'Requests let through without a rate-limit check because the store (Redis) failed',
    registers: [registry],
  });
  const shed = new Counter({
    name: 'http_requests_shed_total',
    help: 'API requests refused by admission control (503 overloaded) before any work started',
    registers: [registry],
  });
  const throttled = new Counter({
    name: 'graphql_operations_throttled_total',
    help: "GraphQL operations refused because their API key's cost bucket held too little (429 THROTTLED)",
    registers: [registry],
  });
  if (deps.db) outboxGauges(registry, deps.db);
  const metrics: InternalMetrics = {
    registry,
    webhookAttempt: (result) => webhookAttempts.inc({ result }),
    rateLimitFailedOpen: () => failOpen.inc(),
    requestShed: () => shed.inc(),
    graphqlThrottled: () => throttled.inc(),
    httpRequests: new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
      labelNames: ['method', 'route', 'status_code'] as const,
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method, route pattern and status',
      labelNames: ['method', 'route', 'status_code'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    graphqlOperations: new Counter({
      name: 'graphql_operations_total',
      help: 'GraphQL operations executed (HTTP and graphql-ws), by type and operation name',
      labelNames: ['operation_type', 'operation_name'] as const,
      registers: [registry],
    }),
    operationNames: new Set(),
  };
  return metrics;
}

/** How far webhook dispatch is behind the outbox, read from the database at each scrape. */
function outboxGauges(registry: Registry, db: Database) {
  // A database outage must not break the scrape: the gauges keep their last values (and /readyz says 503).
  const read = async () => {
    try {
      const [row] = await db.fork().execute<{ pending: number; age: number }[]>(
        `select count(*)::int as pending, coalesce(extract(epoch from now() - min(created_at)), 0)::float8 as age
         from events where dispatched_at is null`,
      );
      return { pending: Number(row?.pending ?? 0), age: Number(row?.age ?? 0) };
    } catch {
      return null;
    }
  };
  new Gauge({
    name: 'outbox_undispatched_events',
    help: 'Events not yet turned into webhook deliveries',
    registers: [registry],
    async collect() {
      const now = await read();
      if (now) this.set(now.pending);
    },
  });
  new Gauge({
    name: 'outbox_oldest_undispatched_age_seconds',
    help: 'Age of the oldest event not yet turned into webhook deliveries (0 when none)',
    registers: [registry],
    async collect() {
      const now = await read();
      if (now) this.set(now.age);
    },
  });
}

const internal = (metrics: Metrics) => metrics as InternalMetrics;

/**
 * Counts every answered request by its route pattern (`/v0/customers/:customer_id`), never the raw
 * URL, so ids do not become label values; requests that matched no route count as `unmatched`.
 * Serves GET /metrics, behind a bearer token when METRICS_TOKEN is set.
 */
export function metricsRoutes(app: FastifyInstance, metrics: Metrics, config: Pick<Config, 'METRICS_TOKEN'>) {
  const { httpRequests, httpDuration } = internal(metrics);
  app.addHook('onResponse', async (request, reply) => {
    const labels = { method: request.method, route: request.routeOptions.url ?? 'unmatched', status_code: String(reply.statusCode) };
    httpRequests.inc(labels);
    httpDuration.observe(labels, reply.elapsedTime / 1000);
  });

  const expected = config.METRICS_TOKEN ? Buffer.from(`Bearer ${config.METRICS_TOKEN}`) : null;
  app.get('/metrics', async (request, reply) => {
    if (expected) {
      const given = Buffer.from(request.headers.authorization ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        return reply.code(401).header('www-authenticate', 'Bearer').type('text/plain').send('metrics token required\n');
      }
    }
    const text = `${await processMetrics().metrics()}\n${await metrics.registry.metrics()}`;
    return reply.type(metrics.registry.contentType).send(text);
  });
}

const OPERATION_NAME = /^[_A-Za-z][_0-9A-Za-z]{0,99}$/;

/** Yoga plugin: counts executed operations (queries, mutations, subscriptions over HTTP and graphql-ws). */
export function useOperationMetrics(metrics: Metrics | undefined): Plugin {
  if (!metrics) return {};
  const { graphqlOperations, operationNames } = internal(metrics);
  const count = ({ args }: { args: { document: Parameters<typeof getOperationAST>[0]; operationName?: string | null } }) => {
    const operation = getOperationAST(args.document, args.operationName);
    let name = operation?.name?.value ?? 'anonymous';
    if (!OPERATION_NAME.test(name)) name = 'other';
    else if (!operationNames.has(name)) {
      if (operationNames.size >= MAX_OPERATION_NAMES) name = 'other';
      else operationNames.add(name);
    }
    graphqlOperations.inc({ operation_type: operation?.operation ?? 'unknown', operation_name: name });
  };
  return { onExecute: count, onSubscribe: count };
}
