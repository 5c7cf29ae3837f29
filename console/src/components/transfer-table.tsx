import type { TransferDetailFragment, TransferRowFragment } from '../gql/graphql.js';
import { ChainProgress } from './chain-progress.js';
import { TransferActions } from './transfer-actions.js';
import { TransferDetail } from './transfer-detail.js';
import { Status, shortId, when } from './ui.js';

export type TransferView = TransferRowFragment & Partial<TransferDetailFragment>;

/** Every list of transfers reads newest first, the board's and a customer's alike. */
export const newestFirst = <T extends Pick<TransferView, 'createdAt'>>(transfers: readonly T[]): T[] =>
  [...transfers].sort((a, b) => b.createdAt.localeCompare(a.createdAt));

/** Transfers as rows: status in words, both amounts, the sandbox buttons and (when loaded) history and postings. */
export function TransferTable({ transfers, showCustomer = false }: { transfers: readonly TransferView[]; showCustomer?: boolean }) {
  return (
    <table class="transfers">
      <thead>
        <tr>
          <th scope="col">Transfer</th>
          {showCustomer && <th scope="col">Customer</th>}
          <th scope="col">Status</th>
          <th scope="col" class="number">
            Pays
          </th>
          <th scope="col" class="number">
            Receives
          </th>
          <th scope="col">Updated</th>
          <th scope="col">Actions and details</th>
        </tr>
      </thead>
      <tbody>
        {transfers.map((transfer) => (
          <tr key={transfer.id} data-transfer={transfer.databaseId} data-status={transfer.status}>
            <td>
              {transfer.direction === 'ONRAMP' ? 'On-ramp' : 'Off-ramp'} <code title={transfer.databaseId}>{shortId(transfer.databaseId)}</code>
              {transfer.__typename === 'OnrampTransfer' && transfer.depositMessage && <div class="muted">ref {transfer.depositMessage}</div>}
            </td>
            {showCustomer && (
              <td>
                <a href={`#/customers/${encodeURIComponent(transfer.customer.id)}`}>{transfer.customer.email}</a>
              </td>
            )}
            <td class="status-cell">
              <Status value={transfer.status} />
              {transfer.failureReason && <div class="muted">{transfer.failureReason}</div>}
              <ChainProgress transfer={transfer} />
            </td>
            <td class="number">
              {transfer.amount} {transfer.quote.sourceCurrency}
            </td>
            <td class="number">
              {transfer.destinationAmount} {transfer.quote.destinationCurrency}
            </td>
            <td>{when(transfer.updatedAt)}</td>
            <td>
              <TransferActions transfer={transfer} />
              {transfer.statusHistory && transfer.postings && (
                <TransferDetail transfer={{ statusHistory: transfer.statusHistory, postings: transfer.postings }} />
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
