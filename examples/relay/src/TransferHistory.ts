import { graphql } from 'relay-runtime';

/** Every status a transfer went through, and its ledger postings: loaded in batches, delivered later. */
export const transferHistory = graphql`
  fragment TransferHistory_transfer on Transfer {
    statusHistory {
      from
      to
      reason
      at
    }
    postings {
      movement
      amount
      currency
    }
  }
`;
