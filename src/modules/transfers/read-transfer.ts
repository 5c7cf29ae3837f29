import { NotFoundError } from '../../domain/errors.js';
import type { TransferDirection } from '../../domain/transfer-status.js';
import { readRows, rowShape } from '../../platform/plain-rows.js';

import { type Scope, isUuid } from '../../platform/scope.js';
import { Quote, Transfer } from './entities.js';
import type { TransferWithQuote } from './reads.js';

/**
 * REST `GET …/{direction}-transfer/{id}`, the hottest read: the customer, the transfer and its quote
 * in one statement of plain rows (three entity reads cost three round trips and most of the request's
 * CPU in MikroORM). The customer row is read even when the transfer is not there, so an unknown
 * customer is still told apart from an unknown transfer of a known one. Tenancy: the customer is
 * narrowed to the caller's partner and environment; the transfer is that customer's, its quote the
 * transfer's (joined by key).
 */
export async function transferOfCustomer(scope: Scope, customerId: string, direction: TransferDirection, transferId: string): Promise<TransferWithQuote> {
  if (!isUuid(customerId)) throw new NotFoundError('Customer');
  const { em, actor } = scope;
  const t = rowShape(em, Transfer, 't');
  const q = rowShape(em, Quote, 'q');
  const [row] = await readRows(
    em,
    `select ${t.select}, ${q.select} from customers c
     left join transfers t on t.id = ? and t.customer_id = c.id and t.direction = ?
     left join quotes q on q.id = t.quote_id
     where c.id = ? and c.partner_id = ? and c.environment = ?`,
    // A malformed transfer id matches no row (null never equals), which reads as an unknown transfer.
    [isUuid(transferId) ? transferId : null, direction, customerId, actor.partnerId, actor.environment],
  );
  if (!row) throw new NotFoundError('Customer');
  const transfer = t.read(row);
  const quote = q.read(row);
  if (!transfer || !quote) throw new NotFoundError('Transfer');
  return { transfer, quote };
}
