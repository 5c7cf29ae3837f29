import type { Feature } from '../../platform/feature.js';
import type { Services } from '../../services.js';
import { bankAccountEntities } from './entities.js';
import { bankAccountRoutes } from './rest.js';
// Its Pothos types and root fields register with the shared builder (graphql/schema.ts builds the schema).
import './graphql.js';

/** Customers' external bank accounts. */
export const bankAccountsFeature: Feature<Services> = {
  name: 'bank-accounts',
  entities: bankAccountEntities,
  routes: bankAccountRoutes,
};
