import type { EntityManager } from '@mikro-orm/sql';
import { randomUUID } from 'node:crypto';
import type { Actor } from '../../domain/environment.js';
import { type LedgerAccount, type Movement, type Posting, assertBalanced } from '../../domain/ledger.js';
import type { Asset, Decimal } from '../../domain/money.js';
import { type LedgerEntryRow, accountBalances, customerFundsHeld, entriesOfTransfers } from './queries.js';
import type { Scope } from '../../platform/use-cases/scope.js';
import { isUuid } from '../../domain/identifiers/uuid.js';
import { ACROSS_TENANTS } from '../../platform/security/tenant.js';
import { LedgerEntry, LedgerTransaction } from './entities.js';

export interface AccountBalance {
  account: LedgerAccount;
  currency: Asset;
  /** Debits minus credits: a liability or revenue account has a negative balance. */
  balance: Decimal;
}

/**
 * Writes one ledger transaction of a transfer's movement, inside the caller's transaction.
 * The postings are checked to balance per asset before anything is written; the unique
 * (transfer, movement) constraint makes a second posting of the same movement fail.
 */
export async function postMovement(
  em: EntityManager,
  actor: Pick<Actor, 'partnerId' | 'environment'>,
  transferId: string,
  movement: Movement,
  postings: readonly Posting[],
): Promise<void> {
  if (!em.isInTransaction()) throw new Error('postMovement must run inside the transaction of its transfer');
  assertBalanced(postings);
  const now = new Date();
  const tenant = { partnerId: actor.partnerId, environment: actor.environment };
  const transactionId = randomUUID();
  // Native inserts, in order: the entries reference the transaction (the unit of work would not know).
  await em.insert(LedgerTransaction, { id: transactionId, ...tenant, transferId, movement, createdAt: now });
  await em.insertMany(
    LedgerEntry,
    postings.map((p) => ({
      transactionId,
      ...tenant,
      transferId,
      movement,
      account: p.account,
      currency: p.asset,
      amount: p.amount,
      createdAt: now,
    })),
  );
}

/**
 * What Ramp holds for the partner's customers, per asset: the credit balance of
 * `customer_funds` (deposits received and not yet paid out or returned). Assets never used are absent.
 */
export const heldForCustomers: (scope: Scope) => Promise<Map<Asset, Decimal>> = customerFundsHeld;

/**
 * Which of `transferIds` have `movement` posted, whichever partner's: what reconciling a bank statement checks each
 * entry against (a credit's deposit, a payout's payout).
 */
export async function transfersWithMovement(em: EntityManager, transferIds: readonly string[], movement: Movement): Promise<Set<string>> {
  if (transferIds.length === 0) return new Set();
  const posted = await em.find(LedgerTransaction, { transferId: { $in: [...transferIds] }, movement }, { ...ACROSS_TENANTS, fields: ['transferId'] });
  return new Set(posted.map((row) => row.transferId));
}

export function createLedgerService() {
  return {
    /** Every account's balance for the caller's partner and environment. */
    balances: (scope: Scope): Promise<AccountBalance[]> => accountBalances(scope),

    /** The entries of many transfers in one query (GraphQL `Transfer.postings` dataloader). */
    entriesOf(scope: Scope, transferIds: readonly string[]): Promise<LedgerEntryRow[]> {
      const ids = transferIds.filter(isUuid);
      return ids.length ? entriesOfTransfers(scope, ids) : Promise.resolve([]);
    },
  };
}
export type LedgerService = ReturnType<typeof createLedgerService>;
