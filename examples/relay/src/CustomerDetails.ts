import { graphql } from 'relay-runtime';

/** A customer's card, refetched on its own: Relay generates CustomerDetailsRefetchQuery over node(id:). */
export const customerDetails = graphql`
  fragment CustomerDetails_customer on Customer @refetchable(queryName: "CustomerDetailsRefetchQuery") {
    id
    databaseId
    email
    type
    kycs {
      status
    }
  }
`;
