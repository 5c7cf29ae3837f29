/** An API key belongs to one environment; data never crosses environments. */
export const ENVIRONMENTS = ['sandbox', 'production'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/** Who is calling: resolved from the API key on every request. */
export interface Actor {
  partnerId: string;
  environment: Environment;
  apiKeyId: string;
  /** The key's public prefix (`rk_sandbox_AbCd1234`), or the pseudo-key of a call Ramp makes itself (`system`). */
  apiKeyPrefix: string;
  /** What the key may do (domain/scopes.ts); absent for Ramp's own calls, which may do everything. */
  scopes?: ReadonlySet<KeyScope>;
}

import { ForbiddenError } from './errors.js';
import type { Network } from './money.js';
import type { KeyScope } from './scopes.js';

/** Simulations exist only in the sandbox; production answers 403. */
export function assertSandbox(actor: Actor): void {
  if (actor.environment !== 'sandbox') {
    throw new ForbiddenError('sandbox_only', 'This operation is only available with a sandbox API key');
  }
}

/**
 * The leg that would carry the money is not connected in this environment (rails/registry.ts): its
 * instructions would be made up, and handing made-up instructions to a production customer would
 * make real money disappear, so every operation that issues them is refused.
 */
export function railsNotConnected(leg: 'bank' | Network): ForbiddenError {
  const what = leg === 'bank' ? 'No bank is connected' : `The ${leg} chain is not connected`;
  return new ForbiddenError('rails_not_connected', `${what} in this environment: its deposit instructions are only issued where the leg is connected`);
}
