import type { Feature } from '../../platform/feature.js';
import type { Services } from '../../services.js';
import { kycImportEntities } from './entities.js';
import { kycImportRoutes } from './rest.js';
// Its Pothos types and root fields register with the shared builder (graphql/schema.ts builds the schema).
import './graphql.js';

/** KYC imported from a provider's share token (/auth/importKYC). */
export const kycImportFeature: Feature<Services> = {
  name: 'kyc-import',
  entities: kycImportEntities,
  routes: kycImportRoutes,
};
