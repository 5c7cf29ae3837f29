import type { Feature } from '../../platform/feature.js';
import type { Services } from '../../services.js';
import { virtualAccountEntities } from './entities.js';
import { virtualAccountRoutes } from './rest.js';
// Its Pothos types and root fields register with the shared builder (graphql/schema.ts builds the schema).
import './graphql.js';

/** Virtual accounts that turn deposits into on-ramps. */
export const virtualAccountsFeature: Feature<Services> = {
  name: 'virtual-accounts',
  entities: virtualAccountEntities,
  routes: virtualAccountRoutes,
};
