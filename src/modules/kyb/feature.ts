import type { Feature } from '../../platform/feature.js';
import type { Services } from '../../services.js';
import { kybEntities } from './entities.js';
import { kybRoutes } from './rest.js';
// Its Pothos types and root fields register with the shared builder (graphql/schema.ts builds the schema).
import './graphql.js';

/** Business KYB import (/v1/partners/kyc/business/…). */
export const kybFeature: Feature<Services> = {
  name: 'kyb',
  entities: kybEntities,
  routes: kybRoutes,
};
