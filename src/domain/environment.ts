/** An API key belongs to one environment; data never crosses environments. */
export const ENVIRONMENTS = ['sandbox', 'production'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/** Who is calling: resolved from the API key on every request. */
export interface Actor {
  partnerId: string;
  environment: Environment;
  apiKeyId: string;
}

import { ForbiddenError } from './errors.js';

/** Simulations exist only in the sandbox; production answers 403. */
export function assertSandbox(actor: Actor): void {
  if (actor.environment !== 'sandbox') {
    throw new ForbiddenError('sandbox_only', 'This operation is only available with a sandbox API key');
  }
}

/**
 * No bank or blockchain is connected to this deployment: collection accounts, deposit addresses and
 * virtual account numbers are made up by the sandbox. Handing made-up instructions to a production
 * customer would make real money disappear, so production refuses every operation that issues them.
 */
export function assertDepositRailsConnected(actor: Actor): void {
  if (actor.environment !== 'sandbox') {
    throw new ForbiddenError(
      'rails_not_connected',
      'No bank or blockchain rails are connected to production in this deployment: deposit instructions are only issued in the sandbox',
    );
  }
}
