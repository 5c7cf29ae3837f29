/**
 * Every GraphQL document the bench sends, in one place: when the schema changes (Relay global ids,
 * SCREAMING_SNAKE enum values, mutation payload types), these are the lines to adjust. They select
 * only fields that survive that change.
 */

/** P1: one transfer by id. */
export const TRANSFER_BY_ID = `query Transfer($id: ID!) {
  transfer(id: $id) { id status createdAt amount destinationAmount }
}`;

/** P2: a page of 100 transfers with each one's customer and quote, and a cursor on every edge as Relay asks. */
export const TRANSFERS_PAGE = `query Transfers {
  transfers(first: 100) {
    edges { cursor node { id status createdAt customer { id email } quote { id sourceAmount destinationAmount exchangeRate } } }
  }
}`;

/**
 * P2 baseline: the same page from PostGraphile V5 (its default inflection on the same tables),
 * with the same relations. A customer's email is sealed in `personal` (with its data key): PostGraphile
 * reads that column as stored, and cannot open it, so it does less than Ramp, which shows the email.
 */
export const POSTGRAPHILE_TRANSFERS_PAGE = `query Transfers($partnerId: UUID!) {
  allTransfers(first: 100, orderBy: [CREATED_AT_ASC, PRIMARY_KEY_ASC], condition: { partnerId: $partnerId, environment: "sandbox" }) {
    edges { cursor node { id status createdAt customerByCustomerId { id personal } quoteByQuoteId { id sourceAmount destinationAmount exchangeRate } } }
  }
}`;

/** How a P2 answer is checked: a full page came back (from either server). */
export const pageSize = (body: unknown): number => {
  const data = (body as { data?: Record<string, { edges?: unknown[] }> }).data ?? {};
  return (data.transfers ?? data.allTransfers)?.edges?.length ?? 0;
};
