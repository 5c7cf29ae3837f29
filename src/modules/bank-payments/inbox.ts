import type { EntityManager } from '@mikro-orm/sql';
import type { Environment } from '../../domain/environment.js';
import { unitOfWork } from '../../platform/db/unit-of-work.js';
import type { Job } from '../../platform/runtime/jobs.js';
import { type BankFile, BankFileRefused, type Iso20022Bank } from '../../rails/port.js';
import type { CrashPoint } from '../custody/crash-points.js';
import type { DataKeys } from '../customers/data-keys.js';
import type { BankCreditCalls, BankPaymentCalls } from './calls.js';
import { applyNotification } from './credits.js';
import { reconcileStatement } from './reconcile.js';
import { applyStatusReport } from './statuses.js';

const BATCH = 10;

/**
 * Reads the bank's inbox, whatever the file: a pain.002's statuses, a camt.054's entries, a camt.053's statements
 * reconciled. Each file is applied in one transaction, all of it or none, then moved to `processed/`; a file refused
 * whole (not well-formed, not valid, naming a payment Ramp never sent) goes to `rejected/` with its reason.
 */
export function bankInboxJob(
  environment: Environment,
  bank: Iso20022Bank,
  calls: BankPaymentCalls,
  credits: BankCreditCalls,
  dataKeys: DataKeys,
  crashPoint: CrashPoint | null = null,
): Job {
  return {
    name: 'bank-inbox-reader',
    batchSize: BATCH,
    async run(em) {
      const files = await bank.transport.received(BATCH);
      for (const file of files) await readOne(em, environment, bank, { calls, credits, dataKeys, crashPoint }, file);
      return files.length;
    },
  };
}

async function readOne(
  em: EntityManager,
  environment: Environment,
  bank: Iso20022Bank,
  { calls, credits, dataKeys, crashPoint }: { calls: BankPaymentCalls; credits: BankCreditCalls; dataKeys: DataKeys; crashPoint: CrashPoint | null },
  file: BankFile,
) {
  try {
    const message = bank.readMessage(file.content);
    await unitOfWork(em.fork(), async (tx) => {
      if (message.kind === 'status_report') await applyStatusReport(tx, calls, message.report, file.name);
      else if (message.kind === 'notification') await applyNotification(tx, environment, credits, message.notification, file.name, dataKeys, crashPoint);
      else for (const statement of message.statement.statements) await reconcileStatement(tx, environment, statement, message.statement.messageId, file.name);
    });
  } catch (error) {
    if (!(error instanceof BankFileRefused)) throw error;
    await bank.transport.rejected(file.name, error.reason);
    return;
  }
  await bank.transport.processed(file.name);
}
