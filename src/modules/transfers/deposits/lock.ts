import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import { ACROSS_TENANTS, scopeTo } from '../../../platform/tenant.js';
import { Quote, Transfer } from '../entities.js';

/** A deposit's transfer and quote, locked `FOR UPDATE` (whichever tenant: the watcher acts for none). */
export async function lockDepositTransfer(em: EntityManager, transferId: string): Promise<{ transfer: Transfer; quote: Quote }> {
  const transfer = await em.findOneOrFail(Transfer, { id: transferId }, { ...ACROSS_TENANTS, lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  const quote = await em.findOneOrFail(Quote, { id: transfer.quoteId }, ACROSS_TENANTS);
  scopeTo(em, transfer);
  return { transfer, quote };
}
