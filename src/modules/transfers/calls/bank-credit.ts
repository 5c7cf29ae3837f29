import { DomainError } from '../../../domain/errors.js';
import { ACROSS_TENANTS, scopeTo } from '../../../platform/security/tenant.js';
import type { BankCreditCalls } from '../../bank-payments/calls.js';
import type { TransferDeps } from '../context.js';
import { locked } from './bank.js';
import { depositReferencesIn } from '../accounts/deposit-instructions.js';
import { Transfer } from '../entities.js';
import { moveTransfer } from '../ramps/lifecycle.js';
import type { simulations } from '../ramps/simulations.js';

/** The pseudo-key of what Ramp does on its bank's word: no partner's key asked for it. */
const onBehalfOf = (owner: { partnerId: string; environment: Transfer['environment'] }) => ({
  partnerId: owner.partnerId,
  environment: owner.environment,
  apiKeyId: 'system',
  apiKeyPrefix: 'system',
});

/** Whose a credited transfer or virtual account is: the bank entry is sealed by that customer's key. */
const ownerOf = (owned: { customerId: string; partnerId: string; environment: Transfer['environment'] }) => ({
  customerId: owned.customerId,
  partnerId: owned.partnerId,
  environment: owned.environment,
});

/**
 * The transfers' side of the bank's credits: the same use cases as the sandbox's simulated fiat deposits (an
 * on-ramp's deposit arriving, a virtual account funded), on the transfer's row lock, through the state machine.
 */
export function bankCreditCalls(deps: Pick<TransferDeps, 'virtualAccounts'>, sandbox: ReturnType<typeof simulations>, now: () => Date): BankCreditCalls {
  return {
    async onrampCredited(tx, remittance, received) {
      const references = depositReferencesIn(remittance);
      const found = references.length
        ? await tx.findOne(Transfer, { depositMessage: { $in: references }, direction: 'onramp', environment: received.environment }, ACROSS_TENANTS)
        : null;
      if (!found) return null;
      const { transfer, quote } = await locked(tx, found.id);
      scopeTo(tx, transfer);
      const owner = ownerOf(transfer);
      if (quote.sourceCurrency !== received.currency) return { outcome: 'held', transferId: transfer.id, reason: 'wrong_currency', owner };
      // Money that arrives after the deposit window, or for a transfer already funded or ended, funds nothing now.
      if (transfer.status !== 'pending' || transfer.depositExpiresAt <= now()) return { outcome: 'held', transferId: transfer.id, reason: 'late', owner };
      // Today's rules for fiat deposits: less than the deposit amount fails it `underpaid`, holding what arrived;
      // the deposit amount or more funds it, the excess going straight back (lifecycle.ts).
      if (received.amount.lt(quote.sourceAmount)) await moveTransfer(tx, transfer, quote, 'failed', 'underpaid', { received: received.amount });
      else await moveTransfer(tx, transfer, quote, 'processing', 'fiat_deposit_received', { received: received.amount });
      return { outcome: 'credited', transferId: transfer.id, owner };
    },

    async virtualAccountCredited(tx, number, received) {
      const account = await deps.virtualAccounts.findByDepositAccount(tx, received.environment, number);
      if (!account) return null;
      const owner = ownerOf(account);
      if (account.sourceCurrency !== received.currency) return { outcome: 'held', transferId: null, reason: 'wrong_currency', owner };
      // In a savepoint: a deposit the account cannot take (not active, no destination, an amount no quote takes) is
      // held with the rule's code, and the rest of the file still applies.
      try {
        const moved = await tx.transactional((inner) =>
          sandbox.virtualAccountFunded({ em: scopeTo(inner, account), actor: onBehalfOf(account) }, account, received.amount.toFixed()),
        );
        return { outcome: 'credited', transferId: moved.transfer.id, owner };
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        return { outcome: 'held', transferId: null, reason: error.code, owner };
      }
    },

    async paymentReturned(tx, transferId, reason) {
      const { transfer, quote } = await locked(tx, transferId);
      if (transfer.status !== 'processing') return false;
      scopeTo(tx, transfer);
      await moveTransfer(tx, transfer, quote, 'failed', reason);
      return true;
    },
  };
}
