import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import { BankFileRefused, type StatusOfPayment, type StatusReport } from '../../rails/port.js';
import type { BankPaymentCalls } from './calls.js';
import { BankPaymentOrder, BankStatusApplied } from './entities.js';

/** Applies every status of a pain.002 in the caller's transaction, each once (by its key). */
export async function applyStatusReport(tx: EntityManager, calls: BankPaymentCalls, report: StatusReport, fileName: string): Promise<void> {
  for (const status of report.statuses) await applyStatus(tx, calls, status, fileName);
}

async function applyStatus(tx: EntityManager, calls: BankPaymentCalls, status: StatusOfPayment, fileName: string): Promise<void> {
  const order = await tx.findOne(BankPaymentOrder, status.endToEndId === null ? { messageId: status.originalMessageId } : { endToEndId: status.endToEndId }, {
    lockMode: LockMode.PESSIMISTIC_WRITE,
  });
  if (!order) {
    throw new BankFileRefused(
      status.endToEndId === null
        ? `it reports on file ${status.originalMessageId}, which Ramp never sent`
        : `it reports on EndToEndId ${status.endToEndId}, which Ramp never sent`,
    );
  }
  if (await tx.findOne(BankStatusApplied, { key: status.key })) return;
  const code = status.status.kind === 'accepted' ? status.status.code : status.status.kind === 'rejected' ? 'RJCT' : status.status.code;
  tx.create(BankStatusApplied, { key: status.key, orderId: order.id, status: code, fileName, createdAt: new Date() });
  // A later report cannot undo a settled or rejected payment: a return comes as its own message (camt.054).
  const open = order.status === 'stored' || order.status === 'sent';
  const refund = order.purpose === 'refund';
  if (open && status.status.kind === 'accepted') {
    order.status = 'accepted';
    order.updatedAt = new Date();
    await tx.flush();
    await (refund ? calls.refundAccepted(tx, order.transferId) : calls.paymentAccepted(tx, order.transferId));
  } else if (open && status.status.kind === 'rejected') {
    order.status = 'rejected';
    order.reasonCode = status.status.reasonCode;
    order.updatedAt = new Date();
    await tx.flush();
    const reason = `bank_rejected ${status.status.reasonCode}: ${status.status.reasonWords}`;
    await (refund ? calls.refundRejected(tx, order.transferId, reason) : calls.paymentRejected(tx, order.transferId, reason));
  } else {
    await tx.flush();
  }
}
