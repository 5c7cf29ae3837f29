import type { Feature } from '../../platform/feature.js';
import type { Services } from '../../services.js';
import { ledgerEntities } from './entities.js';
// Its Pothos types and root fields register with the shared builder (graphql/schema.ts builds the schema).
import './graphql.js';

/** The double-entry ledger behind balances. */
export const ledgerFeature: Feature<Services> = {
  name: 'ledger',
  entities: ledgerEntities,
};
