import { graphql } from 'relay-runtime';

/**
 * A customer's transfers, a page at a time (usePaginationFragment): Relay keeps the pages in one
 * connection, keyed below, which StartOnrampMutation prepends a new transfer to. Each transfer's status
 * history comes after the page (@defer on a spread: Relay defers fragment spreads only): it is the slow part.
 */
export const customerTransfers = graphql`
  fragment CustomerTransfers_customer on Customer
  @argumentDefinitions(count: { type: "Int", defaultValue: 10 }, cursor: { type: "String" })
  @refetchable(queryName: "CustomerTransfersPaginationQuery") {
    transfers(first: $count, after: $cursor) @connection(key: "CustomerTransfers_transfers") {
      __id
      edges {
        node {
          id
          status
          amount
          ... on OnrampTransfer {
            destinationToken
            destinationNetwork
          }
          ...TransferHistory_transfer @defer(label: "history")
        }
      }
    }
  }
`;
