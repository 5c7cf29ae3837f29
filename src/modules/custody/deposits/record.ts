import type { EntityManager } from '@mikro-orm/sql';
import { randomUUID } from 'node:crypto';
import { tokenUnits } from '../../../domain/token-units.js';
import type { WatchedChain, TokenTransfer } from '../../../rails/port.js';
import type { DepositTarget } from './calls.js';
import type { DepositStatus } from './entities.js';

/** Confirmations of a transaction in `block` when the chain's head is `head` (its own block counts one). */
export const confirmationsAt = (head: bigint, block: bigint) => (head >= block ? Number(head - block + 1n) : 0);

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
