import { performance } from 'node:perf_hooks';
import { createRamp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { payoutConfirmationJob } from '../src/modules/transfers/payouts/confirm.js';
import { payoutSenderJob } from '../src/modules/transfers/payouts/send.js';
import { createBenchDatabase } from './database.js';
import { seedCustomer, seedTransfer } from './seed.js';

/**
 * `npm run bench:chain`: the chain leg on the sandbox's local chain (anvil, one block per
 * transaction), Ramp on a PostgreSQL database of its own. Prints payouts per second per sender
 * (signed, stored and broadcast by the payout sender; then followed to `completed` by the
 * confirmation job), deposits detected per second and the latency from a deposit's block to its event.
 *
 * BENCH_PAYOUTS (default 200) funded on-ramps are paid by one sender (polygon's treasury). The
 * chain jobs are driven by the bench (CHAIN_POLL_INTERVAL_MS=0), so the time is theirs alone.
 */
const PAYOUTS = Number(process.env.BENCH_PAYOUTS ?? 200);

async function main() {
  const database = await createBenchDatabase();
  const ramp = await createRamp(
    loadConfig({
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
      SANDBOX_CHAIN: 'local',
      SANDBOX_CHAIN_BLOCK_TIME_SECONDS: '0',
      SANDBOX_CONFIRMATIONS: '3',
      CHAIN_POLL_INTERVAL_MS: '0',
      JOBS_INTERVAL_MS: '0',
      RATE_LIMIT_PER_MINUTE: '0',
    }),
  );
  try {
    const url = await ramp.listen();
    const key = ramp.demoKey!;
    const sql = async (query: string) => Number((await ramp.db.fork().execute<{ n: string }[]>(query))[0]!.n);
    const customer = await seedCustomer(url, key);
    for (let made = 0; made < PAYOUTS; made += 10) {
      await Promise.all(
        Array.from({ length: Math.min(10, PAYOUTS - made) }, async () => {
          const id = await seedTransfer(url, key, customer);
          const res = await fetch(`${url}/v0/customers/${customer}/onramp-transfer/simulate`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ action: 'fiat_deposit', transfer_id: id }),
          });
          if (!res.ok) throw new Error(`fiat deposit refused: ${res.status} ${await res.text()}`);
        }),
      );
    }

    // polygon's sender alone, batch after batch, until every funded on-ramp is signed, stored and broadcast.
    const chain = ramp.rails.liveChains().find((c) => c.network === 'polygon')!;
    const settings = { replaceAfterSeconds: 120, crashAfterSigning: false };
    const sender = payoutSenderJob(chain, settings);
    let start = performance.now();
    while ((await sql(`select count(*) as n from chain_payouts where status <> 'signed'`)) < PAYOUTS) await sender.run(ramp.db.fork());
    const sendSeconds = (performance.now() - start) / 1000;

    // Then the confirmations: enough blocks at once, and polygon's confirmation job completes them all.
    const confirmation = payoutConfirmationJob(chain, settings);
    await fetch(ramp.rails.sandboxChain!.rpcUrl, rpc('anvil_mine', [`0x${chain.requiredConfirmations.toString(16)}`]));
    start = performance.now();
    while ((await sql(`select count(*) as n from transfers where direction = 'onramp' and status = 'completed'`)) < PAYOUTS)
      await confirmation.run(ramp.db.fork());
    const confirmSeconds = (performance.now() - start) / 1000;

    const rows: [string, string][] = [
      ['payouts signed, stored and broadcast / s (one sender)', (PAYOUTS / sendSeconds).toFixed(1)],
      ['payouts followed to completed / s (one sender)', (PAYOUTS / confirmSeconds).toFixed(1)],
      ['deposits detected / s', 'n/a (watcher not on this branch)'],
      ['block → deposit event latency', 'n/a (watcher not on this branch)'],
    ];
    print(`\nchain leg, ${PAYOUTS} on-ramp payouts on the local chain (anvil, a block per transaction), PostgreSQL\n`);
    for (const [what, figure] of rows) print(`  ${what.padEnd(56)} ${figure}`);
  } finally {
    await ramp.close();
    await database.drop();
  }
}

const print = (line: string) => process.stdout.write(`${line}\n`);

const rpc = (method: string, params: unknown[]) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
});

await main();
