import { useQuery } from '@urql/preact';
import { useState } from 'preact/hooks';
import { requestError, type ShownError } from '../errors.js';
import { CustomerPageDocument, type KycDecision, SimulateKycDecisionDocument } from '../gql/graphql.js';
import { mutate } from '../mutate.js';
import { useRefreshOnEvents, useSession } from '../session.js';
import { customerName } from './customers.js';
import { OnrampForm } from './onramp-form.js';
import { newestFirst, TransferTable } from './transfer-table.js';
import { ErrorNote, Status, when } from './ui.js';
import { VirtualAccounts } from './virtual-accounts.js';

export function CustomerPage({ id }: { id: string }) {
  const [{ data, fetching, error }, refetch] = useQuery({ query: CustomerPageDocument, variables: { id } });
  const customer = data?.customer;
  // Anything about this customer (its KYC, accounts, transfers) shows here as soon as it happens.
  useRefreshOnEvents(
    (event) => event.entityType !== 'CUSTOMER' || event.entityId === customer?.databaseId,
    () => refetch({ requestPolicy: 'network-only' }),
  );

  if (error) return <ErrorNote error={requestError(error)} />;
  if (fetching && !data) return <p>Loading the customer…</p>;
  if (!customer) {
    return (
      <section class="card">
        <h2>No such customer</h2>
        <p>
          No customer of yours has this id in this environment. <a href="#/">Back to the customers list</a>.
        </p>
      </section>
    );
  }
  return (
    <>
      <section class="card" aria-labelledby="customer-title">
        <p>
          <a href="#/">← Customers</a>
        </p>
        <h2 id="customer-title">{customerName(customer)}</h2>
        <dl class="facts">
          <dt>Email</dt>
          <dd>{customer.email}</dd>
          <dt>Type</dt>
          <dd>{customer.type.toLowerCase()}</dd>
          <dt>KYC</dt>
          <dd data-kyc-status={customer.kycs.status}>
            <Status value={customer.kycs.status} />
          </dd>
          {customer.kycs.kycFlowLink && (
            <>
              <dt>Verification page</dt>
              <dd>
                <a href={customer.kycs.kycFlowLink} target="_blank" rel="noopener noreferrer">
                  Open the hosted KYC page (the applicant’s view; opens in a new tab)
                </a>
              </dd>
            </>
          )}
          <dt>REST id</dt>
          <dd>
            <code>{customer.databaseId}</code>
          </dd>
          <dt>Created</dt>
          <dd>{when(customer.createdAt)}</dd>
        </dl>
        <KycActions customerId={customer.id} status={customer.kycs.status} />
      </section>
      <OnrampForm customerId={customer.id} kycApproved={customer.kycs.status === 'APPROVED'} />
      <section class="card" aria-labelledby="transfers-title">
        <h2 id="transfers-title">Transfers ({customer.transfers?.totalCount ?? 0})</h2>
        {!customer.transfers?.totalCount ? (
          <p class="empty">No transfers yet: get an on-ramp quote above and create the transfer from it.</p>
        ) : (
          <TransferTable transfers={newestFirst(customer.transfers.edges.map((edge) => edge.node))} />
        )}
      </section>
      <VirtualAccounts customerId={customer.id} accounts={customer.virtualAccounts?.edges.map((edge) => edge.node) ?? []} />
      <section class="card" aria-labelledby="bank-accounts-title">
        <h2 id="bank-accounts-title">External bank accounts ({customer.bankAccounts?.totalCount ?? 0})</h2>
        {!customer.bankAccounts?.totalCount ? (
          <p class="empty">
            None yet. Off-ramp payouts go to these; add one with the addBankAccount mutation or POST /v0/customers/{'{id}'}/external-accounts.
          </p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Bank</th>
                <th scope="col">Type</th>
                <th scope="col">Account</th>
                <th scope="col">Holder</th>
                <th scope="col">Added</th>
              </tr>
            </thead>
            <tbody>
              {customer.bankAccounts.edges.map(({ node }) => (
                <tr key={node.id}>
                  <td>{node.bankName}</td>
                  <td>{node.accountType}</td>
                  <td>{node.accountNumberMasked}</td>
                  <td>{node.accountHolderType.toLowerCase()}</td>
                  <td>{when(node.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}

function KycActions({ customerId, status }: { customerId: string; status: string }) {
  const { api, readOnly } = useSession();
  const [error, setError] = useState<ShownError | null>(null);
  const [busy, setBusy] = useState(false);
  if (readOnly) return null;
  const decide = async (decision: KycDecision) => {
    setBusy(true);
    const outcome = await mutate(api.client, SimulateKycDecisionDocument, { input: { customerId, decision } });
    setBusy(false);
    setError(outcome.ok ? null : outcome.error);
  };
  const decided = status === 'APPROVED' || status === 'REJECTED';
  return (
    <fieldset class="actions">
      <legend class="visually-hidden">Sandbox KYC decision</legend>
      <button type="button" disabled={busy || decided} onClick={() => void decide('APPROVED')}>
        Approve KYC
      </button>
      <button type="button" disabled={busy || decided} onClick={() => void decide('REJECTED')}>
        Reject KYC
      </button>
      {decided && <span class="muted">KYC is decided; a decision is final.</span>}
      <ErrorNote error={error} />
    </fieldset>
  );
}
