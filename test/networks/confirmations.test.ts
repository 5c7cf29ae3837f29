import { describe, expect, it } from 'vitest';
import { ibanAccount, idempotencyKey, offrampQuoteBody, onrampQuoteBody, useTransferFixture, wallet } from '../support/data/transfers.js';

/**
 * A transfer shows its chain leg's progress: confirmations of its chain transaction (an off-ramp's
 * deposit, an on-ramp's payout) and the count it waits for. The chain watcher and payout sender write
 * them on live networks; here the columns are set directly, so the read layers are shown to carry them.
 */
describe('confirmations and requiredConfirmations on transfers', () => {
  const f = useTransferFixture();

  async function openBoth() {
    const onQuote = await f.api.post(`/v0/customers/${f.customerId}/onramp-transfer/quote`, onrampQuoteBody());
    const onramp = await f.api.post(`/v0/customers/${f.customerId}/onramp-transfer/quote/${onQuote.body.quote_id}`, {
      destination_address: wallet(),
    });
    const offQuote = await f.api.post(
      `/v0/customers/${f.customerId}/offramp-transfer/quote`,
      offrampQuoteBody({ destination_bank_account: ibanAccount(), transfer_purpose: 'family' }),
      idempotencyKey(),
    );
    return { onramp: onramp.body, offramp: offQuote.body.transfer };
  }

  const TRANSFER = `query ($id: ID!) { transfer(id: $id) { __typename confirmations requiredConfirmations
    ... on OfframpTransfer { depositTransactionHash } ... on OnrampTransfer { destinationTransactionHash } } }`;

  it('are null on a simulated network, in REST and GraphQL', async () => {
    const { onramp, offramp } = await openBoth();
    expect(onramp).toMatchObject({ confirmations: null, required_confirmations: null });
    expect(offramp).toMatchObject({ confirmations: null, required_confirmations: null });
    const read = await f.api.get(`/v0/customers/${f.customerId}/offramp-transfer/${offramp.id}`);
    expect(read.body).toMatchObject({ confirmations: null, required_confirmations: null });
    const res = await f.api.graphql(TRANSFER, { id: onramp.id });
    expect(res.body.data.transfer).toMatchObject({ __typename: 'OnrampTransfer', confirmations: null, requiredConfirmations: null });
  });

  it('show what the chain leg recorded, in a single read, a list and a GraphQL page alike', async () => {
    const { onramp, offramp } = await openBoth();
    await f.t.sql('update transfers set confirmations = 2, required_confirmations = 12 where id = ?', [offramp.id]);
    await f.t.sql('update transfers set confirmations = 0, required_confirmations = 3 where id = ?', [onramp.id]);

    const read = await f.api.get(`/v0/customers/${f.customerId}/offramp-transfer/${offramp.id}`);
    expect(read.body).toMatchObject({ confirmations: 2, required_confirmations: 12 });
    const list = await f.api.get(`/v0/customers/${f.customerId}/onramp-transfer`);
    expect(list.body.items.find((i: { id: string }) => i.id === onramp.id)).toMatchObject({ confirmations: 0, required_confirmations: 3 });

    expect((await f.api.graphql(TRANSFER, { id: offramp.id })).body.data.transfer).toMatchObject({
      __typename: 'OfframpTransfer',
      confirmations: 2,
      requiredConfirmations: 12,
    });
    // A page selects only the columns its fields read: these two must be among them.
    const page = await f.api.graphql('{ transfers(first: 100) { edges { node { databaseId confirmations requiredConfirmations } } } }');
    const nodes = page.body.data.transfers.edges.map((e: { node: unknown }) => e.node) as {
      databaseId: string;
      confirmations: number | null;
      requiredConfirmations: number | null;
    }[];
    expect(nodes.find((n) => n.databaseId === offramp.id)).toMatchObject({ confirmations: 2, requiredConfirmations: 12 });
    expect(nodes.find((n) => n.databaseId === onramp.id)).toMatchObject({ confirmations: 0, requiredConfirmations: 3 });
  });
});
