import type { Job } from '../../platform/jobs.js';
import type { TransferDeps } from './context.js';
import { depositWatcher } from '../custody/deposits/watcher.js';
import { depositCalls } from './deposit-calls.js';
import { payoutConfirmationJob } from '../custody/payouts/confirm.js';
import { payoutSenderJob } from '../custody/payouts/send.js';
import { payoutCalls } from './payout-calls.js';
import { sweeperJob } from '../custody/sweeps.js';

/**
 * One deposit watcher, one payout sender and (where Ramp holds the deposit keys) one sweeper per live chain (rails/port.ts): each claims its chain
 * under a database lock, so N instances run them and only one works a chain at a time.
 */
export function chainJobs(deps: TransferDeps): Job[] {
  return deps.rails
    .liveChains()
    .flatMap((chain) => [
      depositWatcher(chain, depositCalls),
      payoutSenderJob(chain, deps.payouts, payoutCalls),
      payoutConfirmationJob(chain, deps.payouts, payoutCalls),
      ...(chain.sweeps ? [sweeperJob(chain, deps.payouts)] : []),
    ]);
}
