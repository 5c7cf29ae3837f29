import type { EntityManager } from '@mikro-orm/sql';
import { randomUUID } from 'node:crypto';
import { Decimal, type Token } from '../../../domain/money.js';
import type { LiveChain, TokenTransfer } from '../../../rails/port.js';
import type { DepositStatus } from './entities.js';

/** A token amount in base units as the token's units (USDC/USDT: 6 decimals), exactly. */
export const tokenUnits = (amount: bigint, decimals: number) => new Decimal(amount.toString()).div(new Decimal(10).pow(decimals));

/** Base units of a token amount (an amount already checked to have at most `decimals` places). */
export const baseUnits = (amount: Decimal, decimals: number) => BigInt(amount.mul(new Decimal(10).pow(decimals)).toFixed(0));

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
export async function targetsOf(em: EntityManager, chain: LiveChain, addresses: readonly string[]): Promise<Map<string, DepositTarget>> {
  if (!addresses.length) return new Map();
  const rows = await em.execute<{ id: string; address: string; token: Token; status: string; deposit_expires_at: string | Date }[]>(
    `select t.id, lower(t.deposit_blockchain_address) as address, q.source_currency as token, t.status, t.deposit_expires_at
       from transfers t join quotes q on q.id = t.quote_id
      where t.deposit_address_index is not null and lower(t.deposit_blockchain_address) in (${addresses.map(() => '?').join(', ')})
        and t.environment = ? and q.source_network = ?`,
    [...addresses, chain.environment, chain.network],
  );
  return new Map(rows.map((r) => [r.address, { transferId: r.id, token: r.token, status: r.status, depositExpiresAt: new Date(r.deposit_expires_at) }]));
}

/**
 * Records a deposit once per (chain, tx hash, log index), whoever sees it first. One that had left
 * the chain (removed, or reversed) and is back takes its new block and status. Answers whether this
 * call wrote it (new or back): an existing deposit is left as it is.
 */
export async function recordDeposit(em: EntityManager, chain: LiveChain, log: TokenTransfer, transferId: string, status: DepositStatus): Promise<boolean> {
  const decimals = chain.tokens.find((t) => t.contractAddress.toLowerCase() === log.contractAddress)?.decimals ?? 6;
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
      tokenUnits(log.amount, decimals).toFixed(),
      transferId,
      status,
      now,
      now,
    ],
  );
  return rows.length > 0;
}
