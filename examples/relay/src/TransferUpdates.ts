import { graphql } from 'relay-runtime';

/**
 * A transfer's updates over graphql-ws (useSubscription): `transfer` is the live object, which Relay's
 * store updates by id; `snapshot` is the history, with an id of its own. Resume with the last `cursor`.
 */
export const transferUpdates = graphql`
  subscription TransferUpdatesSubscription($id: ID!, $after: String) {
    transferUpdated(id: $id, after: $after) {
      cursor
      event
      occurredAt
      transfer {
        id
        status
        confirmations
        requiredConfirmations
      }
    }
  }
`;
