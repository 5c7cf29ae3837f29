import type { EntityManager } from '@mikro-orm/sql';
import { readsOver } from '../../../platform/queries.js';
import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import type { Token } from '../../../domain/money.js';
import { tokenUnits } from '../../../domain/token-units.js';
import type { WatchedChain, TokenTransfer } from '../../../rails/port.js';
import type { TransferTables } from '../../transfers/service.js';
import type { DepositStatus } from './entities.js';

/** Confirmations of a transaction in `block` when the chain's head is `head` (its own block counts one). */
export const confirmationsAt = (head: bigint, block: bigint) => (head >= block ? Number(head - block + 1n) : 0);

/** The off-ramp a deposit address belongs to, as far as deciding a new deposit's status needs. */
export interface DepositTarget {
  transferId: string;
  token: Token;
  status: string;
  depositExpiresAt: Date;
}

/**
 * How a new deposit starts: `observed` when its transfer waits for it (pending, in its window, the
 * quote's token); `wrong_token` for another token of the network; `late` when the transfer no
 * longer waits. The last two are held for return and never touch the ledger.
 */
export function statusOfNewDeposit(log: TokenTransfer, target: DepositTarget, now: Date): DepositStatus {
  if (log.token !== target.token) return 'wrong_token';
  if (target.status !== 'pending' || target.depositExpiresAt <= now) return 'late';
  return 'observed';
}

/** Off-ramps of the chain's environment and network whose deposit address is one of `addresses` (lower case). */
export async function targetsOf(em: EntityManager, chain: WatchedChain, addresses: readonly string[]): Promise<Map<string, DepositTarget>> {
  if (!addresses.length) return new Map();
  const rows = await readsOver<TransferTables>()
    .acrossTenants(em, 'transfers', 't')
    .innerJoin('quotes as q', 'q.id', 't.quote_id')
    .select(['t.id', 't.deposit_blockchain_address as address', 'q.source_currency as token', 't.status', 't.deposit_expires_at'])
    .where('t.deposit_address_index', 'is not', null)
    .where(sql<string>`lower(t.deposit_blockchain_address)`, 'in', addresses)
    .where('t.environment', '=', chain.environment)
    .where('q.source_network', '=', chain.network)
    .execute();
  return new Map(
    rows.map((r) => [
      r.address!.toLowerCase(),
      { transferId: r.id, token: r.token as Token, status: r.status, depositExpiresAt: new Date(r.deposit_expires_at) },
    ]),
  );
}

/**
 * Records a deposit once per (chain, tx hash, log index), whoever sees it first. One that had left
 * the chain (removed, or reversed) and is back takes its new block and status. Answers whether this
 * call wrote it (new or back): an existing deposit is left as it is.
 */
export async function recordDeposit(em: EntityManager, chain: WatchedChain, log: TokenTransfer, transferId: string, status: DepositStatus): Promise<boolean> {
  const contract = chain.tokens.find((t) => t.contractAddress.toLowerCase() === log.contractAddress);
  if (!contract) throw new Error(`${log.contractAddress} is not a token contract of ${chain.key}`);
  const now = new Date();
  const rows = await em.execute<{ id: string }[]>(
    `insert into chain_deposits (id, chain_key, environment, network, tx_hash, log_index, block_number, block_hash, token, contract_address,
       from_address, to_address, amount, transfer_id, status, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     on conflict (chain_key, tx_hash, log_index) do update
       set block_number = excluded.block_number, block_hash = excluded.block_hash, status = excluded.status, updated_at = excluded.updated_at
       where chain_deposits.status in ('removed', 'reversed')
     returning id`,
    [
      randomUUID(),
      chain.key,
      chain.environment,
      chain.network,
      log.txHash,
      log.logIndex,
      log.blockNumber.toString(),
      log.blockHash,
      log.token,
      log.contractAddress,
      log.from,
      log.to,
      tokenUnits(log.amount, contract.decimals).toFixed(),
      transferId,
      status,
      now,
      now,
    ],
  );
  return rows.length > 0;
}
