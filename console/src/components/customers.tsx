import { useQuery } from '@urql/preact';
import { useState } from 'preact/hooks';
import { requestError, type ShownError } from '../errors.js';
import { CreateCustomerDocument, type CustomerSummaryFragment, type CustomerType, CustomersDocument } from '../gql/graphql.js';
import { mutate } from '../mutate.js';
import { useRefreshOnEvents, useSession } from '../session.js';
import { ErrorNote, Field, Status, when } from './ui.js';

const PAGE = 50;

export const customerName = (c: Pick<CustomerSummaryFragment, 'type' | 'companyName' | 'firstName' | 'lastName' | 'email'>) =>
  (c.type === 'CORPORATE' ? c.companyName : [c.firstName, c.lastName].filter(Boolean).join(' ')) || c.email;

export function Customers() {
  const { readOnly } = useSession();
  const [after, setAfter] = useState<string | null>(null);
  const [{ data, fetching, error }, refetch] = useQuery({ query: CustomersDocument, variables: { first: PAGE, after } });
  useRefreshOnEvents(
    (event) => event.entityType === 'CUSTOMER',
    () => refetch({ requestPolicy: 'network-only' }),
  );
  const customers = data?.customers;
  return (
    <>
      <section class="card" aria-labelledby="customers-title">
        <h2 id="customers-title">Customers{customers ? ` (${customers.totalCount})` : ''}</h2>
        {error && <ErrorNote error={requestError(error)} />}
        {fetching && !customers && <p>Loading customers…</p>}
        {customers && customers.totalCount === 0 && (
          <div class="empty">
            <p>
              <strong>No customers yet.</strong> {readOnly ? 'Customers created with this production key will be listed here.' : 'Start here:'}
            </p>
            {!readOnly && (
              <ol>
                <li>create a customer with the form below;</li>
                <li>open it and click “Approve KYC”;</li>
                <li>get an on-ramp quote, create the transfer, then simulate the deposit and the settlement and watch it on the Transfers board.</li>
              </ol>
            )}
          </div>
        )}
        {customers && customers.edges.length > 0 && (
          <table>
            <caption class="visually-hidden">Customers, oldest first</caption>
            <thead>
              <tr>
                <th scope="col">Customer</th>
                <th scope="col">Email</th>
                <th scope="col">Type</th>
                <th scope="col">KYC</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {customers.edges.map(({ node }) => (
                <tr key={node.id} data-customer={node.email}>
                  <td>
                    <a href={`#/customers/${encodeURIComponent(node.id)}`}>{customerName(node)}</a>
                  </td>
                  <td>{node.email}</td>
                  <td>{node.type.toLowerCase()}</td>
                  <td>
                    <Status value={node.kycs.status} />
                  </td>
                  <td>{when(node.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {customers?.pageInfo.hasNextPage && (
          <button type="button" onClick={() => setAfter(customers.pageInfo.endCursor ?? null)}>
            Next {PAGE}
          </button>
        )}
        {after && (
          <button type="button" onClick={() => setAfter(null)}>
            Back to the first page
          </button>
        )}
      </section>
      {!readOnly && <CreateCustomer />}
    </>
  );
}

function CreateCustomer() {
  const { api } = useSession();
  const [type, setType] = useState<CustomerType>('INDIVIDUAL');
  const [error, setError] = useState<ShownError | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const text = (name: string) => (form.get(name) as string | null)?.trim() || undefined;
    setBusy(true);
    const outcome = await mutate(api.client, CreateCustomerDocument, {
      input: { type, email: text('email') ?? '', firstName: text('firstName'), lastName: text('lastName'), companyName: text('companyName') },
    });
    setBusy(false);
    if (!outcome.ok) return setError(outcome.error);
    setError(null);
    location.hash = `#/customers/${encodeURIComponent(outcome.payload.customer.id)}`;
  };

  return (
    <section class="card" aria-labelledby="create-customer-title">
      <h2 id="create-customer-title">Create a customer</h2>
      <form onSubmit={submit} class="grid">
        <Field label="Type">
          <select name="type" value={type} onChange={(e) => setType(e.currentTarget.value as CustomerType)}>
            <option value="INDIVIDUAL">Individual</option>
            <option value="CORPORATE">Corporate</option>
          </select>
        </Field>
        <Field label="Email">
          <input name="email" type="email" required autoComplete="off" />
        </Field>
        {type === 'INDIVIDUAL' ? (
          <>
            <Field label="First name">
              <input name="firstName" autoComplete="off" />
            </Field>
            <Field label="Last name">
              <input name="lastName" autoComplete="off" />
            </Field>
          </>
        ) : (
          <Field label="Company name">
            <input name="companyName" autoComplete="off" />
          </Field>
        )}
        <ErrorNote error={error} />
        <button type="submit" disabled={busy}>
          {busy ? 'Creating…' : 'Create customer'}
        </button>
      </form>
    </section>
  );
}
