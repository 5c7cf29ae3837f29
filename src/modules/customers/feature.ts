import type { Feature } from '../../platform/feature.js';
import type { Services } from '../../services.js';
import { customerEntities } from './entities.js';
import { customerRoutes } from './rest.js';
import { kycPageRoutes } from './kyc-page.js';
// Its Pothos types and root fields register with the shared builder (graphql/schema.ts builds the schema).
import './graphql.js';

/** Customers, their KYC status and the sandbox KYC page. */
export const customersFeature: Feature<Services> = {
  name: 'customers',
  entities: customerEntities,
  routes(app, services) {
    customerRoutes(app, services);
    kycPageRoutes(app, services);
  },
};
