import type { Feature } from '../../feature.js';
import type { Services } from '../../services.js';
import { networkRoutes } from './rest.js';

/** The networks Ramp moves stablecoins on, live or simulated, and the sandbox faucet. */
export const networksFeature: Feature<Services> = {
  name: 'networks',
  types: () => import('./graphql.js'),
  routes: networkRoutes,
  chainJobs: (services) => services.networks.chainJobs(),
};
