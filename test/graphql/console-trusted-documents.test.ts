import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleOperation, consoleOperations, documentIdOf, onlyTrustedDocuments } from '../support/clients/console-documents.js';
import { startRamp, type TestRamp } from '../support/ramp.js';
import { wsClient } from '../support/clients/subscriptions.js';
import { startReceiver, waitFor } from '../support/clients/webhook-receiver.js';

const WALLET = '0x9AD0BAD1900a8a37f840c197B961847A3a32f0c9';
const persistedQuery = (documentId: string) => ({ persistedQuery: { version: 1, sha256Hash: documentId.replace(/^sha256:/, '') } });

let operations: ConsoleOperation[];
beforeAll(async () => {
  operations = await consoleOperations();
}, 120_000);

/** Sends the console's operations by their hashes alone, and keeps which of them ran. */
function consoleClient(t: TestRamp, key: string) {
  const ran = new Set<string>();
  const operation = (name: string) => {
    const found = operations.find((o) => o.name === name);
    if (!found) throw new Error(`the console's build registered no operation ${name}`);
    return found;
  };
  return {
    ran,
    operation,
    /** Runs an operation by hash: it must answer 200 without errors, and a mutation with its payload (not a typed error). */
    async run(name: string, variables: Record<string, unknown> = {}) {
      const { documentId, kind } = operation(name);
      const res = await t.client(key).request('POST', '/graphql', { body: { documentId, variables } });
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body.errors, name).toBeUndefined();
      if (kind === 'mutation') expect(Object.values(res.body.data as Record<string, { __typename: string }>)[0]!.__typename, name).toMatch(/Payload$/);
      ran.add(name);
      return res.body.data as any;
    },
  };
}

describe('the console with only trusted documents allowed (GRAPHQL_TRUSTED_DOCUMENTS, an empty manifest of the operator)', () => {
  let t: TestRamp;
  beforeAll(async () => {
    t = await startRamp(onlyTrustedDocuments());
  });
  afterAll(() => t?.close());

  it("runs every operation of the console's manifest by hash alone, each without errors: the console works whole", async () => {
    const api = consoleClient(t, t.key);
    await api.run('ConsolePartner');
    await api.run('Customers', { first: 10 });
    const customerId = (
      await api.run('CreateCustomer', { input: { type: 'INDIVIDUAL', email: 'trusted-console@example.com', firstName: 'Ada', lastName: 'Hash' } })
    ).createCustomer.customer.id;
    await api.run('SimulateKycDecision', { input: { customerId, decision: 'APPROVED' } });
    await api.run('CustomerPage', { id: customerId });

    // The live feed, over graphql-ws by hash too: it carries what happens next.
    const socket = wsClient(t.url, t.key);
    const events: string[] = [];
    const errors: unknown[] = [];
    const stop = socket.subscribe<{ events: { type: string } }>(
      { query: '', variables: { after: null }, extensions: persistedQuery(api.operation('LiveEvents').documentId) },
      {
        next: (result) => (result.errors ? errors.push(result.errors) : events.push(result.data!.events.type)),
        error: (e) => errors.push(e),
        complete: () => {},
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 500));

    const onramp = async () => {
      const quote = await api.run('CreateOnrampQuote', {
        input: { customerId, sourceAmount: '25.00', sourceCurrency: 'USD', sourcePaymentRails: 'ACH', destinationToken: 'USDC', destinationNetwork: 'POLYGON' },
      });
      return (await api.run('CreateOnrampTransfer', { input: { quoteId: quote.createOnrampQuote.quote.id, destinationAddress: WALLET } })).createOnrampTransfer
        .transfer.id as string;
    };
    const settled = await onramp();
    await waitFor(() => events.includes('ONRAMP_TRANSFER_CREATED'), 10_000, 'the live feed');
    stop();
    await socket.dispose();
    expect(errors).toEqual([]);
    api.ran.add('LiveEvents');

    await api.run('TransferById', { id: settled });
    await api.run('TransferChainProgress', { id: settled });
    await api.run('SimulateFiatDeposit', { input: { transferId: settled } });
    await api.run('SimulateTransferSettlement', { input: { transferId: settled } });
    const refunded = await onramp();
    await api.run('SimulateFiatDeposit', { input: { transferId: refunded } });
    await api.run('SimulateTransferFailure', { input: { transferId: refunded } });
    await api.run('SimulateTransferRefund', { input: { transferId: refunded } });
    await api.run('Transfers', { last: 10 });
    await api.run('TransferVolume', { createdAfter: new Date(Date.now() - 7 * 86_400_000).toISOString() });
    await api.run('LatestEvents', { last: 10 });

    const account = await api.run('CreateVirtualAccount', {
      input: { customerId, sourceCurrency: 'AED', destinationNetwork: 'POLYGON', destinationAddress: WALLET }, // AED opens pending, then issued
    });
    const virtualAccountId = account.createVirtualAccount.virtualAccount.id;
    await api.run('SimulateVirtualAccountIssuance', { input: { virtualAccountId } });
    await api.run('SimulateVirtualAccountDeposit', { input: { virtualAccountId, amount: '10.00' } });

    const receiver = await startReceiver();
    try {
      const endpointId = (await api.run('RegisterWebhook', { input: { url: receiver.url } })).registerWebhook.webhookEndpoint.id;
      await api.run('WebhookEndpoints');
      // An event the endpoint is sent, which the console can then redeliver.
      await api.run('CreateCustomer', { input: { type: 'INDIVIDUAL', email: 'trusted-console-2@example.com', firstName: 'Ada', lastName: 'Again' } });
      const deliveries = await waitFor(async () => {
        const listed = await api.run('WebhookDeliveries', { endpointId });
        return listed.webhookDeliveries.edges.length ? listed.webhookDeliveries.edges : null;
      });
      await api.run('RedeliverEvent', { input: { endpointId, eventId: deliveries[0].node.eventId } });
    } finally {
      await receiver.close();
    }

    // Nothing the console sends was left out of this walk.
    expect([...api.ran].sort()).toEqual(operations.map((o) => o.name).sort());
  });

  it('refuses anything else before it runs, with a stable code: a document sent whole, a hash of no registered document', async () => {
    const api = t.client(t.key);
    const whole = await api.request('POST', '/graphql', { body: { query: operations.find((o) => o.name === 'ConsolePartner')!.document } });
    expect(whole.status).toBe(400);
    expect(whole.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_ONLY');
    const unknown = await api.request('POST', '/graphql', { body: { documentId: documentIdOf('{ partner { id } }') } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_IN_LIST');
    const socket = wsClient(t.url, t.key);
    const refusal = await new Promise<unknown>((resolve) => {
      socket.subscribe({ query: 'subscription { events { type } }' }, { next: () => undefined, error: resolve, complete: () => resolve(null) });
    });
    await socket.dispose();
    expect(JSON.stringify(refusal)).toContain('PERSISTED_QUERY_ID_REQUIRED');
  });
});

describe('the console without trusted documents required (the default)', () => {
  let t: TestRamp;
  beforeAll(async () => {
    t = await startRamp();
  });
  afterAll(() => t?.close());

  it("runs the console's operations by hash, and any other document sent whole", async () => {
    await consoleClient(t, t.key).run('ConsolePartner');
    const api = t.client(t.key);
    const whole = await api.graphql('{ partner { name } }');
    expect(whole.status).toBe(200);
    expect(whole.body.data.partner.name).toBeTruthy();
    const unknown = await api.request('POST', '/graphql', { body: { documentId: documentIdOf('{ partner { id } }') } });
    expect(unknown.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_IN_LIST');
  });
});
