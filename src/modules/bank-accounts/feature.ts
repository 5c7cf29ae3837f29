import type { Feature } from '../../feature.js';
import type { Services } from '../../services.js';
import { BankAccount, bankAccountEntities } from './entities.js';
import { bankAccountKeyJobs } from './jobs.js';
import { bankAccountRoutes } from './rest.js';
import { createDataKeys } from '../customers/data-keys.js';

/** Customers' external bank accounts. */
export const bankAccountsFeature: Feature<Services> = {
  name: 'bank-accounts',
  types: () => import('./graphql.js'),
  subjects: async () => {
    const { BankAccountRef, BankAccountSnapshotRef } = await import('./graphql.js');
    return { external_account: { ref: BankAccountRef, snapshot: BankAccountSnapshotRef, entity: BankAccount } };
  },
  entities: bankAccountEntities,
  jobs: (config) => bankAccountKeyJobs(createDataKeys({ current: config.encryptionMasterKey, previous: config.previousEncryptionMasterKey })),
  routes: bankAccountRoutes,
};
