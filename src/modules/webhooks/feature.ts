import type { Feature } from '../../platform/feature.js';
import type { Services } from '../../services.js';
import { webhookEntities } from './entities.js';
import { webhookRoutes } from './rest.js';

/** Webhook endpoints, deliveries and their attempt log. */
export const webhooksFeature: Feature<Services> = {
  name: 'webhooks',
  types: () => import('./graphql.js'),
  entities: webhookEntities,
  routes: webhookRoutes,
};
