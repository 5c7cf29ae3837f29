import type { Actor } from '../../domain/environment.js';
import { sandboxAddress } from '../../domain/identifiers/chain.js';
import { NETWORKS, type Network, TOKENS, type Token } from '../../domain/money.js';

/** Where the partner sends tokens to fund its balance on one network. */
export interface DepositAddress {
  network: Network;
  address: string;
  coins: Token[];
}

/**
 * Sandbox: one address per network, derived from the partner id so it never changes. Production
 * has no custody provider yet, so it lists none: a made-up address would swallow real funds.
 */
export function depositAddresses(actor: Actor): DepositAddress[] {
  if (actor.environment !== 'sandbox') return [];
  return NETWORKS.map((network) => ({ network, address: sandboxAddress(network, `${actor.partnerId}:${network}`), coins: [...TOKENS] }));
}
