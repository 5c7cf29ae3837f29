import type { Feature } from '../../platform/feature.js';
import type { Services } from '../../services.js';
import { webhookEntities } from './entities.js';
import { webhookRoutes } from './rest.js';
// Its Pothos types and root fields register with the shared builder (graphql/schema.ts builds the schema).
import './graphql.js';

/** Webhook endpoints, deliveries and their attempt log. */
export const webhooksFeature: Feature<Services> = {
  name: 'webhooks',
  entities: webhookEntities,
  routes: webhookRoutes,
};
