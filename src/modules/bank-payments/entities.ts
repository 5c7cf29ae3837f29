import { defineEntity, p } from '@mikro-orm/core';
import { ENVIRONMENTS } from '../../domain/environment.js';
import type { Decimal } from '../../domain/money.js';
import { createdAtColumn, idColumn } from '../../platform/db/columns.js';
import { DecimalColumn } from '../../platform/db/decimal-column.js';

/** `stored` (its file maybe not yet written) → `sent` (in the bank's outbox) → `accepted` or `rejected` by the bank. */
export const ORDER_STATUSES = ['stored', 'sent', 'accepted', 'rejected'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** What an order pays: an off-ramp's payout, or an on-ramp's deposit sent back (a refund in fiat). */
export const ORDER_PURPOSES = ['payout', 'refund'] as const;
export type OrderPurpose = (typeof ORDER_PURPOSES)[number];

/**
 * One credit transfer Ramp asks its bank to make, stored with its file in the payout's transaction before the file is
 * written: a crash after the commit loses nothing (the sender job writes it), and the file's name is the order's, so
 * writing it twice leaves one file.
 */
const BankPaymentOrderSchema = defineEntity({
  name: 'BankPaymentOrder',
  tableName: 'bank_payment_orders',
  properties: {
    id: idColumn(),
    /**
     * One payout order per transfer, whatever instance or request settles it, and one refund order in flight at a time
     * (partial unique indexes of the migration).
     */
    transferId: p.uuid(),
    purpose: p.enum(ORDER_PURPOSES),
    /** The transfer's tenant: the order itself is read across tenants (by the bank's jobs), the customer's key within it. */
    partnerId: p.uuid(),
    environment: p.enum(ENVIRONMENTS),
    /** Whose data key seals the file: it holds the customer's account number in clear. */
    customerId: p.uuid(),
    /** The file's MsgId: the order id without dashes. */
    messageId: p.text().unique(),
    /** A payout's: the transfer id without dashes; a refund's: its own order id without dashes. */
    endToEndId: p.text().unique(),
    uetr: p.uuid().unique(),
    fileName: p.text(),
    /** The pain.001, sealed by the customer's data key (customers/data-keys.ts), opened only to write it. */
    document: p.text().lazy(),
    /** What it pays, beside the sealed file, for reconciliation; null on orders stored before it was kept. */
    amount: p.type(DecimalColumn).$type<Decimal>().precision(38).scale(18).nullable(),
    /** ISO 4217, upper case as the bank writes it. */
    currency: p.text().nullable(),
    status: p.enum(ORDER_STATUSES),
    /** The ISO reason code of a rejection. */
    reasonCode: p.text().nullable(),
    sentAt: p.datetime().nullable(),
    createdAt: createdAtColumn(),
    updatedAt: p.datetime(),
  },
});
export class BankPaymentOrder extends BankPaymentOrderSchema.class {}
BankPaymentOrderSchema.setClass(BankPaymentOrder);

/** Each status a bank reported, applied once: its key is the report's MsgId and what the status is of. */
const BankStatusAppliedSchema = defineEntity({
  name: 'BankStatusApplied',
  tableName: 'bank_statuses_applied',
  properties: {
    key: p.text().primary(),
    orderId: p.uuid(),
    /** The status code (ACSC, ACCC, RJCT, ACSP …). */
    status: p.text(),
    fileName: p.text(),
    createdAt: createdAtColumn(),
  },
});
export class BankStatusApplied extends BankStatusAppliedSchema.class {}
BankStatusAppliedSchema.setClass(BankStatusApplied);

/**
 * What an entry of the bank's did: `credited` a transfer; `held` for return (it names a transfer that no longer waits
 * for it, or cannot take it); `unmatched` (it names nothing Ramp knows); `returned` a payout; `recorded` nothing to
 * apply (a debit of a payout, an entry not booked).
 */
export const ENTRY_OUTCOMES = ['credited', 'held', 'unmatched', 'returned', 'recorded'] as const;
export type EntryOutcome = (typeof ENTRY_OUTCOMES)[number];

/** Each entry of a camt.054 applied once, by the bank's reference: a file dropped twice finds every entry here. */
const BankEntryAppliedSchema = defineEntity({
  name: 'BankEntryApplied',
  tableName: 'bank_entries',
  properties: {
    id: idColumn(),
    environment: p.enum(ENVIRONMENTS),
    /** AcctSvcrRef, else NtryRef. */
    reference: p.text(),
    direction: p.enum(['credit', 'debit'] as const),
    outcome: p.enum(ENTRY_OUTCOMES),
    /** Why an entry is held or unmatched, or a return's reason. */
    reason: p.text().nullable(),
    amount: p.type(DecimalColumn).$type<Decimal>().precision(38).scale(18),
    currency: p.text(),
    bookingDate: p.date().nullable(),
    /** The account the notification is of: Ramp's own, in clear (reconciliation matches statements by it). */
    account: p.text().nullable(),
    /** The account paid into and the payer's words: sealed by the customer's data key when the customer is known. */
    creditorAccount: p.text().nullable(),
    remittance: p.text().nullable(),
    endToEndId: p.text().nullable(),
    transferId: p.uuid().nullable(),
    /** Whose entry it is, when Ramp knows (what it credited or returned): whose key seals it, whose erasure redacts it. */
    customerId: p.uuid().nullable(),
    partnerId: p.uuid().nullable(),
    messageId: p.text(),
    fileName: p.text(),
    createdAt: createdAtColumn(),
  },
});
export class BankEntryApplied extends BankEntryAppliedSchema.class {}
BankEntryAppliedSchema.setClass(BankEntryApplied);

/** One statement entry as reconciliation saw it. */
export interface ReconciledEntry {
  reference: string;
  direction: 'credit' | 'debit';
  /** Null for a payout ordered before orders kept their amount beside the sealed file. */
  amount: string | null;
  currency: string | null;
  bookingDate: string | null;
  /** Why it is not matched: what Ramp knows of it, if anything. */
  note: string;
  transferId: string | null;
}

/** A camt.053 statement reconciled against the ledger, once per statement. */
const BankReconciliationSchema = defineEntity({
  name: 'BankReconciliation',
  tableName: 'bank_reconciliations',
  properties: {
    id: idColumn(),
    environment: p.enum(ENVIRONMENTS),
    messageId: p.text(),
    statementId: p.text(),
    account: p.text().nullable(),
    fromDate: p.date().nullable(),
    toDate: p.date().nullable(),
    /** Booked entries matched to the ledger movement they produced. */
    matched: p.integer(),
    /** Entries Ramp read before but that moved nothing in the ledger (held, unmatched). */
    unmatched: p.json<ReconciledEntry[]>(),
    /** Entries the ledger lacks: Ramp never saw them. */
    unexpected: p.json<ReconciledEntry[]>(),
    /** Ledger movements made on the bank's word in the statement's days that the statement lacks. */
    missing: p.json<ReconciledEntry[]>(),
    fileName: p.text(),
    createdAt: createdAtColumn(),
  },
});
export class BankReconciliation extends BankReconciliationSchema.class {}
BankReconciliationSchema.setClass(BankReconciliation);

export const bankPaymentEntities = [BankPaymentOrder, BankStatusApplied, BankEntryApplied, BankReconciliation];
