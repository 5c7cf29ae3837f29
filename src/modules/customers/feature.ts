import type { Feature } from '../../feature.js';
import type { Services } from '../../services.js';
import { Customer, customerEntities } from './entities.js';
import { customerRoutes } from './rest.js';
import { kycPageRoutes } from './kyc-page.js';
import { createDataKeys } from './data-keys.js';
import { customerKeyJobs } from './jobs.js';

/** Customers, their KYC status and the sandbox KYC page. */
export const customersFeature: Feature<Services> = {
  name: 'customers',
  types: () => import('./graphql.js'),
  subjects: async () => {
    const { CustomerRef, CustomerSnapshotRef } = await import('./graphql.js');
    return { customer: { ref: CustomerRef, snapshot: CustomerSnapshotRef, entity: Customer } };
  },
  entities: customerEntities,
  jobs: (config) => customerKeyJobs(createDataKeys({ current: config.encryptionMasterKey, previous: config.previousEncryptionMasterKey })),
  routes(app, services) {
    customerRoutes(app, services);
    kycPageRoutes(app, services);
  },
};
