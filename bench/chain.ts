import { performance } from 'node:perf_hooks';
import { createRamp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { randomUUID } from 'node:crypto';
import { depositWatcher } from '../src/modules/custody/deposits/watcher.js';
import { depositCalls } from '../src/modules/transfers/calls/deposit.js';
import { payoutConfirmationJob } from '../src/modules/custody/payouts/confirm.js';
import { payoutSenderJob } from '../src/modules/custody/payouts/send.js';
import { payoutCalls } from '../src/modules/transfers/calls/payout.js';
import { createBenchDatabase } from './database.js';
import { seedCustomer, seedTransfer } from './seed.js';

/**
 * `npm run bench:chain`: the chain leg on the sandbox's local chain (anvil, one block per
 * transaction), Ramp on a PostgreSQL database of its own. Prints payouts per second per sender
 * (signed, stored and broadcast by the payout sender; then followed to `completed` by the
 * confirmation job), deposits detected per second (real token transfers found by the watcher) and the latency
 * from a deposit's block to its event.
 *
 * BENCH_PAYOUTS (default 200) funded on-ramps are paid by one sender (polygon's treasury). The
 * chain jobs are driven by the bench (CHAIN_POLL_INTERVAL_MS=0), so the time is theirs alone.
 */
const PAYOUTS = Number(process.env.BENCH_PAYOUTS ?? 200);
/** BENCH_DEPOSITS (default 100) off-ramp deposits, sent for real from customer wallets, then found by polygon's watcher. */
const DEPOSITS = Number(process.env.BENCH_DEPOSITS ?? 100);
/** Deposits timed one by one from their block to their event, with the watcher polling back to back. */
const LATENCY_SAMPLES = 20;

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
    const settings = { replaceAfterSeconds: 120, feeCeilingWei: 1000n * 10n ** 9n, crashAt: null };
    const sender = payoutSenderJob(chain, settings, payoutCalls);
    let start = performance.now();
    while ((await sql(`select count(*) as n from chain_payouts where status <> 'signed'`)) < PAYOUTS) await sender.run(ramp.db.fork());
    const sendSeconds = (performance.now() - start) / 1000;

    // Then the confirmations: enough blocks at once, and polygon's confirmation job completes them all.
    const confirmation = payoutConfirmationJob(chain, settings, payoutCalls);
    await fetch(ramp.rails.sandboxChain!.rpcUrl, rpc('anvil_mine', [`0x${chain.requiredConfirmations.toString(16)}`]));
    start = performance.now();
    while ((await sql(`select count(*) as n from transfers where direction = 'onramp' and status = 'completed'`)) < PAYOUTS)
      await confirmation.run(ramp.db.fork());
    const confirmSeconds = (performance.now() - start) / 1000;

    // The floor, in the same run: base's treasury signs the same token transfers and the node takes them one by one,
    // with no database, no nonce lock and no record: what the node and signing alone allow.
    const floorChain = ramp.rails.liveChains().find((c) => c.network === 'base')!;
    const floorToken = floorChain.tokens.find((t) => t.token === 'usdc')!.token;
    const fees = await floorChain.fees();
    const firstNonce = await floorChain.minedNonce(floorChain.treasury);
    start = performance.now();
    for (let i = 0; i < PAYOUTS; i++) {
      const signed = await floorChain.signPayout({ token: floorToken, to: floorChain.depositAddress(10_000 + i), amount: 1n, nonce: firstNonce + i, fees });
      await floorChain.broadcast(signed.raw);
    }
    const floorSeconds = (performance.now() - start) / 1000;

    // Deposits: off-ramps whose customers each send their USDC for real (one transfer, one block each).
    const watcher = depositWatcher(chain, depositCalls);
    await watcher.run(ramp.db.fork()); // the cursor starts here
    const tools = ramp.rails.sandboxChain!;
    const usdc = chain.tokens.find((t) => t.token === 'usdc')!;
    const offramps: { id: string; address: string; index: number }[] = [];
    for (let i = 0; i < DEPOSITS + LATENCY_SAMPLES; i++) offramps.push({ ...(await openOfframp(url, key, customer)), index: i });
    const send = (o: (typeof offramps)[number]) => tools.sendFromCustomer(usdc, o.index, o.address, 100_000_000n);
    for (const offramp of offramps.slice(0, DEPOSITS)) await send(offramp);
    start = performance.now();
    while ((await sql(`select count(*) as n from chain_deposits`)) < DEPOSITS) await watcher.run(ramp.db.fork());
    const detectSeconds = (performance.now() - start) / 1000;

    // Latency: the watcher polls back to back (what CHAIN_POLL_INTERVAL_MS adds on top is the interval itself).
    let polling = true;
    const poller = (async () => {
      while (polling) await watcher.run(ramp.db.fork());
    })();
    const latencies: number[] = [];
    for (const offramp of offramps.slice(DEPOSITS)) {
      await send(offramp); // resolves once the block holding the transfer is mined
      const mined = performance.now();
      while ((await sql(`select count(*) as n from events where entity_id = '${offramp.id}' and type = 'offramp_transfer.deposit.updated'`)) === 0) {
        await new Promise((r) => setTimeout(r, 2));
      }
      latencies.push(performance.now() - mined);
    }
    polling = false;
    await poller;
    latencies.sort((a, b) => a - b);

    // Detection in blocks: with a block mined and one watcher poll at a time, how many blocks after the one that gives
    // a deposit its required confirmations the watcher counts it (0: in that very block's poll).
    await fetch(ramp.rails.sandboxChain!.rpcUrl, rpc('evm_setAutomine', [false]));
    const late: number[] = [];
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      const offramp = { ...(await openOfframp(url, key, customer)), index: DEPOSITS + LATENCY_SAMPLES + i };
      let hash: string | null = null;
      const sending = send(offramp).then((h) => (hash = h));
      // Automine is off: blocks come when mined here, until the one holding the transfer.
      while (hash === null) {
        await fetch(ramp.rails.sandboxChain!.rpcUrl, rpc('anvil_mine', ['0x1']));
        await new Promise((r) => setTimeout(r, 20));
      }
      await sending;
      const found = await chain.lookUpTransaction(hash);
      const minedIn = found.found ? found.blockNumber : (await chain.head()).number;
      for (;;) {
        await watcher.run(ramp.db.fork());
        const counted = await sql(`select count(*) as n from chain_deposits where transfer_id = '${offramp.id}' and status in ('confirmed', 'credited')`);
        if (counted > 0) break;
        await fetch(ramp.rails.sandboxChain!.rpcUrl, rpc('anvil_mine', ['0x1']));
      }
      late.push(Number((await chain.head()).number - (minedIn + BigInt(chain.requiredConfirmations) - 1n)));
    }
    await fetch(ramp.rails.sandboxChain!.rpcUrl, rpc('evm_setAutomine', [true]));
    const quantile = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(0);

    const rows: [string, string][] = [
      ['payouts signed, stored and broadcast / s (one treasury; goal ≥ 200)', (PAYOUTS / sendSeconds).toFixed(1)],
      ['floor: the same transfers signed and sent with no database / s (base treasury)', (PAYOUTS / floorSeconds).toFixed(1)],
      ['payouts / floor', (floorSeconds / sendSeconds).toFixed(2)],
      ['payouts followed to completed / s (one sender)', (PAYOUTS / confirmSeconds).toFixed(1)],
      [`deposits detected / s (${DEPOSITS} deposits over ${DEPOSITS} blocks)`, (DEPOSITS / detectSeconds).toFixed(1)],
      [`deposit counted, blocks after its required confirmations (max of ${LATENCY_SAMPLES}; goal ≤ 1)`, String(Math.max(...late))],
      [`block → deposit event, ms (median, p95 of ${LATENCY_SAMPLES}; + the poll interval)`, `${quantile(0.5)}, ${quantile(0.95)}`],
    ];
    print(`\nchain leg on the local chain (anvil, a block per transaction), PostgreSQL: ${PAYOUTS} payouts, ${DEPOSITS} deposits\n`);
    for (const [what, figure] of rows) print(`  ${what.padEnd(72)} ${figure}`);
  } finally {
    await ramp.close();
    await database.drop();
  }
}

const print = (line: string) => process.stdout.write(`${line}\n`);

/** A pending polygon off-ramp of 100 USDC to an inline IBAN: its id, deposit address and that address's index. */
async function openOfframp(url: string, key: string, customer: string) {
  const res = await fetch(`${url}/v0/customers/${customer}/offramp-transfer/quote`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify({
      source_amount: '100',
      source_token: 'usdc',
      source_network: 'polygon',
      destination_currency: 'eur',
      destination_payment_rails: 'sepa',
      transfer_purpose: 'personal_expenses',
      destination_bank_account: {
        bank_name: 'Deutsche Bank',
        account_holder_type: 'individual',
        account_holder_first_name: 'Ada',
        account_holder_last_name: 'Lovelace',
        account_holder_address: { country: 'DE', city: 'Berlin', street_line_1: 'Unter den Linden 1', postal_code: '10117' },
        account_type: 'iban',
        iban: { bic: 'DEUTDEFFXXX', iban_number: 'DE89370400440532013000' },
      },
    }),
  });
  if (!res.ok) throw new Error(`off-ramp refused: ${res.status} ${await res.text()}`);
  const { transfer } = (await res.json()) as { transfer: { id: string; quote: { deposit_blockchain_address: string } } };
  return { id: transfer.id, address: transfer.quote.deposit_blockchain_address, index: 0 };
}

const rpc = (method: string, params: unknown[]) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
});

await main();
