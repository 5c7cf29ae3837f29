import type { Feature } from '../../feature.js';
import type { Services } from '../../services.js';
import { kybEntities } from './entities.js';
import { kybRoutes } from './rest.js';
import { kybKeyJobs } from './jobs.js';
import { createDataKeys } from '../customers/data-keys.js';

/** Business KYB import (/v1/partners/kyc/business/…). */
export const kybFeature: Feature<Services> = {
  name: 'kyb',
  types: () => import('./graphql.js'),
  entities: kybEntities,
  jobs: (config) => kybKeyJobs(createDataKeys({ current: config.encryptionMasterKey, previous: config.previousEncryptionMasterKey })),
  routes: kybRoutes,
};
