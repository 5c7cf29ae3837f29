import type { Feature } from '../../platform/feature.js';
import type { Services } from '../../services.js';
import { partnerEntities } from './entities.js';
import { partnerRoutes } from './rest.js';
// Its Pothos types and root fields register with the shared builder (graphql/schema.ts builds the schema).
import './graphql.js';

/** Partners, API keys, account info and whitelists. */
export const partnersFeature: Feature<Services> = {
  name: 'partners',
  entities: partnerEntities,
  routes: partnerRoutes,
};
