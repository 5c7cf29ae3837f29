import { graphql } from 'relay-runtime';

/** The page's query: the customer's card at once, the transfers after it. */
export const customerPage = graphql`
  query CustomerPageQuery($id: ID!) {
    customer(id: $id) {
      ...CustomerDetails_customer
      ...CustomerTransfers_customer @defer(label: "transfers")
    }
  }
`;
