import createClient from 'openapi-fetch';
import type { components, paths } from './generated/schema.js';

/**
 * What a legacy partner gets from Ramp's openapi.json with two small libraries: `openapi-typescript`
 * turns the document into types (`npm run openapi:client` writes generated/schema.d.ts) and
 * `openapi-fetch` makes every call typed by them — paths, parameters, bodies and answers. No
 * hand-written types: change the contract and this file stops compiling.
 */
export type RampClient = ReturnType<typeof rampClient>;
export type OnrampTransfer = components['schemas']['OnrampTransfer'];

export const rampClient = (baseUrl: string, apiKey: string) => createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${apiKey}` } });

/** Fails with the API's own problem (its `code`) when a call does not answer as expected. */
function expectOk<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined) throw new Error(`${result.response.status}: ${JSON.stringify(result.error)}`);
  return result.data;
}

/**
 * The on-ramp in the sandbox, end to end: a customer, its KYC approved, a quote, the transfer to a
 * wallet, the fiat deposit and the payout, read back at the end.
 */
export async function onrampFlow(ramp: RampClient, input: { email: string; walletAddress: string; idempotencyKey: string }): Promise<OnrampTransfer> {
  const customer = expectOk(
    await ramp.POST('/v0/customers', {
      params: { header: { 'Idempotency-Key': `"${input.idempotencyKey}"` } },
      body: { email: input.email, type: 'individual', first_name: 'Grace', last_name: 'Hopper' },
    }),
  );
  const path = { customer_id: customer.customer_id };
  expectOk(await ramp.POST('/v0/customers/{customer_id}/kycs/simulate', { params: { path }, body: { action: 'approve_kyc' } }));

  const quote = expectOk(
    await ramp.POST('/v0/customers/{customer_id}/onramp-transfer/quote', {
      params: { path },
      body: { source_amount: '100.00', source_currency: 'eur', source_payment_rails: 'sepa', destination_token: 'usdc', destination_network: 'polygon' },
    }),
  );
  const transfer = expectOk(
    await ramp.POST('/v0/customers/{customer_id}/onramp-transfer/quote/{quote_id}', {
      params: { path: { ...path, quote_id: quote.quote_id } },
      body: { destination_address: input.walletAddress },
    }),
  );
  const simulate = (action: 'fiat_deposit' | 'complete_transfer') =>
    ramp.POST('/v0/customers/{customer_id}/onramp-transfer/simulate', { params: { path }, body: { action, transfer_id: transfer.id } });
  expectOk(await simulate('fiat_deposit'));
  expectOk(await simulate('complete_transfer'));

  const read = expectOk(
    await ramp.GET('/v0/customers/{customer_id}/onramp-transfer/{transfer_id}', { params: { path: { ...path, transfer_id: transfer.id } } }),
  );
  // Lists are typed too: `has_more` tells whether to ask for the next page.
  const page = expectOk(await ramp.GET('/v0/customers/{customer_id}/onramp-transfer', { params: { path, query: { limit: 10 } } }));
  if (page.has_more || !page.items.some((item) => item.id === read.id)) throw new Error('the transfer is missing from its customer’s list');
  return read as OnrampTransfer;
}
