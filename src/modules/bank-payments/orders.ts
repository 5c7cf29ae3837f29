import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/sql';
import { Decimal } from '../../domain/money.js';
import { afterCommit } from '../../platform/db/unit-of-work.js';
import { scopeTo } from '../../platform/security/tenant.js';
import type { Job } from '../../platform/runtime/jobs.js';
import type { FiatPayout, Iso20022Bank } from '../../rails/port.js';
import type { DataKeys } from '../customers/data-keys.js';
import { type CrashPoint, crashAt } from '../custody/crash-points.js';
import { BankPaymentOrder, type OrderPurpose, type OrderStatus } from './entities.js';

const compact = (uuid: string) => uuid.replaceAll('-', '');

/**
 * Stores a credit transfer, its pain.001 built and sealed, in the caller's unit of work, and writes the file once that
 * commits. A payout's EndToEndId is its transfer id without dashes, a refund's its own order id: each payment banks
 * track on its own. Ordering a transfer's payout again, or its refund while one is in flight, returns the order stored.
 */
export async function orderPayment(
  em: EntityManager,
  bank: Iso20022Bank,
  dataKeys: DataKeys,
  payout: FiatPayout & { customerId: string; partnerId: string; environment: BankPaymentOrder['environment']; purpose?: OrderPurpose },
  crashPoint: CrashPoint | null = null,
): Promise<{ uetr: string }> {
  const purpose = payout.purpose ?? 'payout';
  const open = purpose === 'refund' ? { status: { $in: ['stored', 'sent'] as OrderStatus[] } } : {};
  const stored = await em.findOne(BankPaymentOrder, { transferId: payout.transferId, purpose, ...open });
  if (stored) return { uetr: stored.uetr };
  const orderId = randomUUID();
  const endToEndId = compact(purpose === 'refund' ? orderId : payout.transferId);
  const ids = { orderId, uetr: randomUUID(), createdAt: new Date(), endToEndId };
  const file = bank.creditTransfer(payout, ids);
  em.create(BankPaymentOrder, {
    id: ids.orderId,
    transferId: payout.transferId,
    purpose,
    partnerId: payout.partnerId,
    environment: payout.environment,
    customerId: payout.customerId,
    messageId: compact(ids.orderId),
    endToEndId,
    uetr: ids.uetr,
    fileName: file.name,
    document: await dataKeys.seal(em, payout.customerId, file.content),
    amount: new Decimal(payout.amount),
    currency: payout.currency.toUpperCase(),
    status: 'stored',
    createdAt: ids.createdAt,
    updatedAt: ids.createdAt,
  });
  await em.flush();
  afterCommit((after) => {
    // The fault the crash tests inject: the order committed, its file never written by this process.
    crashAt(crashPoint, 'bank-order-stored');
    return sendOrder(after.fork(), bank, dataKeys, ids.orderId);
  });
  return { uetr: ids.uetr };
}

/**
 * Writes a stored order's file to the bank and marks it sent. Outside any transaction: the write talks to the outside.
 * A crash between the write and the mark writes the same file, under the same name, again: the outbox still holds one.
 */
export async function sendOrder(em: EntityManager, bank: Iso20022Bank, dataKeys: DataKeys, orderId: string): Promise<boolean> {
  const order = await em.findOne(BankPaymentOrder, { id: orderId, status: 'stored' }, { populate: ['document'] });
  if (!order) return false;
  const content = await dataKeys.open(scopeTo(em, order), order.customerId, order.document);
  // An erased customer's key is gone, and with it the account to pay: the order stays stored, for an operator.
  if (content === null) throw new Error(`bank payment order ${order.id} cannot be opened: its customer's data key was destroyed`);
  await bank.transport.send({ name: order.fileName, content });
  await em.nativeUpdate(BankPaymentOrder, { id: order.id, status: 'stored' }, { status: 'sent', sentAt: new Date(), updatedAt: new Date() });
  return true;
}

const BATCH = 20;

/** Writes the files of orders stored but not yet sent: those whose after-commit write never ran (a crash) or failed. */
export function bankOrderSenderJob(bank: Iso20022Bank, dataKeys: DataKeys): Job {
  return {
    name: 'bank-order-sender',
    batchSize: BATCH,
    async run(em) {
      const due = await em.find(BankPaymentOrder, { status: 'stored' }, { orderBy: { createdAt: 'asc' }, limit: BATCH, fields: ['id'] });
      // Each in a fresh EntityManager: the list read only ids, the send reads the whole (lazy) document.
      for (const order of due) await sendOrder(em.fork(), bank, dataKeys, order.id);
      return due.length;
    },
  };
}
