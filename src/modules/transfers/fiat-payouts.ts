import { railsNotConnected } from '../../domain/environment.js';
import type { Environment } from '../../domain/environment.js';
import type { Decimal, FiatCurrency, PaymentRails } from '../../domain/money.js';
import { afterCommit, unitOfWork } from '../../platform/db/unit-of-work.js';
import type { Job } from '../../platform/runtime/jobs.js';
import type { Scope } from '../../platform/use-cases/scope.js';
import { ACROSS_TENANTS, scopeTo } from '../../platform/security/tenant.js';
import type { FiatPayout, Iso20022Bank } from '../../rails/port.js';
import { orderPayment } from '../bank-payments/orders.js';
import { type BankAccountDetails, numberOfDetails } from '../bank-accounts/records.js';
import { locked } from './calls/bank.js';
import type { TransferDeps } from './context.js';
import { type Quote, Transfer } from './entities.js';
import { moveTransfer } from './ramps/lifecycle.js';
import { payoutAccountOf } from './accounts/payout-account.js';

/** What the bank is asked to pay: `amount` of `currency` over `rails` to `account`, its number in full. */
export function fiatPayoutOf(transferId: string, currency: FiatCurrency, rails: PaymentRails, amount: Decimal, account: BankAccountDetails): FiatPayout {
  return {
    transferId,
    currency,
    rails,
    amount: amount.toFixed(),
    accountType: account.account_type,
    accountNumber: numberOfDetails(account),
    bic: account.account_type === 'us' ? null : account.account_type === 'iban' ? account.iban.bic : account.swift.bic,
    routingNumber: account.account_type === 'us' ? account.us.routing_number : account.account_type === 'swift' ? (account.swift.routing_number ?? null) : null,
    holderName: account.account_holder_business_name ?? [account.account_holder_first_name, account.account_holder_last_name].join(' '),
  };
}

/** An off-ramp's fiat leaving for the customer's account: the sandbox's settle step and a live bank's payout job alike. */
export function fiatPayouts(deps: TransferDeps) {
  /** A payment order of `transfer` with its bank: its pain.001 stored in this transaction, written after commit. */
  const orderBankPayment = (em: Scope['em'], bank: Iso20022Bank, transfer: Transfer, payout: FiatPayout, purpose: 'payout' | 'refund') =>
    orderPayment(
      em,
      bank,
      deps.dataKeys,
      { ...payout, customerId: transfer.customerId, partnerId: transfer.partnerId, environment: transfer.environment, purpose },
      deps.payouts.crashAt,
    );

  /**
   * The one read that opens the payout account's sealed number. Answers whether the transfer completes now (the
   * in-process bank), or waits for the bank's status report (an ISO 20022 bank).
   */
  async function payOutFiat(em: Scope['em'], transfer: Transfer, quote: Quote): Promise<'completed' | 'awaiting_bank'> {
    const bank = deps.rails.bank(transfer.environment);
    if (!bank) throw railsNotConnected('bank');
    const account = await payoutAccountOf(em, deps.dataKeys, transfer);
    if (!account) return 'completed';
    const payout = fiatPayoutOf(
      transfer.id,
      quote.destinationCurrency as FiatCurrency,
      quote.destinationRails as PaymentRails,
      quote.destinationAmount,
      account,
    );
    if (bank.kind === 'iso20022') {
      // The credit transfer and its file are stored in this transaction and written once it commits (bank-payments/).
      transfer.uetr = (await orderBankPayment(em, bank, transfer, payout, 'payout')).uetr;
      transfer.updatedAt = new Date();
      await em.flush();
      return 'awaiting_bank';
    }
    // The in-process bank only checks the account, once the settlement committed.
    afterCommit(() => bank.payOut(payout));
    return 'completed';
  }

  /**
   * A live bank pays every funded off-ramp by itself: nobody calls the sandbox's `complete_transfer` in production.
   * Each processing off-ramp without a payment order (its `uetr` is set with the order) is ordered on its row lock,
   * in its own unit of work; a second instance, or a second round, finds the order and leaves it.
   */
  function livePayoutJob(environment: Environment): Job {
    return {
      name: `bank-payouts-${environment}`,
      batchSize: BATCH,
      async run(em) {
        const due = await em.find(
          Transfer,
          { environment, direction: 'offramp', status: 'processing', uetr: null, destinationBankAccount: { $ne: null } },
          { ...ACROSS_TENANTS, fields: ['id'], orderBy: { updatedAt: 'asc' }, limit: BATCH },
        );
        for (const { id } of due) {
          await unitOfWork(em.fork(), async (tx) => {
            const { transfer, quote } = await locked(tx, id);
            if (transfer.status !== 'processing' || transfer.uetr) return;
            const paid = await payOutFiat(scopeTo(tx, transfer), transfer, quote);
            if (paid === 'completed') await moveTransfer(tx, transfer, quote, 'completed', 'settled');
          });
        }
        return due.length;
      },
    };
  }

  return { payOutFiat, orderBankPayment, livePayoutJob };
}

const BATCH = 20;
