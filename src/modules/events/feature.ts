import type { Feature } from '../../feature.js';
import type { Services } from '../../services.js';
import { eventRoutes } from './rest.js';

/** The events API over the outbox. */
export const eventsFeature: Feature<Services> = {
  name: 'events',
  // The subjects every feature registers (customers, transfers, …) make the EventSubject union.
  async types(features) {
    const { registerEventSubjects } = await import('./subjects.js');
    for (const feature of features) registerEventSubjects((await feature.subjects?.()) ?? {});
    return import('./graphql.js');
  },
  routes: eventRoutes,
};
