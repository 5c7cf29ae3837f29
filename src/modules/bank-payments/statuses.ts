import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import { unitOfWork } from '../../platform/db/unit-of-work.js';
import type { Job } from '../../platform/jobs.js';
import { BankFileRefused, type BankFile, type Iso20022Bank, type StatusOfPayment } from '../../rails/port.js';
import type { BankPaymentCalls } from './calls.js';
import { BankPaymentOrder, BankStatusApplied } from './entities.js';

const BATCH = 10;

/**
 * Reads the bank's inbox: each status report applied in one transaction, every status of it or none, each status
 * once (by its key), then the file moved to `processed/`. A file refused whole goes to `rejected/` with its reason.
 */
export function bankStatusReaderJob(bank: Iso20022Bank, calls: BankPaymentCalls): Job {
  return {
    name: 'bank-status-reader',
    batchSize: BATCH,
    async run(em) {
      const files = await bank.transport.received(BATCH);
      for (const file of files) await readOne(em, bank, calls, file);
      return files.length;
    },
  };
}

async function readOne(em: EntityManager, bank: Iso20022Bank, calls: BankPaymentCalls, file: BankFile): Promise<void> {
  try {
    const report = bank.readStatusReport(file.content);
    await unitOfWork(em.fork(), async (tx) => {
      for (const status of report.statuses) await applyStatus(tx, calls, status, file.name);
    });
  } catch (error) {
    if (!(error instanceof BankFileRefused)) throw error;
    await bank.transport.rejected(file.name, error.reason);
    return;
  }
  await bank.transport.processed(file.name);
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
