import type { Feature } from '../../platform/feature.js';
import type { Services } from '../../services.js';
import { BankAccount, bankAccountEntities } from './entities.js';
import { bankAccountRoutes } from './rest.js';

/** Customers' external bank accounts. */
export const bankAccountsFeature: Feature<Services> = {
  name: 'bank-accounts',
  types: () => import('./graphql.js'),
  subjects: async () => ({ external_account: { ref: (await import('./graphql.js')).BankAccountRef, entity: BankAccount } }),
  entities: bankAccountEntities,
  routes: bankAccountRoutes,
};
