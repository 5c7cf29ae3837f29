import { NotFoundError } from '../../domain/errors.js';
import type { TransferDirection } from '../../domain/transfer-status.js';
import { parseInput } from '../../domain/validation.js';
import { type KeysetPage, OffsetPageQuery, keysetQuery } from '../../platform/pagination.js';
import { type Scope, isUuid, tenantOf } from '../../platform/scope.js';
import type { TransferDeps } from './context.js';
import { Quote, Transfer, TransferStatusChange } from './entities.js';
import { TransferFilterInput } from './inputs.js';
import { lockTransfer, moveTransfer } from './lifecycle.js';
import { offramp } from './offramp.js';
import { onramp } from './onramp.js';
import { quoting } from './quotes.js';
import { simulations } from './simulations.js';

export interface TransferWithQuote {
  transfer: Transfer;
  quote: Quote;
}

/** Quotes, on-ramp and off-ramp transfers, their lifecycle and sandbox settlement (spec §4.4, §4.5). */
export function transferService(deps: TransferDeps) {
  const quotes = quoting(deps);
  const onramps = onramp(deps, quotes);
  const offramps = offramp(deps, quotes);
  const sandbox = simulations(deps, quotes, onramps);

  async function withQuotes({ em, actor }: Scope, transfers: Transfer[]): Promise<TransferWithQuote[]> {
    if (!transfers.length) return [];
    const found = await em.find(Quote, { id: { $in: transfers.map((t) => t.quoteId) }, ...tenantOf(actor) });
    const byId = new Map(found.map((q) => [q.id, q]));
    return transfers.map((transfer) => ({ transfer, quote: byId.get(transfer.quoteId)! }));
  }

  /** One transfer of one customer in one direction, as the REST paths name it; else 404. */
  async function getForCustomer(scope: Scope, customerId: string, direction: TransferDirection, transferId: string): Promise<TransferWithQuote> {
    const customer = await deps.customers.get(scope, customerId);
    const transfer = isUuid(transferId)
      ? await scope.em.findOne(Transfer, { id: transferId, customerId: customer.id, direction, ...tenantOf(scope.actor) })
      : null;
    if (!transfer) throw new NotFoundError('Transfer');
    const [found] = await withQuotes(scope, [transfer]);
    return found!;
  }

  async function get(scope: Scope, id: string): Promise<Transfer> {
    const transfer = isUuid(id) ? await scope.em.findOne(Transfer, { id, ...tenantOf(scope.actor) }) : null;
    if (!transfer) throw new NotFoundError('Transfer');
    return transfer;
  }

  return {
    getForCustomer,
    get,
    withQuotes,

    createOnrampQuote: onramps.createQuote,
    createOnrampTransfer: onramps.createTransfer,
    createOfframpQuote: offramps.createQuote,
    createOfframpTransfer: offramps.createTransfer,
    completeOfframpTransfer: offramps.complete,

    simulateFiatDeposit: sandbox.fiatDeposit,
    simulateSettlement: sandbox.settle,
    simulateFailure: sandbox.fail,
    simulateRefund: sandbox.refund,
    simulateByAction: sandbox.simulateByAction,
    simulateVirtualAccountDeposit: sandbox.virtualAccountDeposit,

    /** The partner calls a pending transfer off: pending → canceled (409 from any other status). */
    async cancel(scope: Scope, transferId: string, within: { customerId?: string; direction?: TransferDirection } = {}): Promise<TransferWithQuote> {
      return scope.em.transactional(async (em) => {
        const moved = await lockTransfer(em, { id: transferId, ...tenantOf(scope.actor), ...within });
        await moveTransfer(em, moved.transfer, moved.quote, 'canceled', 'canceled_by_partner');
        return moved;
      });
    },

    /** `GET …/{direction}-transfer?limit&skip`: newest first; limit 1–100 (20), skip 0–10000. */
    async listForCustomer(scope: Scope, customerId: string, direction: TransferDirection, query: unknown): Promise<TransferWithQuote[]> {
      const { limit, skip } = parseInput(OffsetPageQuery, query ?? {});
      const customer = await deps.customers.get(scope, customerId);
      const transfers = await scope.em.find(
        Transfer,
        { customerId: customer.id, direction, ...tenantOf(scope.actor) },
        { orderBy: { createdAt: 'desc', id: 'desc' }, limit, offset: skip },
      );
      return withQuotes(scope, transfers);
    },

    /** GraphQL `transfers` and `Customer.transfers`: keyset pages, oldest first, with filters. */
    async list({ em, actor }: Scope, filter: unknown, page: KeysetPage): Promise<Transfer[]> {
      const f = parseInput(TransferFilterInput, filter ?? {});
      const { where, orderBy, limit } = keysetQuery(page);
      if (f.customerId !== undefined && !isUuid(f.customerId)) return [];
      const created = {
        ...(f.createdAfter && { $gte: f.createdAfter }),
        ...(f.createdBefore && { $lt: f.createdBefore }),
      };
      return em.find(
        Transfer,
        {
          $and: [
            where,
            {
              ...tenantOf(actor),
              ...(f.customerId && { customerId: f.customerId }),
              ...(f.direction && { direction: f.direction }),
              ...(f.status && { status: f.status }),
              ...(Object.keys(created).length && { createdAt: created }),
            },
          ],
        },
        { orderBy, limit },
      );
    },

    async getQuote(scope: Scope, id: string): Promise<Quote> {
      const quote = isUuid(id) ? await scope.em.findOne(Quote, { id, ...tenantOf(scope.actor) }) : null;
      if (!quote) throw new NotFoundError('Quote');
      return quote;
    },

    // Batch loads for GraphQL dataloaders: one query per kind per request, scoped to the caller.
    loadTransfers: ({ em, actor }: Scope, ids: readonly string[]) => em.find(Transfer, { id: { $in: ids.filter(isUuid) }, ...tenantOf(actor) }),
    loadQuotes: ({ em, actor }: Scope, ids: readonly string[]) => em.find(Quote, { id: { $in: ids.filter(isUuid) }, ...tenantOf(actor) }),
    /** The transfer made from each quote (null while unused). */
    loadTransfersOfQuotes: ({ em, actor }: Scope, quoteIds: readonly string[]) =>
      em.find(Transfer, { quoteId: { $in: quoteIds.filter(isUuid) }, ...tenantOf(actor) }),
    /** Status history of many transfers: only those of the caller's own transfers come back. */
    async loadHistories({ em, actor }: Scope, transferIds: readonly string[]): Promise<TransferStatusChange[]> {
      const ids = transferIds.filter(isUuid);
      if (!ids.length) return [];
      // A plain read of the ids (not entities), so no half-loaded Transfer enters the identity map.
      const owned = await em.execute<{ id: string }[]>(
        `select id from transfers where partner_id = ? and environment = ? and id in (${ids.map(() => '?').join(', ')})`,
        [actor.partnerId, actor.environment, ...ids],
      );
      if (!owned.length) return [];
      return em.find(TransferStatusChange, { transferId: { $in: owned.map((t) => t.id) } }, { orderBy: { id: 'asc' } });
    },
  };
}
export type TransferService = ReturnType<typeof transferService>;
