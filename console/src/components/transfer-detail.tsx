import type { TransferDetailFragment } from '../gql/graphql.js';
import { Status, when } from './ui.js';

/** How the transfer got to its status, and what the ledger recorded for it. */
export function TransferDetail({ transfer }: { transfer: TransferDetailFragment }) {
  return (
    <details class="detail">
      <summary>Status history and postings</summary>
      <h4>Status history</h4>
      <ol class="history">
        {transfer.statusHistory.map((change) => (
          <li key={`${change.at}-${change.to}`}>
            {change.from ? <Status value={change.from} /> : 'created'} → <Status value={change.to} /> <span class="muted">{when(change.at)}</span> —{' '}
            {change.reason}
          </li>
        ))}
      </ol>
      <h4>Ledger postings</h4>
      {transfer.postings.length === 0 ? (
        <p class="muted">No postings yet: money moves once the deposit arrives.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Movement</th>
              <th scope="col">Account</th>
              <th scope="col" class="number">
                Amount (debit +, credit −)
              </th>
              <th scope="col">Currency</th>
            </tr>
          </thead>
          <tbody>
            {transfer.postings.map((posting, index) => (
              <tr key={index}>
                <td>{posting.movement.toLowerCase().replace(/_/g, ' ')}</td>
                <td>{posting.account.toLowerCase().replace(/_/g, ' ')}</td>
                <td class="number">{posting.amount}</td>
                <td>{posting.currency}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </details>
  );
}
