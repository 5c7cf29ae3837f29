import type { Feature } from '../../feature.js';
import type { Services } from '../../services.js';
import { custodyEntities } from './entities.js';

/**
 * What Ramp holds and signs for on chain: the nonce allocator of every sending account, sweeps, faucet mints. Its
 * jobs run with the chains whose transactions they follow (transfers' and networks' chain jobs).
 */
export const custodyFeature: Feature<Services> = {
  name: 'custody',
  entities: custodyEntities,
};
