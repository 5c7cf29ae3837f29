import type { Feature } from '../../feature.js';
import type { Services } from '../../services.js';
import { Transfer, transferEntities } from './entities.js';
import { transferRoutes } from './rest.js';
import { transferJobs } from './jobs.js';
import { payoutAccountJobs } from './accounts/payout-account.js';
import { createDataKeys } from '../customers/data-keys.js';
import { EVM_NETWORKS } from '../../domain/money.js';

/** Quotes, on-ramp and off-ramp transfers, sandbox settlement. */
export const transfersFeature: Feature<Services> = {
  name: 'transfers',
  types: () => import('./graphql/index.js'),
  async subjects() {
    const { OfframpTransferRef, OfframpTransferSnapshotRef, OnrampTransferRef, OnrampTransferSnapshotRef, transferNode } = await import('./graphql/types.js');
    // A transfer's GraphQL types resolve from its node (the row with what was joined to it), not the row alone.
    const present = (kept: object) => transferNode({ transfer: kept as Transfer });
    return {
      onramp_transfer: { ref: OnrampTransferRef, snapshot: OnrampTransferSnapshotRef, entity: Transfer, present },
      offramp_transfer: { ref: OfframpTransferRef, snapshot: OfframpTransferSnapshotRef, entity: Transfer, present },
    };
  },
  entities: transferEntities,
  routes: transferRoutes,
  // With a local sandbox chain its EVM networks are live: their on-ramps are paid by the payout sender, not auto-settled.
  jobs: (config) => [
    ...transferJobs({ autoSettleDelayMs: config.AUTO_SETTLE_DELAY_MS, liveSandboxNetworks: config.sandboxChain === 'local' ? EVM_NETWORKS : [] }),
    ...payoutAccountJobs(createDataKeys({ current: config.encryptionMasterKey, previous: config.previousEncryptionMasterKey })),
  ],
  chainJobs: (services) => services.transfers.chainJobs(),
};
