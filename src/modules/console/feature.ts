import type { Feature } from '../../platform/feature.js';
import type { Services } from '../../services.js';
import { consoleRoutes } from './rest.js';

/** The sandbox console at /console: a web page over the public GraphQL API, built from console/. */
export const consoleFeature: Feature<Services> = {
  name: 'console',
  routes: (app) => consoleRoutes(app),
};
