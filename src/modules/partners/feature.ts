import type { Feature } from '../../feature.js';
import type { Services } from '../../services.js';
import { partnerEntities } from './entities.js';
import { partnerRoutes } from './rest.js';

/** Partners, API keys, account info and whitelists. */
export const partnersFeature: Feature<Services> = {
  name: 'partners',
  types: () => Promise.all([import('./graphql.js'), import('./api-keys-graphql.js')]),
  entities: partnerEntities,
  routes: partnerRoutes,
};
