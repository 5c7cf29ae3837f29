import { randomUUID } from 'node:crypto';
import { sandboxAddress } from '../src/domain/identifiers/chain.js';

/** What the runs read: customers and their on-ramp transfers, all made through Ramp's REST API. */
export interface Seed {
  transfers: { customerId: string; transferId: string }[];
  customers: string[];
}

export const WALLET = sandboxAddress('polygon', 'bench-wallet');
export const quoteBody = JSON.stringify({
  source_amount: '100.00',
  source_currency: 'eur',
  source_payment_rails: 'sepa',
  destination_token: 'usdc',
  destination_network: 'polygon',
  developer_fee_percent: '1',
});
export const transferBody = JSON.stringify({ destination_address: WALLET });

async function call(url: string, key: string, method: string, path: string, body?: unknown): Promise<Record<string, string>> {
  const res = await fetch(url + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`seed: ${method} ${path} answered ${res.status}: ${text.slice(0, 400)}`);
  return text ? JSON.parse(text) : {};
}

/** A KYC-approved individual customer. */
export async function seedCustomer(url: string, key: string): Promise<string> {
  const created = await call(url, key, 'POST', '/v0/customers', {
    email: `bench-${randomUUID().slice(0, 12)}@example.com`,
    type: 'individual',
    first_name: 'Ada',
    last_name: 'Lovelace',
  });
  const id = created.customer_id as string;
  await call(url, key, 'POST', `/v0/customers/${id}/kycs/simulate`, { action: 'submit_kyc' });
  await call(url, key, 'POST', `/v0/customers/${id}/kycs/simulate`, { action: 'approve_kyc' });
  return id;
}

/** A pending on-ramp transfer: quote, then the transfer from it. */
export async function seedTransfer(url: string, key: string, customerId: string): Promise<string> {
  const quote = await call(url, key, 'POST', `/v0/customers/${customerId}/onramp-transfer/quote`, quoteBody);
  const transfer = await call(url, key, 'POST', `/v0/customers/${customerId}/onramp-transfer/quote/${quote.quote_id}`, transferBody);
  return transfer.id as string;
}

export async function seed(url: string, key: string, options: { customers: number; transfersPerCustomer: number }): Promise<Seed> {
  const customers = await Promise.all(Array.from({ length: options.customers }, () => seedCustomer(url, key)));
  const transfers: Seed['transfers'] = [];
  // A few at a time: quick, and the order of creation (the GraphQL page order) stays mixed across customers.
  for (let round = 0; round < options.transfersPerCustomer; round++) {
    const made = await Promise.all(customers.map(async (customerId) => ({ customerId, transferId: await seedTransfer(url, key, customerId) })));
    transfers.push(...made);
  }
  return { customers, transfers };
}
