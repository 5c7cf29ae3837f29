import { useQuery } from '@urql/preact';
import { useMemo, useState } from 'preact/hooks';
import { requestError, type ShownError } from '../errors.js';
import { RedeliverEventDocument, RegisterWebhookDocument, WebhookDeliveriesDocument, WebhookEndpointsDocument } from '../gql/graphql.js';
import { mutate } from '../mutate.js';
import { useRefreshOnEvents, useSession } from '../session.js';
import { ErrorNote, Field, Status, when } from './ui.js';

export function Webhooks() {
  const { readOnly } = useSession();
  // Listed again after a registration even when the list was empty (no WebhookEndpoint in it to match).
  const context = useMemo(() => ({ additionalTypenames: ['WebhookEndpoint'] }), []);
  const [{ data, error, fetching }] = useQuery({ query: WebhookEndpointsDocument, context });
  const endpoints = data?.webhookEndpoints;
  return (
    <>
      <section class="card" aria-labelledby="webhooks-title">
        <h2 id="webhooks-title">Webhook endpoints{endpoints ? ` (${endpoints.totalCount})` : ''}</h2>
        {error && <ErrorNote error={requestError(error)} />}
        {fetching && !endpoints && <p>Loading webhooks…</p>}
        {endpoints?.totalCount === 0 && (
          <p class="empty">
            No webhooks yet. {readOnly ? '' : 'Register your receiver’s URL below: every event is then POSTed to it, signed (Standard Webhooks).'}
          </p>
        )}
        {endpoints?.edges.map(({ node }) => (
          <article key={node.id} class="endpoint" aria-label={`Webhook ${node.url}`}>
            <h3>
              <code>{node.url}</code> <Status value={node.status} />
              {node.disabledReason && <span class="muted"> ({node.disabledReason.toLowerCase().replace(/_/g, ' ')})</span>}
            </h3>
            <details>
              <summary>Deliveries</summary>
              <Deliveries endpointId={node.id} />
            </details>
          </article>
        ))}
      </section>
      {!readOnly && <RegisterWebhook />}
    </>
  );
}

function Deliveries({ endpointId }: { endpointId: string }) {
  const { api, readOnly } = useSession();
  const [{ data, error }, refetch] = useQuery({ query: WebhookDeliveriesDocument, variables: { endpointId } });
  const [actionError, setActionError] = useState<ShownError | null>(null);
  // A new event makes a new delivery: show it without polling. An attempt's outcome is no event:
  // "Refresh deliveries" reads them again.
  useRefreshOnEvents(
    () => true,
    () => refetch({ requestPolicy: 'network-only' }),
  );
  if (error) return <ErrorNote error={requestError(error)} />;
  if (!data) return <p>Loading deliveries…</p>;
  const deliveries = (data.webhookDeliveries?.edges ?? []).map((edge) => edge.node).reverse();
  if (deliveries.length === 0) {
    return (
      <p class="empty">
        No deliveries yet: they start with the next event.{' '}
        <button type="button" class="secondary" onClick={() => refetch({ requestPolicy: 'network-only' })}>
          Refresh deliveries
        </button>
      </p>
    );
  }

  const redeliver = async (eventId: string) => {
    const outcome = await mutate(api.client, RedeliverEventDocument, { input: { endpointId, eventId } });
    setActionError(outcome.ok ? null : outcome.error);
    if (outcome.ok) refetch({ requestPolicy: 'network-only' });
  };
  return (
    <>
      <ErrorNote error={actionError} />
      <button type="button" class="secondary" onClick={() => refetch({ requestPolicy: 'network-only' })}>
        Refresh deliveries
      </button>
      <table>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col">Last answer</th>
            <th scope="col">Created</th>
            {!readOnly && <th scope="col">Action</th>}
          </tr>
        </thead>
        <tbody>
          {deliveries.map((delivery) => (
            <tr key={delivery.id}>
              <td>
                <code>{delivery.eventType}</code>
                {delivery.redelivery && <div class="muted">redelivery</div>}
              </td>
              <td>
                <Status value={delivery.status} />
                {delivery.nextAttemptAt && <div class="muted">next try {when(delivery.nextAttemptAt)}</div>}
              </td>
              <td>
                <ol class="attempts">
                  {delivery.attempts.map((attempt) => (
                    <li key={attempt.number}>
                      {attempt.statusCode ?? 'no answer'}
                      {attempt.latencyMs !== null && attempt.latencyMs !== undefined ? ` in ${attempt.latencyMs} ms` : ''}
                      {attempt.error ? ` — ${attempt.error}` : ''}
                    </li>
                  ))}
                </ol>
              </td>
              <td>{delivery.lastStatusCode ?? delivery.lastError ?? '—'}</td>
              <td>{when(delivery.createdAt)}</td>
              {!readOnly && (
                <td>
                  <button type="button" onClick={() => void redeliver(delivery.eventId)}>
                    Redeliver
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function RegisterWebhook() {
  const { api } = useSession();
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    const outcome = await mutate(api.client, RegisterWebhookDocument, { input: { url } });
    setError(outcome.ok ? null : outcome.error);
    setSecret(outcome.ok ? outcome.payload.secret : null);
    if (outcome.ok) setUrl('');
  };
  return (
    <section class="card" aria-labelledby="register-webhook-title">
      <h2 id="register-webhook-title">Register a webhook</h2>
      <form onSubmit={submit} class="grid">
        <Field label="Receiver URL" hint="Where Ramp POSTs events, e.g. http://localhost:3001/webhooks in the sandbox.">
          <input type="url" value={url} onInput={(e) => setUrl(e.currentTarget.value)} required />
        </Field>
        <button type="submit">Register</button>
      </form>
      <ErrorNote error={error} />
      {secret && (
        <p class="success" role="status">
          Signing secret (shown once, store it now): <code>{secret}</code>
        </p>
      )}
    </section>
  );
}
