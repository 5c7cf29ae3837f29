import type { EntityManager } from '@mikro-orm/sql';
import { REDACTED } from '../../domain/redaction.js';
import type { Environment } from '../../domain/environment.js';
import { unitOfWork } from '../../platform/db/unit-of-work.js';
import { BankFileRefused, type BankMessage } from '../../rails/port.js';
import { BankEntryApplied, BankReconciliation, type ReconciledEntry } from './entities.js';
import { reconcileStatement } from './reconcile.js';

/**
 * What an operator reads of the bank's messages in (`npm run bank:unmatched`, `npm run bank:reconcile`): the money
 * Ramp holds and could not apply, and how each statement reconciled. Entries carry no partner, so these are
 * operator tools rather than partner API routes.
 */

/** Credits held for return or unmatched, oldest first: each needs a person to return or apply it. */
export function creditsToSettle(em: EntityManager, environment: Environment, limit: number): Promise<BankEntryApplied[]> {
  return em.find(BankEntryApplied, { environment, outcome: { $in: ['held', 'unmatched'] } }, { orderBy: { createdAt: 'asc' }, limit });
}

/**
 * Erasure: the customer's bank entries keep their amounts and references (the books need them) but no personal value.
 * Sealed ones could not open once the key is destroyed anyway; entries applied before sealing, found by their
 * transfer, held theirs in clear.
 */
export async function redactBankEntries(em: EntityManager, customerId: string): Promise<void> {
  await em.execute(
    `update bank_entries set
       creditor_account = case when creditor_account is null then null else ? end,
       remittance = case when remittance is null then null else ? end
     where customer_id = ? or transfer_id in (select id from transfers where customer_id = ?)`,
    [REDACTED, REDACTED, customerId, customerId],
  );
}

/** What a camt.054 entry did, by its reference, once applied: null until then. */
export async function entryApplied(em: EntityManager, environment: Environment, reference: string) {
  const row = await em.findOne(BankEntryApplied, { environment, reference });
  return row && { outcome: row.outcome, reason: row.reason ?? null, transferId: row.transferId ?? null };
}

/** The latest statements' reconciliations, newest first. */
export function latestReconciliations(em: EntityManager, environment: Environment, limit: number): Promise<BankReconciliation[]> {
  return em.find(BankReconciliation, { environment }, { orderBy: { createdAt: 'desc' }, limit });
}

/** Reconciles the statements of a camt.053 an operator hands over, recording each once, as the inbox reader does. */
export async function reconcileFile(em: EntityManager, environment: Environment, message: BankMessage, fileName: string): Promise<BankReconciliation[]> {
  if (message.kind !== 'statement') throw new BankFileRefused(`${fileName} is not a camt.053 statement`);
  return unitOfWork(em.fork(), async (tx) => {
    const done: BankReconciliation[] = [];
    for (const statement of message.statement.statements)
      done.push(await reconcileStatement(tx, environment, statement, message.statement.messageId, fileName));
    return done;
  });
}

/** One line per entry: a plain table an operator reads or greps. */
export function entryLine(
  kind: string,
  entry: Pick<ReconciledEntry, 'reference' | 'direction' | 'amount' | 'currency' | 'bookingDate' | 'transferId'> & { note: string | null },
) {
  const amount = entry.amount === null ? '-' : `${entry.amount} ${entry.currency}`;
  return [
    kind.padEnd(10),
    entry.direction.padEnd(6),
    amount.padEnd(18),
    entry.reference.padEnd(36),
    entry.bookingDate ?? '-',
    entry.transferId ?? '-',
    entry.note ?? '',
  ].join('  ');
}
