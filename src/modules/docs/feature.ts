import type { Feature } from '../../platform/feature.js';
import type { Services } from '../../services.js';
import { docsRoutes } from './rest.js';

/** The README served as HTML at /docs. */
export const docsFeature: Feature<Services> = {
  name: 'docs',
  routes: (app) => docsRoutes(app),
};
