import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import type { Actor } from '../../../domain/environment.js';
import { NotFoundError, UnprocessableError } from '../../../domain/errors.js';
import type { EventType } from '../../../domain/events.js';
import { normalizeTransactionHash, sandboxTransactionHash } from '../../../domain/identifiers/chain.js';
import {
  custodyOf,
  depositPostings,
  depositReversalPostings,
  depositSplit,
  excessReturnPostings,
  refundPostings,
  settlementPostings,
} from '../../../domain/ledger.js';
import type { Decimal } from '../../../domain/money.js';
import { type TransferStatus, assertTransition } from '../../../domain/transfer-status.js';
import { recordEvent } from '../../../platform/messaging/outbox.js';
import { maskedDetails } from '../../bank-accounts/records.js';
import { isUuid } from '../../../domain/identifiers/uuid.js';
import { postMovement } from '../../ledger/service.js';
import { Quote, Transfer, TransferStatusChange } from '../entities.js';
import { presentTransfer } from '../presenters.js';

/**
 * Every status change of a transfer goes through `moveTransfer`: the state machine allows it,
 * the history keeps it, the ledger posts what moved, and the event announces it — all in the
 * caller's transaction, on a row the caller has locked.
 */

/** Events are written for the transfer's own partner and environment (jobs act for no API key). */
const ownerOf = (transfer: Transfer): Actor => ({
  partnerId: transfer.partnerId,
  environment: transfer.environment,
  apiKeyId: 'system',
  apiKeyPrefix: 'system',
});

/** What an event says of a transfer; `deposit.updated` only of an off-ramp on a live chain (deposits/). */
type Announced = 'created' | 'status.updated' | 'deposit.updated';
const eventType = (transfer: Transfer, what: Announced) => `${transfer.direction}_transfer.${what}` as EventType;

export async function announce(em: EntityManager, transfer: Transfer, quote: Quote, what: Announced) {
  await recordEvent(em, ownerOf(transfer), {
    type: eventType(transfer, what),
    entityType: `${transfer.direction}_transfer`,
    customerId: transfer.customerId,
    entityId: transfer.id,
    payload: presentTransfer(transfer, quote),
    // The payout account's number stays in its table, sealed: the event keeps it hidden, as GraphQL shows it.
    subject: {
      entity: transfer,
      keep: ({ destinationNumber: _sealed, ...columns }) => ({ ...columns, destinationBankAccount: maskedDetails(transfer.destinationBankAccount ?? null) }),
    },
  });
}

/** A new transfer starts `pending`: its first history line, then `…_transfer.created`. */
export async function recordCreation(em: EntityManager, transfer: Transfer, quote: Quote, reason: string): Promise<void> {
  em.create(TransferStatusChange, { transferId: transfer.id, fromStatus: null, toStatus: 'pending', reason, createdAt: transfer.createdAt });
  await em.flush();
  await announce(em, transfer, quote, 'created');
}

/** The caller's transfer, locked `FOR UPDATE` until the transaction ends (so concurrent moves queue). */
export async function lockTransfer(
  em: EntityManager,
  where: Partial<Pick<Transfer, 'id' | 'partnerId' | 'environment' | 'customerId' | 'direction'>>,
): Promise<{ transfer: Transfer; quote: Quote }> {
  if (!em.isInTransaction()) throw new Error('lockTransfer must run inside a transaction');
  const transfer = where.id && isUuid(where.id) ? await em.findOne(Transfer, where, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true }) : null;
  if (!transfer) throw new NotFoundError('Transfer');
  const quote = await em.findOneOrFail(Quote, { id: transfer.quoteId });
  return { transfer, quote };
}

/** A pending transfer past its deposit window only waits for the expiry job: nothing else may happen to it. */
export function assertDepositWindowOpen(transfer: Transfer, now: Date): void {
  if (transfer.status === 'pending' && transfer.depositExpiresAt <= now) {
    throw new UnprocessableError('transfer_expired', 'The deposit window of this transfer has passed');
  }
}

async function postLedger(em: EntityManager, transfer: Transfer, quote: Quote, to: TransferStatus, received: Decimal | null): Promise<void> {
  const tenant = ownerOf(transfer);
  const source = quote.sourceCurrency;
  const sourceAmount = quote.sourceAmount;
  if (received) {
    // All of it arrived in the bank; beyond the deposit amount it goes straight back to the sender.
    await postMovement(em, tenant, transfer.id, 'deposit', depositPostings(source, received, custodyOf(source)));
    const { excess } = depositSplit(received, sourceAmount);
    if (!excess.isZero()) await postMovement(em, tenant, transfer.id, 'excess_return', excessReturnPostings(source, excess, custodyOf(source)));
  }
  if (to === 'completed') {
    const movements = settlementPostings({
      source,
      destination: quote.destinationCurrency,
      sourceAmount,
      destinationAmount: quote.destinationAmount,
      fees: { platform: quote.platformFee, developer: quote.developerFee, network: quote.networkFee },
      payoutCustody: custodyOf(quote.destinationCurrency),
    });
    for (const movement of ['fees', 'conversion', 'payout'] as const) {
      if (movements[movement].length) await postMovement(em, tenant, transfer.id, movement, movements[movement]);
    }
  } else if (to === 'refunded') {
    // What is held: all of an underpayment, the deposit amount of an exact or overpaid deposit.
    const { held } = depositSplit(transfer.depositReceivedAmount ?? sourceAmount, sourceAmount);
    await postMovement(em, tenant, transfer.id, 'refund', refundPostings(source, held, custodyOf(source)));
  }
}

/**
 * Moves a locked transfer to `to`, or throws 409 `transfer_transition_not_allowed`. A move to
 * `processing` is the deposit's arrival, of the deposit amount unless `deposit` says what arrived;
 * `deposit` on a move to `failed` is a deposit that arrived and cannot fund the transfer (underpaid).
 */
export async function moveTransfer(
  em: EntityManager,
  transfer: Transfer,
  quote: Quote,
  to: TransferStatus,
  reason: string,
  deposit?: { received: Decimal },
): Promise<void> {
  const from = transfer.status;
  assertTransition(from, to, { fundsReceived: transfer.fundsReceivedAt != null });
  if (deposit && (from !== 'pending' || (to !== 'processing' && to !== 'failed')))
    throw new Error(`a deposit arrives on a pending transfer, not on a ${from} one`);
  const received = deposit?.received ?? (to === 'processing' ? quote.sourceAmount : null);
  const now = new Date();
  transfer.status = to;
  transfer.updatedAt = now;
  if (received) {
    transfer.fundsReceivedAt = now;
    transfer.depositReceivedAmount = received;
  }
  if (to === 'failed') transfer.failureReason = reason;
  // On-ramp settlement sends the tokens. On a live chain the payout gave the transfer its real hash when it was
  // signed (payouts/); only a simulated chain's transaction is made up, here.
  if (to === 'completed' && transfer.direction === 'onramp' && !transfer.payoutTransactionHash) {
    // Stored in the same normal form as deposit hashes, so hashes compare alike wherever they are kept.
    transfer.payoutTransactionHash = normalizeTransactionHash(quote.destinationNetwork!, sandboxTransactionHash(quote.destinationNetwork!, transfer.id));
  }
  em.create(TransferStatusChange, { transferId: transfer.id, fromStatus: from, toStatus: to, reason, createdAt: now });
  await em.flush();
  await postLedger(em, transfer, quote, to, received);
  await announce(em, transfer, quote, 'status.updated');
}

/**
 * A credited chain deposit left the chain (a reorganisation deeper than the confirmations): a new
 * `deposit_reversal` posts the opposite of what the deposit left held, never deleting a row. A
 * processing transfer fails `deposit_reversed`; a failed one (underpaid) stays failed. Either way its
 * funds no longer count as received, so nothing is refunded of money that is gone. A transfer
 * already completed or refunded keeps its status: the reversal shows what Ramp lost.
 */
export async function reverseDeposit(em: EntityManager, transfer: Transfer, quote: Quote): Promise<void> {
  const source = quote.sourceCurrency;
  const { held } = depositSplit(transfer.depositReceivedAmount ?? quote.sourceAmount, quote.sourceAmount);
  if (transfer.status === 'processing' || transfer.status === 'failed') {
    transfer.fundsReceivedAt = null;
    transfer.depositReceivedAmount = null;
  }
  if (transfer.status === 'processing') await moveTransfer(em, transfer, quote, 'failed', 'deposit_reversed');
  else {
    if (transfer.status === 'failed') transfer.failureReason = 'deposit_reversed';
    transfer.updatedAt = new Date();
    await em.flush();
    await announce(em, transfer, quote, 'deposit.updated');
  }
  await postMovement(em, ownerOf(transfer), transfer.id, 'deposit_reversal', depositReversalPostings(source, held, custodyOf(source)));
}
