import type { Feature } from '../../platform/feature.js';
import type { Services } from '../../services.js';
import { kybEntities } from './entities.js';
import { kybRoutes } from './rest.js';
import { NEEDED_SCOPES } from './scopes.js';

/** Business KYB import (/v1/partners/kyc/business/…). */
export const kybFeature: Feature<Services> = {
  name: 'kyb',
  scopes: NEEDED_SCOPES,
  types: () => import('./graphql.js'),
  entities: kybEntities,
  routes: kybRoutes,
};
