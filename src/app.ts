import type { Config } from './config.js';
import { publicUrl } from './config.js';
import { bootstrapDemoPartner } from './modules/partners/service.js';
import { type Database, openDatabase } from './platform/db.js';
import { buildHttpApp, type HttpApp } from './platform/http.js';
import { createLogger, type Logger } from './platform/logging.js';
import { buildServices } from './services.js';

export interface Ramp {
  config: Config;
  db: Database;
  http: HttpApp;
  logger: Logger;
  /** The demo partner's sandbox key, when this start created it. */
  demoKey: string | null;
  /** Where the server listens, once it does. */
  url(): string;
  listen(): Promise<string>;
  close(): Promise<void>;
}

/** The composition root: config → database → services → HTTP. */
export async function createRamp(config: Config, options: { logger?: Logger } = {}): Promise<Ramp> {
  const logger = options.logger ?? createLogger(config.LOG_LEVEL);
  const db = await openDatabase(config);
  const demoKey = config.BOOTSTRAP_DEMO_PARTNER ? await bootstrapDemoPartner(db.fork()) : null;
  let port = config.PORT;
  const url = () => publicUrl(config, port);
  const services = buildServices({ publicUrl: url });
  const http = await buildHttpApp({ config, db, services, logger });
  return {
    config,
    db,
    http,
    logger,
    demoKey,
    url,
    async listen() {
      await http.app.listen({ port: config.PORT, host: config.HOST });
      const address = http.app.server.address();
      if (address && typeof address === 'object') port = address.port;
      return url();
    },
    async close() {
      await http.close();
      await db.close();
    },
  };
}
