import type { EntityManager } from '@mikro-orm/sql';
import type { Environment } from '../../domain/environment.js';
import type { Decimal } from '../../domain/money.js';
import type { AccountStatement, BankEntry } from '../../rails/port.js';
import { transfersWithMovement } from '../ledger/service.js';
import { BankEntryApplied, BankPaymentOrder, BankReconciliation, type ReconciledEntry } from './entities.js';

const shown = (entry: BankEntry, note: string, transferId: string | null = null): ReconciledEntry => ({
  reference: entry.reference,
  direction: entry.direction,
  amount: entry.amount,
  currency: entry.currency,
  bookingDate: entry.bookingDate,
  note,
  transferId,
});

/**
 * Reconciles one account's end-of-day statement against the ledger, and records it once (a statement dropped twice
 * answers the reconciliation recorded the first time):
 * - matched: a booked entry and the ledger movement it produced: a credit's deposit (the camt.054 entry of the same
 *   reference credited a transfer), a payout's payout (by its EndToEndId), a return's failed payout;
 * - unmatched: an entry Ramp read before but that moved nothing in the ledger (held for return, unmatched);
 * - unexpected: an entry the ledger lacks: Ramp never heard of it;
 * - missing: a movement Ramp made on the bank's word within the statement's days that the statement lacks: a credit
 *   or return notified on this account, or a payout the bank accepted.
 */
export async function reconcileStatement(
  tx: EntityManager,
  environment: Environment,
  statement: AccountStatement,
  messageId: string,
  fileName: string,
): Promise<BankReconciliation> {
  const recorded = await tx.findOne(BankReconciliation, { environment, messageId, statementId: statement.id });
  if (recorded) return recorded;

  const booked = statement.entries.filter((entry) => entry.status === 'BOOK');
  const applied = new Map(
    (await tx.find(BankEntryApplied, { environment, reference: { $in: booked.map((entry) => entry.reference) } })).map((row) => [row.reference, row]),
  );
  const endToEndIds = booked.filter((entry) => entry.direction === 'debit' && !entry.returned && entry.endToEndId).map((entry) => entry.endToEndId!);
  const orders = new Map((await tx.find(BankPaymentOrder, { endToEndId: { $in: endToEndIds } })).map((order) => [order.endToEndId, order]));
  const deposited = await transfersWithMovement(
    tx,
    [...applied.values()].flatMap((row) => (row.transferId ? [row.transferId] : [])),
    'deposit',
  );
  const paidOut = await transfersWithMovement(
    tx,
    [...orders.values()].map((order) => order.transferId),
    'payout',
  );

  let matched = 0;
  const unmatched: ReconciledEntry[] = [];
  const unexpected: ReconciledEntry[] = [];
  for (const entry of booked) {
    const order = entry.endToEndId ? orders.get(entry.endToEndId) : undefined;
    if (order && paidOut.has(order.transferId)) {
      matched++;
      continue;
    }
    const row = applied.get(entry.reference);
    if (!row) {
      unexpected.push(shown(entry, order ? `payout of transfer ${order.transferId} not completed in the ledger` : 'never notified', order?.transferId));
    } else if ((row.outcome === 'credited' && row.transferId && deposited.has(row.transferId)) || row.outcome === 'returned') {
      matched++;
    } else {
      unmatched.push(shown(entry, row.reason ? `${row.outcome}: ${row.reason}` : row.outcome, row.transferId));
    }
  }

  const reconciliation = tx.create(BankReconciliation, {
    environment,
    messageId,
    statementId: statement.id,
    account: statement.account,
    fromDate: statement.from,
    toDate: statement.to,
    matched,
    unmatched,
    unexpected,
    missing: await missingFrom(tx, environment, statement),
    fileName,
    createdAt: new Date(),
  });
  await tx.flush();
  return reconciliation;
}

/** What the ledger moved on the bank's word within the statement's days, on its account, that the statement lacks. */
async function missingFrom(tx: EntityManager, environment: Environment, statement: AccountStatement): Promise<ReconciledEntry[]> {
  if (!statement.from || !statement.to) return [];
  const references = new Set(statement.entries.map((entry) => entry.reference));
  const endToEndIds = new Set(statement.entries.flatMap((entry) => (entry.endToEndId ? [entry.endToEndId] : [])));
  const entries = await tx.find(
    BankEntryApplied,
    {
      environment,
      outcome: { $in: ['credited', 'returned'] },
      bookingDate: { $gte: statement.from, $lte: statement.to },
      ...(statement.account && { account: statement.account }),
    },
    { orderBy: { createdAt: 'asc' } },
  );
  const missing: ReconciledEntry[] = entries
    .filter((row) => !references.has(row.reference))
    .map((row) => ({
      reference: row.reference,
      direction: row.direction,
      amount: shownAmount(row.amount),
      currency: row.currency,
      bookingDate: row.bookingDate ?? null,
      note: `${row.outcome} from ${row.fileName}, absent from the statement`,
      transferId: row.transferId ?? null,
    }));
  // A payout the bank accepted within those days is a debit the statement must show.
  const accepted = await tx.find(
    BankPaymentOrder,
    { environment, status: 'accepted', updatedAt: { $gte: new Date(`${statement.from}T00:00:00Z`), $lt: dayAfter(statement.to) } },
    { orderBy: { updatedAt: 'asc' } },
  );
  for (const order of accepted.filter((order) => !endToEndIds.has(order.endToEndId))) {
    missing.push({
      reference: order.endToEndId,
      direction: 'debit',
      amount: order.amount ? shownAmount(order.amount) : null,
      currency: order.currency ?? null,
      bookingDate: order.updatedAt.toISOString().slice(0, 10),
      note: 'payout accepted by the bank (pain.002), absent from the statement',
      transferId: order.transferId,
    });
  }
  return missing;
}

/** As a statement writes it: at least the cents. */
export const shownAmount = (amount: Decimal) => amount.toFixed(Math.max(2, amount.decimalPlaces()));

const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000);
