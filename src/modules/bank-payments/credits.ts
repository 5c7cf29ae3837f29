import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import type { Environment } from '../../domain/environment.js';
import { Decimal } from '../../domain/money.js';
import type { BankEntry, BankNotification } from '../../rails/port.js';
import { type CrashPoint, crashAt } from '../custody/crash-points.js';
import { scopeTo } from '../../platform/security/tenant.js';
import type { DataKeys } from '../customers/data-keys.js';
import type { BankCreditCalls, EntryOwner } from './calls.js';
import { BankEntryApplied, BankPaymentOrder, type EntryOutcome } from './entities.js';

type Applied = { outcome: EntryOutcome; reason: string | null; transferId: string | null; owner?: EntryOwner };

/**
 * Applies a camt.054's entries in the caller's transaction, each once: an entry whose reference (AcctSvcrRef, else
 * NtryRef) was applied before changes nothing, so a file dropped twice, or an entry a later file repeats, is read
 * and left alone.
 */
export async function applyNotification(
  tx: EntityManager,
  environment: Environment,
  calls: BankCreditCalls,
  notification: BankNotification,
  fileName: string,
  dataKeys: DataKeys,
  crashPoint: CrashPoint | null = null,
) {
  for (const entry of notification.entries) {
    if (await tx.findOne(BankEntryApplied, { environment, reference: entry.reference })) continue;
    const { owner, ...applied } = await apply(tx, environment, calls, entry);
    // Sealed by the customer's key when the entry is known to be theirs: erasing them leaves the words unreadable.
    const personal = async (value: string | null) => (value && owner ? dataKeys.seal(scopeTo(tx, owner), owner.customerId, value) : value);
    tx.create(BankEntryApplied, {
      environment,
      reference: entry.reference,
      direction: entry.direction,
      ...applied,
      amount: new Decimal(entry.amount),
      currency: entry.currency,
      bookingDate: entry.bookingDate,
      account: entry.account,
      creditorAccount: await personal(entry.creditorAccount),
      remittance: await personal(entry.remittance),
      customerId: owner?.customerId ?? null,
      partnerId: owner?.partnerId ?? null,
      endToEndId: entry.endToEndId,
      messageId: notification.messageId,
      fileName,
      createdAt: new Date(),
    });
    // Written now: an entry repeated later in the same file finds this one.
    await tx.flush();
    // The fault the crash tests inject: an entry applied, the file's transaction still open.
    crashAt(crashPoint, 'bank-entry-applied');
  }
}

async function apply(tx: EntityManager, environment: Environment, calls: BankCreditCalls, entry: BankEntry): Promise<Applied> {
  // A pending or informational entry moves no money yet: the bank books it later, under the same reference or its own.
  if (entry.status !== 'BOOK') return { outcome: 'recorded', reason: `not booked (${entry.status})`, transferId: null };
  if (entry.returned) return returnOf(tx, calls, entry, entry.returned);
  if (entry.direction === 'debit') {
    // A payout leaving: the pain.002 settled it; reconciliation matches the debit to it by its EndToEndId.
    const order = entry.endToEndId ? await tx.findOne(BankPaymentOrder, { endToEndId: entry.endToEndId }) : null;
    return { outcome: 'recorded', reason: null, transferId: order?.transferId ?? null };
  }
  // One entry booking several payments (a batch) is an operator's to split: matching it whole could fund the wrong one.
  if (entry.transactions > 1) return { outcome: 'unmatched', reason: 'batch_booking', transferId: null };
  const received = { environment, amount: new Decimal(entry.amount), currency: entry.currency.toLowerCase() };
  const applied =
    (entry.remittance ? await calls.onrampCredited(tx, entry.remittance, received) : null) ??
    (entry.creditorAccount ? await calls.virtualAccountCredited(tx, entry.creditorAccount, received) : null) ??
    (entry.account && entry.account !== entry.creditorAccount ? await calls.virtualAccountCredited(tx, entry.account, received) : null);
  if (!applied) return { outcome: 'unmatched', reason: 'no_deposit_message_or_account', transferId: null };
  return applied.outcome === 'credited'
    ? { outcome: 'credited', reason: null, transferId: applied.transferId, owner: applied.owner }
    : { outcome: 'held', reason: applied.reason, transferId: applied.transferId, owner: applied.owner };
}

/**
 * A payout the beneficiary's bank sent back: the transfer fails with the ISO reason, its funds held for refund, as a
 * pain.002 rejection does. A return for a payout already completed (or ended by hand) is held for an operator: a
 * completed transfer is final, and the money is back in Ramp's account. A returned refund is held the same way.
 */
async function returnOf(tx: EntityManager, calls: BankCreditCalls, entry: BankEntry, why: NonNullable<BankEntry['returned']>): Promise<Applied> {
  const reason = `bank_returned ${why.reasonCode}: ${why.reasonWords}`;
  const order = entry.endToEndId ? await tx.findOne(BankPaymentOrder, { endToEndId: entry.endToEndId }, { lockMode: LockMode.PESSIMISTIC_WRITE }) : null;
  if (!order) return { outcome: 'unmatched', reason, transferId: null };
  const owner = { customerId: order.customerId, partnerId: order.partnerId, environment: order.environment };
  order.status = 'rejected';
  order.reasonCode = why.reasonCode;
  order.updatedAt = new Date();
  await tx.flush();
  // A refund sent back leaves its transfer as the refund left it; the money is Ramp's again, for an operator (and a
  // rejected refund order may be placed again).
  if (order.purpose === 'refund') return { outcome: 'held', reason: `refund ${reason}`, transferId: order.transferId, owner };
  const failed = await calls.paymentReturned(tx, order.transferId, reason);
  return { outcome: failed ? 'returned' : 'held', reason, transferId: order.transferId, owner };
}
