import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import { sql } from 'kysely';
import type { Token } from '../../../domain/money.js';
import { readsOver } from '../../../platform/reads/queries.js';
import { ACROSS_TENANTS, scopeTo } from '../../../platform/security/tenant.js';
import type { DepositCalls, DepositChain } from '../../custody/deposits/calls.js';
import { Quote, Transfer, type TransferTables } from '../entities.js';
import { announce, moveTransfer, reverseDeposit } from '../ramps/lifecycle.js';

/** A deposit's off-ramp and quote, locked `FOR UPDATE` (whichever tenant: the watcher acts for none), its em scoped to it. */
async function locked(tx: EntityManager, transferId: string): Promise<{ transfer: Transfer; quote: Quote }> {
  const transfer = await tx.findOneOrFail(Transfer, { id: transferId }, { ...ACROSS_TENANTS, lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  const quote = await tx.findOneOrFail(Quote, { id: transfer.quoteId }, ACROSS_TENANTS);
  scopeTo(tx, transfer);
  return { transfer, quote };
}

/** Whether another transfer already names this hash (one transaction paying two addresses funds only the first). */
async function hashTakenElsewhere(tx: EntityManager, transfer: Transfer, txHash: string): Promise<boolean> {
  const taken = await tx.count(Transfer, { environment: transfer.environment, depositTransactionHash: txHash, id: { $ne: transfer.id } }, ACROSS_TENANTS);
  return taken > 0;
}

/** The chain's off-ramps with a deposit address Ramp derived (of every tenant: the watcher acts for none), with their quotes. */
const offrampsOf = (em: EntityManager, chain: DepositChain) =>
  readsOver<TransferTables>()
    .acrossTenants(em, 'transfers', 't')
    .innerJoin('quotes as q', 'q.id', 't.quote_id')
    .where('t.deposit_address_index', 'is not', null)
    .where('t.environment', '=', chain.environment)
    .where('q.source_network', '=', chain.network);

/**
 * The transfers' side of custody's deposit calls: custody watches the chain and keeps its deposits; the off-ramp's
 * fields and status move only here, on its row lock (already held by `lockForDeposit`), through the state machine.
 */
export const depositCalls: DepositCalls = {
  async depositAddresses(em, chain, closedSince) {
    const rows = await offrampsOf(em, chain).select('t.deposit_blockchain_address as address').where('t.deposit_expires_at', '>', closedSince).execute();
    return [...new Set(rows.flatMap((r) => (r.address ? [r.address.toLowerCase()] : [])))];
  },

  async depositTargets(em, chain, addresses) {
    if (!addresses.length) return new Map();
    const rows = await offrampsOf(em, chain)
      .select(['t.id', 't.deposit_blockchain_address as address', 'q.source_currency as token', 't.status', 't.deposit_expires_at'])
      .where(sql<string>`lower(t.deposit_blockchain_address)`, 'in', addresses)
      .execute();
    return new Map(
      rows.map((r) => [
        r.address!.toLowerCase(),
        { transferId: r.id, token: r.token as Token, status: r.status, depositExpiresAt: new Date(r.deposit_expires_at) },
      ]),
    );
  },

  async windowsDue(em, transferIds, now) {
    if (!transferIds.length) return [];
    const rows = await readsOver<TransferTables>()
      .acrossTenants(em, 'transfers', 't')
      .select('t.id')
      .where('t.id', 'in', transferIds)
      .where((w) => w.or([w('t.status', '<>', 'pending'), w('t.deposit_expires_at', '<=', now)]))
      .execute();
    return rows.map((r) => r.id);
  },

  async depositAddressIndexes(em, transferIds) {
    if (!transferIds.length) return new Map();
    const rows = await readsOver<TransferTables>()
      .acrossTenants(em, 'transfers', 't')
      .select(['t.id', 't.deposit_address_index as index'])
      .where('t.id', 'in', transferIds)
      .where('t.deposit_address_index', 'is not', null)
      .execute();
    return new Map(rows.map((r) => [r.id, Number(r.index)]));
  },

  async lockForDeposit(tx, transferId) {
    const { transfer, quote } = await locked(tx, transferId);
    return {
      id: transfer.id,
      status: transfer.status,
      token: quote.sourceCurrency as Token,
      depositAmount: quote.sourceAmount,
      depositExpiresAt: transfer.depositExpiresAt,
    };
  },

  async depositConfirming(tx, transferId, { txHash, confirmations, required }) {
    const { transfer } = await locked(tx, transferId);
    const changed = transfer.confirmations !== confirmations || transfer.depositTransactionHash !== txHash;
    transfer.confirmations = confirmations;
    transfer.requiredConfirmations = required;
    if (transfer.depositTransactionHash !== txHash && !(await hashTakenElsewhere(tx, transfer, txHash))) transfer.depositTransactionHash = txHash;
    // Written now: the next call on this transfer reads it afresh under the lock.
    await tx.flush();
    return changed;
  },

  async depositUpdated(tx, transferId) {
    const { transfer, quote } = await locked(tx, transferId);
    transfer.updatedAt = new Date();
    await tx.flush();
    await announce(tx, transfer, quote, 'deposit.updated');
  },

  async depositsCredited(tx, transferId, received, funded) {
    const { transfer, quote } = await locked(tx, transferId);
    if (funded) await moveTransfer(tx, transfer, quote, 'processing', 'deposit_confirmed', { received });
    else await moveTransfer(tx, transfer, quote, 'failed', 'underpaid', { received });
  },

  async depositReversed(tx, transferId) {
    const { transfer, quote } = await locked(tx, transferId);
    await reverseDeposit(tx, transfer, quote);
  },

  async depositRemoved(tx, transferId, txHash) {
    const { transfer, quote } = await locked(tx, transferId);
    if (transfer.status !== 'pending') return;
    transfer.confirmations = null;
    if (transfer.depositTransactionHash === txHash) transfer.depositTransactionHash = null;
    transfer.updatedAt = new Date();
    await tx.flush();
    await announce(tx, transfer, quote, 'deposit.updated');
  },
};
