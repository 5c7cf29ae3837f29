import { graphql } from 'relay-runtime';

/**
 * Starts an on-ramp from a quote and puts the new transfer at the top of the customer's list
 * (@prependNode: pass the connection's __id from CustomerTransfers_customer as `connections`).
 */
export const startOnramp = graphql`
  mutation StartOnrampMutation($input: CreateOnrampTransferInput!, $connections: [ID!]!) {
    createOnrampTransfer(input: $input) {
      __typename
      ... on CreateOnrampTransferPayload {
        transfer @prependNode(connections: $connections, edgeTypeName: "TransferEdge") {
          id
          status
          amount
        }
      }
      ... on ValidationError {
        fieldErrors {
          path
          code
          message
        }
      }
      ... on Error {
        code
        message
      }
    }
  }
`;
