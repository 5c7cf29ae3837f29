import type { Feature } from '../../platform/feature.js';
import type { Services } from '../../services.js';
import { eventRoutes } from './rest.js';
// Its Pothos types and root fields register with the shared builder (graphql/schema.ts builds the schema).
import './graphql.js';

/** The events API over the outbox. */
export const eventsFeature: Feature<Services> = {
  name: 'events',
  routes: eventRoutes,
};
