import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import { ChainSender } from './entities.js';

/**
 * What the chain says of a sending account, read before the transaction that takes its nonces opens (a node's
 * answer can take seconds, and no transaction waits on one).
 */
export interface SenderReading {
  /** Lower case. */
  address: string;
  /** The next nonce the chain expects, counting mined transactions only. */
  minedNonce: number;
}

export async function readSender(node: { minedNonce(address: string): Promise<number> }, address: string): Promise<SenderReading> {
  return { address: address.toLowerCase(), minedNonce: await node.minedNonce(address) };
}

/**
 * The one nonce allocator of a sending account: takes `count` consecutive nonces of `sequence` under the account's
 * row lock, held until the caller's transaction ends, in which the caller stores what it signs with them. An account
 * seen for the first time starts at its mined nonce; a nonce spent outside Ramp (the same key used elsewhere) is
 * skipped, never reused. Answers the first nonce taken.
 */
export async function takeNonces(tx: EntityManager, sequence: string, sender: SenderReading, count: number): Promise<number> {
  const where = { chain: sequence, address: sender.address };
  const lock = () => tx.findOne(ChainSender, where, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  let row = await lock();
  if (!row) {
    // Two instances meeting a new account at once: one row is made, the other waits for it under the lock.
    await tx
      .createQueryBuilder(ChainSender)
      .insert({ ...where, nextNonce: sender.minedNonce, updatedAt: new Date() })
      .onConflict(['chain', 'address'])
      .ignore()
      .execute();
    row = (await lock())!;
  }
  const first = Math.max(row.nextNonce, sender.minedNonce);
  row.nextNonce = first + count;
  row.updatedAt = new Date();
  await tx.flush();
  return first;
}
