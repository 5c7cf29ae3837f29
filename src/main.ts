// First, before any dependency loads: refuses a Node too old for them in one sentence.
import './platform/runtime/supported-node.js';
import { loadConfig } from './config.js';
import { createLogger } from './platform/observability/logging.js';
import { exitIfRefused } from './refusal.js';

const config = (() => {
  try {
    return loadConfig();
  } catch (error) {
    return exitIfRefused(error);
  }
})();
// Loading the service takes seconds (tens on a first start, compiling as it loads): say so before, not after.
const logger = createLogger(config.LOG_LEVEL, undefined, config.logFormat);
logger.info('loading Ramp…');
const { assertPortFree, portTaken } = await import('./platform/runtime/port-check.js');
await assertPortFree(config.HOST, config.PORT).catch(exitIfRefused);
const { createRamp } = await import('./app.js');
const { DEMO_PARTNER_NAME } = await import('./modules/partners/service.js');
const ramp = await createRamp(config, { logger }).catch(exitIfRefused);
// Taken meanwhile by another process (after the check above): the same sentence, not a stack trace.
const url = await ramp.listen().catch(async (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EADDRINUSE') throw error;
  await ramp.close().catch(() => undefined);
  return exitIfRefused(portTaken(config.HOST, config.PORT));
});

const lines = [
  `Ramp is running on ${ramp.db.kind === 'pglite' ? `embedded PGlite (${config.DATA_DIR})` : 'PostgreSQL'}`,
  `  GraphQL:   ${url}/graphql${config.graphiqlEnabled ? '   (open it in a browser for GraphiQL)' : ''}`,
  `  REST docs: ${url}/docs   (reference: ${url}/docs/api, OpenAPI: ${url}/openapi.json)`,
  `  Console:   ${url}/console   (sandbox console: paste a sandbox API key)`,
  `  Health:    ${url}/healthz, ${url}/readyz`,
  ...chainLines(),
  ...(ramp.demoKey ? [`  Sandbox API key of the demo partner (shown once, keep it): ${ramp.demoKey}`] : []),
  // Keys are stored hashed, so a lost key cannot be shown again: the way out is a new one.
  `  Lost a key? Make a new one${ramp.db.kind === 'pglite' ? ' (stop Ramp first: the embedded database serves one process)' : ''}:`,
  `    npm run keys -- create --partner ${config.BOOTSTRAP_DEMO_PARTNER ? `"${DEMO_PARTNER_NAME}"` : '<name>'}   (list shows every key, revoke <prefix> retires one)`,
];
process.stdout.write(`${lines.join('\n')}\n`);

/** Where the sandbox's EVM networks run: the local chain a partner's own wallet can reach, or nowhere (simulated). */
function chainLines(): string[] {
  const live = ramp.rails.liveChains();
  const sandbox = live.filter((chain) => chain.environment === 'sandbox').map((chain) => chain.network);
  const production = live.filter((chain) => chain.environment === 'production').map((chain) => chain.network);
  return [
    ramp.rails.sandboxChain
      ? `  Chain:     ${ramp.rails.sandboxChain.rpcUrl}   (sandbox chain: ${sandbox.join(', ')} are live on it; faucet: POST ${url}/v0/sandbox/faucet)`
      : '  Chain:     none (SANDBOX_CHAIN=simulated): every sandbox network is simulated',
    `  Production networks: ${production.length ? `${production.join(', ')} live` : 'none configured (rails_not_connected)'}`,
  ];
}

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  ramp.logger.info({ signal }, 'shutting down: finishing in-flight requests');
  const timer = setTimeout(() => process.exit(1), 15_000).unref();
  try {
    await ramp.close();
  } finally {
    clearTimeout(timer);
  }
  process.exit(0);
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));

// npm runs scripts through `sh -c`, which does not pass on the SIGTERM npm forwards: a process manager
// stopping `npm start` would leave this server running (port and embedded-database lock held). When the
// shell between us and npm goes away, our parent changes: stop as if signalled.
if (process.env.npm_lifecycle_event) {
  const parent = process.ppid;
  setInterval(() => process.ppid !== parent && void stop('parent exited'), 500).unref();
}
