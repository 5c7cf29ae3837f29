import { defineEntity, p } from '@mikro-orm/core';
import { ENVIRONMENTS } from '../../domain/environment.js';
import { createdAtColumn, idColumn } from '../../platform/columns.js';

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

export const bankPaymentEntities = [BankPaymentOrder, BankStatusApplied];
