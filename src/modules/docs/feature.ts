import type { Feature } from '../../feature.js';
import type { Services } from '../../services.js';
import { docsRoutes } from './rest.js';

/** The partner guide (docs/api/) served as HTML at /docs, and the OpenAPI reference at /docs/api. */
export const docsFeature: Feature<Services> = {
  name: 'docs',
  routes: (app) => docsRoutes(app),
};
