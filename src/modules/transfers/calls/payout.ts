import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import type { Token } from '../../../domain/money.js';
import { readsOver } from '../../../platform/reads/queries.js';
import { ACROSS_TENANTS, scopeTo } from '../../../platform/security/tenant.js';
import type { PayoutCalls, PayoutRequest } from '../../custody/payouts/calls.js';
import { Quote, Transfer, type TransferTables } from '../entities.js';
import { moveTransfer } from '../ramps/lifecycle.js';

/** An on-ramp's transfer and quote, locked `FOR UPDATE` for the rest of the transaction (whichever tenant: custody acts for none). */
async function locked(tx: EntityManager, transferId: string) {
  const transfer = await tx.findOneOrFail(Transfer, { id: transferId }, { ...ACROSS_TENANTS, lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  const quote = await tx.findOneOrFail(Quote, { id: transfer.quoteId }, ACROSS_TENANTS);
  return { transfer, quote };
}

/** What an on-ramp's payout is, as custody pays it: its destination, token and amount. */
export const payoutRequestOf = (transfer: Transfer, quote: Quote): PayoutRequest => ({
  transferId: transfer.id,
  token: quote.destinationCurrency as Token,
  to: transfer.destinationAddress!,
  amount: quote.destinationAmount,
});

/**
 * The transfers' side of custody's payout calls: custody signs, sends and follows; the transfer's fields and status
 * move only here, on its row lock, through the state machine (history, ledger, event).
 */
export const payoutCalls: PayoutCalls = {
  async payoutsRequested(tx, chain, limit) {
    // Processing on-ramps of the chain with no payout signed yet: a signed one names its hash at once.
    const rows = await readsOver<TransferTables>()
      .acrossTenants(tx, 'transfers', 't')
      .innerJoin('quotes as q', 'q.id', 't.quote_id')
      .select('t.id')
      .where('t.environment', '=', chain.environment)
      .where('t.direction', '=', 'onramp')
      .where('t.status', '=', 'processing')
      .where('t.payout_transaction_hash', 'is', null)
      .where('q.destination_network', '=', chain.network)
      .orderBy('t.updated_at')
      .orderBy('t.id')
      .limit(limit)
      .forUpdate('t')
      .skipLocked()
      .execute();
    if (!rows.length) return [];
    const transfers = await tx.find(Transfer, { id: { $in: rows.map((r) => r.id) } }, { ...ACROSS_TENANTS, orderBy: { updatedAt: 'asc', id: 'asc' } });
    const quotes = new Map((await tx.find(Quote, { id: { $in: transfers.map((t) => t.quoteId) } }, ACROSS_TENANTS)).map((q) => [q.id, q]));
    return transfers.map((transfer) => payoutRequestOf(transfer, quotes.get(transfer.quoteId)!));
  },

  async payoutsSigned(tx, signed, requiredConfirmations) {
    // One statement for the batch; locked already when the sender claimed them or the settlement locked its own.
    const transfers = await tx.find(Transfer, { id: { $in: signed.map((s) => s.transferId) } }, { ...ACROSS_TENANTS, lockMode: LockMode.PESSIMISTIC_WRITE });
    const hashOf = new Map(signed.map((s) => [s.transferId, s.transactionHash]));
    const now = new Date();
    for (const transfer of transfers) {
      transfer.payoutTransactionHash = hashOf.get(transfer.id)!;
      transfer.requiredConfirmations = requiredConfirmations;
      transfer.confirmations ??= 0;
      transfer.updatedAt = now;
    }
    // Written now, in one batch: the next call on these transfers reads them afresh under the lock.
    await tx.flush();
  },

  async payoutConfirming(tx, transferId, transactionHash, confirmations, required) {
    const { transfer } = await locked(tx, transferId);
    const changed = transfer.confirmations !== confirmations || transfer.payoutTransactionHash !== transactionHash;
    transfer.confirmations = confirmations;
    transfer.requiredConfirmations = required;
    transfer.payoutTransactionHash = transactionHash;
    await tx.flush();
    return changed;
  },

  async payoutConfirmed(tx, transferId) {
    const { transfer, quote } = await locked(tx, transferId);
    // A transfer failed or refunded by hand meanwhile keeps its status: the chain's part is recorded on the payout.
    if (transfer.status === 'processing') await moveTransfer(scopeTo(tx, transfer), transfer, quote, 'completed', 'payout_confirmed');
  },

  async payoutRequeued(tx, transferId) {
    const { transfer } = await locked(tx, transferId);
    transfer.confirmations = 0;
    await tx.flush();
  },

  async payoutFailed(tx, transferId, reason) {
    const { transfer, quote } = await locked(tx, transferId);
    // A dropped transaction never reached the chain: its hash is no destination transaction.
    if (reason === 'payout_dropped') transfer.payoutTransactionHash = null;
    if (transfer.status === 'processing') await moveTransfer(scopeTo(tx, transfer), transfer, quote, 'failed', reason);
    else await tx.flush();
  },
};
