import type { Feature } from '../../feature.js';
import type { Services } from '../../services.js';
import { VirtualAccount, virtualAccountEntities } from './entities.js';
import { virtualAccountRoutes } from './rest.js';

/** Virtual accounts that turn deposits into on-ramps. */
export const virtualAccountsFeature: Feature<Services> = {
  name: 'virtual-accounts',
  types: () => import('./graphql.js'),
  subjects: async () => {
    const { VirtualAccountRef, VirtualAccountSnapshotRef } = await import('./graphql.js');
    return { virtual_account: { ref: VirtualAccountRef, snapshot: VirtualAccountSnapshotRef, entity: VirtualAccount } };
  },
  entities: virtualAccountEntities,
  routes: virtualAccountRoutes,
};
