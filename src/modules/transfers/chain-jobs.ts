import { ENVIRONMENTS } from '../../domain/environment.js';
import type { Job } from '../../platform/runtime/jobs.js';
import { bankOrderSenderJob } from '../bank-payments/orders.js';
import type { BankCreditCalls } from '../bank-payments/calls.js';
import { bankInboxJob } from '../bank-payments/inbox.js';
import { bankPaymentCalls } from './calls/bank.js';
import { fiatPayouts } from './fiat-payouts.js';
import type { TransferDeps } from './context.js';
import { depositWatcher } from '../custody/deposits/watcher.js';
import { depositCalls } from './calls/deposit.js';
import { payoutConfirmationJob } from '../custody/payouts/confirm.js';
import { payoutSenderJob } from '../custody/payouts/send.js';
import { payoutCalls } from './calls/payout.js';
import { sweeperJob } from '../custody/sweeps.js';

/**
 * One deposit watcher, one payout sender and (where Ramp holds the deposit keys) one sweeper per live chain (rails/port.ts): each claims its chain
 * under a database lock, so N instances run them and only one works a chain at a time.
 */
export function chainJobs(deps: TransferDeps, bankCredits: BankCreditCalls): Job[] {
  return [...bankJobs(deps, bankCredits), ...liveChainJobs(deps)];
}

/**
 * Each environment's ISO 20022 bank: its stored payment orders' files written, its inbox read. They poll with the chain
 * jobs (CHAIN_POLL_INTERVAL_MS, 1 s by default), so a status report is read within the 2 s a bank link expects.
 */
function bankJobs(deps: TransferDeps, bankCredits: BankCreditCalls): Job[] {
  const simulator = deps.rails.sandboxBankSimulator;
  // The simulator answers between Ramp's writing and reading, so one round takes a payout from its file to its status.
  const simulatorJob: Job[] = simulator ? [{ name: 'sandbox-bank-simulator', batchSize: 10, run: () => simulator.answer(10) }] : [];
  return ENVIRONMENTS.flatMap((environment) => {
    const bank = deps.rails.bank(environment);
    if (bank?.kind !== 'iso20022') return [];
    // A live bank pays funded off-ramps by itself; the sandbox's wait for complete_transfer, as its partners test them.
    const payouts = bank.mode === 'live' ? [fiatPayouts(deps).livePayoutJob(environment)] : [];
    return [
      ...payouts,
      bankOrderSenderJob(bank, deps.dataKeys),
      ...simulatorJob,
      bankInboxJob(environment, bank, bankPaymentCalls, bankCredits, deps.dataKeys, deps.payouts.crashAt),
    ];
  });
}

function liveChainJobs(deps: TransferDeps): Job[] {
  return deps.rails
    .liveChains()
    .flatMap((chain) => [
      depositWatcher(chain, depositCalls),
      payoutSenderJob(chain, deps.payouts, payoutCalls),
      payoutConfirmationJob(chain, deps.payouts, payoutCalls),
      ...(chain.sweeps ? [sweeperJob(chain, deps.payouts, depositCalls)] : []),
    ]);
}
