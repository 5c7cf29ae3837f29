import type { Feature } from '../../feature.js';
import type { Services } from '../../services.js';
import { ledgerEntities } from './entities.js';

/** The double-entry ledger behind balances. */
export const ledgerFeature: Feature<Services> = {
  name: 'ledger',
  types: () => import('./graphql.js'),
  entities: ledgerEntities,
};
