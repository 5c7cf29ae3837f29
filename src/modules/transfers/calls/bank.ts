import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import { ACROSS_TENANTS, scopeTo } from '../../../platform/security/tenant.js';
import type { BankPaymentCalls } from '../../bank-payments/calls.js';
import { Quote, Transfer } from '../entities.js';
import { moveTransfer } from '../ramps/lifecycle.js';

/** A transfer and its quote, locked `FOR UPDATE` (whichever tenant: the bank's jobs act for none). */
export async function locked(tx: EntityManager, transferId: string) {
  const transfer = await tx.findOneOrFail(Transfer, { id: transferId }, { ...ACROSS_TENANTS, lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  const quote = await tx.findOneOrFail(Quote, { id: transfer.quoteId }, ACROSS_TENANTS);
  return { transfer, quote };
}

/**
 * The transfers' side of the bank's answers: an off-ramp's status moves only here, on its row lock, through the state
 * machine (history, ledger, event). A transfer failed or refunded by hand meanwhile keeps its status.
 */
export const bankPaymentCalls: BankPaymentCalls = {
  async paymentAccepted(tx, transferId) {
    const { transfer, quote } = await locked(tx, transferId);
    if (transfer.status === 'processing') await moveTransfer(scopeTo(tx, transfer), transfer, quote, 'completed', 'bank_accepted');
  },

  async paymentRejected(tx, transferId, reason) {
    const { transfer, quote } = await locked(tx, transferId);
    if (transfer.status === 'processing') await moveTransfer(scopeTo(tx, transfer), transfer, quote, 'failed', reason);
  },

  async refundAccepted(tx, transferId) {
    const { transfer, quote } = await locked(tx, transferId);
    if (transfer.status === 'failed') await moveTransfer(scopeTo(tx, transfer), transfer, quote, 'refunded', 'deposit_returned');
  },

  // The order keeps the bank's reason; the transfer stays failed with its deposit held, as before the refund was asked.
  async refundRejected() {},
};
