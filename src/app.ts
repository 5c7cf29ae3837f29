import { refuseResetSandboxChain } from './modules/custody/chain-reset.js';
import type { Config } from './config.js';
import { publicUrl } from './config.js';
import { apiKeyStore } from './modules/partners/api-keys.js';
import { bootstrapDemoPartner } from './modules/partners/service.js';
import { entities, features } from './features.js';
import { auditSchema } from './graphql/audit.js';
import { buildSchema } from './graphql/schema.js';
import { actionOfMutation, actionOfOperation } from './modules/audit/actions.js';
import { mountGraphQL } from './graphql/server.js';
import { apiKeyAuthentication, VerifiedKeys } from './platform/security/auth.js';
import { type Database, openDatabase } from './platform/db/database.js';
import { buildHttpApp, type HttpApp } from './rest/server.js';
import { createLogger, type Logger } from './platform/observability/logging.js';
import { type Services, buildServices } from './services.js';
import { createDispatcher, type Dispatcher } from './modules/webhooks/dispatcher.js';
import { queryBodies } from './modules/webhooks/query-body.js';
import { checkSubscriptionQuery } from './modules/webhooks/subscription-query.js';
import { startNotifier } from './platform/messaging/notifier.js';
import { createEventFanout, outboxReader } from './modules/events/fanout.js';
import { transferSettings } from './modules/transfers/settings.js';
import { purgeExpiredIdempotencyKeys } from './platform/use-cases/idempotency.js';
import { type JobRunner, startJobRunner } from './platform/runtime/jobs.js';
import { createMetrics } from './platform/observability/metrics.js';
import { startKeyWatch } from './graphql/guards/key-watch.js';
import { clientAddresses } from './platform/security/client-address.js';
import { createCostBudget } from './platform/security/cost-budget.js';
import { openRails, type Rails } from './rails/registry.js';
import { chainReadiness } from './rails/readiness.js';
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import { openTracing } from './platform/observability/tracing.js';

export interface Ramp {
  config: Config;
  db: Database;
  http: HttpApp;
  logger: Logger;
  /** The use cases the faces call (tests call them straight, as a face would). */
  services: Services;
  /** The demo partner's sandbox key, when this start created it. */
  demoKey: string | null;
  /** This instance's webhook dispatcher (its `instance` names it in the delivery attempt log). */
  dispatcher: Dispatcher;
  /** Background jobs (transfer expiry, sandbox auto-settlement); `runOnce()` runs them now. */
  jobs: JobRunner;
  /** Chain watchers and payout senders, on their own interval (CHAIN_POLL_INTERVAL_MS); `runOnce()` runs them now. */
  chainJobs: JobRunner;
  /** The legs money moves on (the sandbox's local chain included, when it runs one). */
  rails: Rails;
  /** Where the server listens, once it does. */
  url(): string;
  listen(): Promise<string>;
  close(): Promise<void>;
}

/** The composition root: config → database → services → HTTP. */
export async function createRamp(config: Config, options: { logger?: Logger; traceExporter?: SpanExporter } = {}): Promise<Ramp> {
  const logger = options.logger ?? createLogger(config.LOG_LEVEL, undefined, config.logFormat);
  // Spans only when OTEL_* asks for export (or a test hands an exporter in); the caller's traceparent is carried either way.
  const tracing = await openTracing(config, options.traceExporter);
  logger.info(config.DATABASE_URL ? 'connecting to PostgreSQL…' : `opening the embedded PGlite database in ${config.DATA_DIR} (a first start creates it)…`);
  const db = await openDatabase({ ...config, entities, log: (message) => logger.info(message) });
  const rails = await openRails(config, logger).catch(async (error) => {
    await db.close();
    throw error;
  });
  // A sandbox chain reset under a kept database is refused before anything signs on it.
  await refuseResetSandboxChain(db.fork(), rails).catch(async (error) => {
    await rails.close();
    await db.close();
    throw error;
  });
  const demoKey = config.BOOTSTRAP_DEMO_PARTNER ? await bootstrapDemoPartner(db.fork()) : null;
  let port = config.PORT;
  const url = () => publicUrl(config, port);
  if (config.webhookSecretKeyIsDevelopmentKey) {
    logger.warn('WEBHOOK_SECRET_KEY is not set: webhook signing secrets are encrypted with the public development key');
  }
  // LISTEN before anything else uses the database (on PGlite it must not land inside a request's transaction).
  const notifier = await startNotifier(db, config, logger);
  // One reader of new events for every subscription of this instance.
  const fanout = createEventFanout({ notifier, outbox: outboxReader(db), pageSize: 500, logger });
  const metrics = createMetrics({ db });
  // Each feature's GraphQL types, handed to the schema (graphql/ names no feature).
  // Every mutation runs as an audited call named by the audit module's table (graphql/audit.ts).
  const schema = auditSchema(await buildSchema(features), { ofMutation: actionOfMutation });
  const services = buildServices({
    publicUrl: url,
    notifier,
    events: { fanout, cursorKey: config.eventCursorKey, bufferSize: config.SUBSCRIPTION_BUFFER_EVENTS },
    // Webhooks defined by a subscription query are checked and run against the assembled schema, given here.
    webhooks: { config, wakeDispatcher: () => dispatcher.wake(), checkQuery: (query, pointer) => checkSubscriptionQuery(schema, query, pointer) },
    transfers: transferSettings(config),
    rails,
    encryption: { current: config.encryptionMasterKey, previous: config.previousEncryptionMasterKey },
  });
  const renderQuery = queryBodies({ schema, db, services, cursorKey: config.eventCursorKey, logger });
  const dispatcher = createDispatcher({ db, config, notifier, logger, metrics, renderQuery, tracing });
  // A verified key costs no round trip per request; a revocation anywhere drops it here (platform/security/auth.ts).
  const verifiedKeys = new VerifiedKeys();
  notifier.onKeyRevoked(
    (apiKeyId) => verifiedKeys.forget(apiKeyId),
    () => verifiedKeys.clear(),
  );
  const authenticate = apiKeyAuthentication(apiKeyStore, verifiedKeys);
  const keyWatch = startKeyWatch({ db, keys: apiKeyStore, logger });
  // The client's address (keys' IP allowlists, rate limits, logs): X-Forwarded-For only from TRUST_PROXY's proxies.
  const addresses = clientAddresses(config.TRUST_PROXY);
  // Each API key's GraphQL cost bucket: in Redis when REDIS_URL is set, else in this instance's memory.
  const costBudget = await createCostBudget(config, logger);
  // What both faces are built from; each adds its own below.
  const shared = { config, db, services, logger, metrics, authenticate, tracing, clientAddresses: addresses };
  const http = await buildHttpApp({
    ...shared,
    features,
    auditActions: { ofOperation: actionOfOperation },
    // Readiness reports each live chain apart from the database: a chain down degrades the service, reads still answer.
    chainReadiness: () => chainReadiness(rails.liveChains()),
    mount: (app) =>
      mountGraphQL(app, {
        ...shared,
        keyWatch,
        schema,
        costBudget,
        mutationActions: { ofMutation: actionOfMutation },
        frontendDocuments: features.flatMap((feature) => feature.trustedDocuments ?? []),
      }),
  });
  dispatcher.start();
  const jobs = startJobRunner({
    db,
    logger,
    intervalMs: config.JOBS_INTERVAL_MS ?? (config.NODE_ENV === 'test' ? 0 : 5000),
    jobs: [...features.flatMap((feature) => feature.jobs?.(config) ?? []), purgeExpiredIdempotencyKeys],
  });
  const chainJobs = startJobRunner({
    db,
    logger,
    intervalMs: config.chainPollIntervalMs,
    jobs: features.flatMap((feature) => feature.chainJobs?.(services) ?? []),
  });
  return {
    config,
    db,
    http,
    logger,
    services,
    demoKey,
    dispatcher,
    jobs,
    chainJobs,
    rails,
    url,
    async listen() {
      await http.app.listen({ port: config.PORT, host: config.HOST });
      const address = http.app.server.address();
      if (address && typeof address === 'object') port = address.port;
      return url();
    },
    async close() {
      // Each step named, so a shutdown that hangs says on what (a job, a connection not released, a socket left open).
      const step = async (name: string, run: () => unknown, giveUpAfterMs?: number) => {
        const slow = setTimeout(() => logger.warn({ step: name }, 'shutdown still waiting after 10 s'), 10_000);
        let giveUp: NodeJS.Timeout | undefined;
        const given = giveUpAfterMs
          ? new Promise<'given up'>((resolve) => {
              giveUp = setTimeout(() => resolve('given up'), giveUpAfterMs);
            })
          : null;
        try {
          const outcome = await (given ? Promise.race([Promise.resolve(run()), given]) : run());
          if (outcome === 'given up') logger.error({ step: name, afterMs: giveUpAfterMs }, 'shutdown step given up: it did not finish');
        } finally {
          clearTimeout(slow);
          clearTimeout(giveUp);
        }
      };
      await step('jobs', () => jobs.stop());
      await step('chain jobs', () => chainJobs.stop());
      // Nothing polls the chains any more: the local chain may stop (and write its state) now.
      await step('rails', () => rails.close());
      await step('webhook dispatcher', () => dispatcher.stop());
      await step('http', () => http.close());
      await step('cost budget', () => costBudget?.close());
      keyWatch.stop();
      fanout.close();
      await step('notifier', () => notifier.close());
      // The pool ends once every connection is given back; one that never is (a leak not yet found, seen only in the
      // shared test workers on PostgreSQL, logged by the step) must not hold the process forever.
      await step('database', () => db.close(), 5_000);
      // Last: the spans of everything above are exported before the process goes.
      await step('tracing', () => tracing.close());
    },
  };
}
