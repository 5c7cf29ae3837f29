import type { Feature } from '../../platform/feature.js';
import type { Services } from '../../services.js';
import { transferEntities } from './entities.js';
import { transferRoutes } from './rest.js';
import { transferJobs } from './jobs.js';
// Its Pothos types and root fields register with the shared builder (graphql/schema.ts builds the schema).
import './graphql/index.js';

/** Quotes, on-ramp and off-ramp transfers, sandbox settlement. */
export const transfersFeature: Feature<Services> = {
  name: 'transfers',
  entities: transferEntities,
  routes: transferRoutes,
  jobs: (config) => transferJobs({ autoSettleDelayMs: config.AUTO_SETTLE_DELAY_MS }),
};
