/** `BENCH_SQL_LOG=1 npx tsx bench/capture.ts`: starts Ramp, seeds a little, then runs one request of each kind, printing its SQL. */
import { createBenchDatabase } from './database.js';
import { TRANSFER_BY_ID, TRANSFERS_PAGE } from './operations.js';
import { startRampServer } from './processes.js';
import { quoteBody, seed, transferBody } from './seed.js';

const db = await createBenchDatabase();
const ramp = await startRampServer('ramp', { DATABASE_URL: db.url });
try {
  const data = await seed(ramp.url, ramp.key, { customers: 2, transfersPerCustomer: 2 });
  const { customerId, transferId } = data.transfers[0]!;
  const h = { authorization: `Bearer ${ramp.key}` };
  const step = async (name: string, run: () => Promise<Response>) => {
    await new Promise((r) => setTimeout(r, 300));
    const before = await ramp.sqlCount();
    process.stderr.write(`\n=== ${name}\n`);
    const res = await run();
    const text = await res.text();
    await new Promise((r) => setTimeout(r, 300));
    process.stderr.write(`=== ${name}: ${res.status} ${(await ramp.sqlCount()) - before} statements ${text.slice(0, 120)}\n`);
    return text;
  };
  await step('P1 REST', () => fetch(`${ramp.url}/v0/customers/${customerId}/onramp-transfer/${transferId}`, { headers: h }));
  const gql = (query: string, variables = {}) =>
    fetch(`${ramp.url}/graphql`, { method: 'POST', headers: { ...h, 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
  await step('P1 GraphQL', () => gql(TRANSFER_BY_ID, { id: transferId }));
  await step('P2 GraphQL', () => gql(TRANSFERS_PAGE));
  const quote = JSON.parse(
    await step('P5 quote', () =>
      fetch(`${ramp.url}/v0/customers/${customerId}/onramp-transfer/quote`, {
        method: 'POST',
        headers: { ...h, 'content-type': 'application/json' },
        body: quoteBody,
      }),
    ),
  );
  await step('P5 transfer', () =>
    fetch(`${ramp.url}/v0/customers/${customerId}/onramp-transfer/quote/${quote.quote_id}`, {
      method: 'POST',
      headers: { ...h, 'content-type': 'application/json' },
      body: transferBody,
    }),
  );
} finally {
  await ramp.stop();
  await db.drop();
}
