import type { Feature } from '../../feature.js';
import type { Services } from '../../services.js';
import { erasureRoutes } from './rest.js';

/** Erasing a customer's personal data while its transfers and ledger stay. */
export const erasureFeature: Feature<Services> = {
  name: 'erasure',
  types: () => import('./graphql.js'),
  routes: erasureRoutes,
};
