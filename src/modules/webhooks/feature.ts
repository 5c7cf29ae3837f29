import type { Feature } from '../../feature.js';
import type { Services } from '../../services.js';
import { webhookEntities } from './entities.js';
import { webhookKeyJobs } from './jobs.js';
import { signingSecretsOf } from './secrets.js';
import { webhookRoutes } from './rest.js';

/** Webhook endpoints, deliveries and their attempt log. */
export const webhooksFeature: Feature<Services> = {
  name: 'webhooks',
  types: () => import('./graphql.js'),
  entities: webhookEntities,
  routes: webhookRoutes,
  jobs: (config) => webhookKeyJobs(signingSecretsOf(config)),
};
