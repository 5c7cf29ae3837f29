import type { Job } from '../../platform/jobs.js';
import type { TransferDeps } from './context.js';
import { depositWatcher } from './deposits/watcher.js';
import { payoutConfirmationJob } from './payouts/confirm.js';
import { payoutSenderJob } from './payouts/send.js';
import { sweeperJob } from '../custody/sweeps.js';

/**
 * One deposit watcher, one payout sender and (where Ramp holds the deposit keys) one sweeper per live chain (rails/port.ts): each claims its chain
 * under a database lock, so N instances run them and only one works a chain at a time.
 */
export function chainJobs(deps: TransferDeps): Job[] {
  return deps.rails
    .liveChains()
    .flatMap((chain) => [
      depositWatcher(chain),
      payoutSenderJob(chain, deps.payouts),
      payoutConfirmationJob(chain, deps.payouts),
      ...(chain.sweeps ? [sweeperJob(chain, deps.payouts)] : []),
    ]);
}
