import type { Feature } from '../../feature.js';
import type { Services } from '../../services.js';
import { consoleDocuments, consoleRoutes } from './rest.js';

/**
 * The sandbox console at /console: a web page over the public GraphQL API, built from console/. Its operations are
 * trusted documents, sent by hash, so it works where only trusted documents run (GRAPHQL_TRUSTED_DOCUMENTS).
 */
export const consoleFeature: Feature<Services> = {
  name: 'console',
  routes: (app) => consoleRoutes(app),
  trustedDocuments: consoleDocuments,
};
