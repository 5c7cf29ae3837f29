import type { Feature } from '../../feature.js';
import type { Services } from '../../services.js';
import { kycImportEntities } from './entities.js';
import { kycImportRoutes } from './rest.js';

/** KYC imported from a provider's share token (/auth/importKYC). */
export const kycImportFeature: Feature<Services> = {
  name: 'kyc-import',
  types: () => import('./graphql.js'),
  entities: kycImportEntities,
  routes: kycImportRoutes,
};
