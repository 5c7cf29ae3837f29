import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRamp, type TestRamp } from '../support/ramp.js';

// The partner guide's first-hour walkthrough (docs/api/walkthrough.md), run as written: every ```sh block in order,
// in one bash, against a Ramp started here. Only the three values a reader sets first are ours: where Ramp listens,
// the sandbox key, and a free port for the webhook receiver.
const WALKTHROUGH = readFileSync(new URL('../../docs/api/walkthrough.md', import.meta.url), 'utf8');
// A reader tries the README's first commands, then goes on to the walkthrough on the same sandbox, and from there to the
// pages that continue it in the same terminal: the chain leg, the sandbox's deposit hashes, webhooks by query.
const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const page = (name: string) => readFileSync(new URL(`../../docs/api/${name}.md`, import.meta.url), 'utf8');
const CONTINUED = ['chains', 'sandbox', 'webhooks'] as const;
const PLACEHOLDERS = ['export RAMP=http://127.0.0.1:4000', 'export KEY=rk_sandbox_…', 'export HOOK_PORT=4001'];

const shellBlocks = (markdown: string) => [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** Runs a script with bash in its own process group (so a receiver it leaves behind is stopped too). */
function bash(script: string, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child: ChildProcess = spawn('bash', ['-c', script], { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk) => (stdout += chunk));
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 150_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // the group is gone already
      }
      resolve({ code, stdout, stderr });
    });
  });
}

let t: TestRamp;
let dir: string;
let run: { code: number | null; stdout: string; stderr: string };
const blocks = shellBlocks(WALKTHROUGH);
const file = (name: string) => JSON.parse(readFileSync(join(dir, name), 'utf8'));

beforeAll(async () => {
  // As `npm start` runs it: the sandbox on its local chain, blocks mined on an interval, the chain jobs polling.
  t = await startRamp({ SANDBOX_CHAIN: 'local', SANDBOX_CHAIN_BLOCK_TIME_SECONDS: '1', CHAIN_POLL_INTERVAL_MS: '300' });
  dir = mkdtempSync(join(tmpdir(), 'ramp-walkthrough-'));
  const values = [`export RAMP=${t.url}`, `export KEY=${t.key}`, `export HOOK_PORT=${await freePort()}`];
  const setup = PLACEHOLDERS.reduce((block, placeholder, i) => block.replace(placeholder, values[i]!), blocks[0]!);
  const tried = shellBlocks(README)
    .find((block) => block.includes('/v0/customers'))!
    .replace('KEY=rk_sandbox_…', `KEY=${t.key}`)
    .replaceAll('http://127.0.0.1:4000', t.url);
  const steps = [tried, setup, ...blocks.slice(1)].map((block, i) => `echo "::block ${i - 1}"\n${block}`);
  const continued = CONTINUED.flatMap((name) => shellBlocks(page(name)).map((block, i) => `echo "::${name} ${i}"\n${block}`));
  // As chains.md asks, from Ramp's checkout: Foundry's cast, which `npm install` put in node_modules/.bin.
  const castOnPath = `export PATH="${join(process.cwd(), 'node_modules', '.bin')}:$PATH"`;
  run = await bash(`set -euo pipefail\n${castOnPath}\n${[...steps, ...continued].join('\n')}\necho "::done"\n`, dir);
}, 180_000);
afterAll(async () => {
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the first-hour walkthrough of the partner guide', () => {
  it('starts by setting the three values the reader supplies, each once', () => {
    for (const placeholder of PLACEHOLDERS) expect(blocks[0]).toContain(`${placeholder} `);
    expect(blocks.length).toBeGreaterThan(8);
    expect(WALKTHROUGH).not.toMatch(/uuidgen/);
  });

  it('runs every command as written, each succeeding, to the end', () => {
    expect({ code: run.code, stderr: run.stderr }).toMatchObject({ code: 0 });
    for (let i = 0; i < blocks.length; i++) expect(run.stdout).toContain(`::block ${i}\n`);
    for (const name of CONTINUED) expect(shellBlocks(page(name)).length, name).toBeGreaterThan(0);
    for (const name of CONTINUED) shellBlocks(page(name)).forEach((_, i) => expect(run.stdout).toContain(`::${name} ${i}\n`));
    expect(run.stdout).toMatch(/::done\n$/);
  });

  it('goes on in the same terminal: a deposit from a wallet of the reader’s own, a solana off-ramp, a webhook by query removed again', async () => {
    const api = t.client(t.key);
    const customer = file('customer.json').customer_id;
    const own = await api.get(`/v0/customers/${customer}/offramp-transfer/${file('own-offramp.json').transfer_id}`);
    expect(own.body.status).toBe('processing');
    expect(own.body.quote.deposit_transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);
    const solana = await api.get(`/v0/customers/${customer}/offramp-transfer/${file('solana-offramp.json').transfer_id}`);
    expect(solana.body).toMatchObject({ status: 'processing', source_network: 'solana', quote: { deposit_network: 'solana' } });
    const webhooks = (await api.get('/v0/webhooks')).body as { data?: { id: string }[] } | { id: string }[];
    const ids = (Array.isArray(webhooks) ? webhooks : (webhooks.data ?? [])).map((w) => w.id);
    expect(ids).not.toContain(file('query-webhook.json').id);
    expect(ids).not.toContain(file('webhook.json').id);
  });

  it('approves the KYC and takes the on-ramp and the off-ramp to completed, and cancels the webhook step’s transfer', async () => {
    const api = t.client(t.key);
    const customer = file('customer.json').customer_id;
    expect((await api.get(`/v0/customers/${customer}`)).body.kycs.status).toBe('approved');
    const onramp = await api.get(`/v0/customers/${customer}/onramp-transfer/${file('onramp.json').id}`);
    expect(onramp.body, JSON.stringify(onramp.body)).toMatchObject({ status: 'completed', destination_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' });
    expect(onramp.body.destination_transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);
    // Paid for real on the local chain: the hash is a mined transaction with the confirmations required.
    expect(onramp.body.confirmations).toBeGreaterThanOrEqual(onramp.body.required_confirmations);
    expect(await t.ramp.rails.chain('sandbox', 'polygon')!.mode).toBe('live');
    const offramp = await api.get(`/v0/customers/${customer}/offramp-transfer/${file('offramp-quote.json').transfer_id}`);
    expect(offramp.body).toMatchObject({ status: 'completed', destination_external_account_id: file('account.json').id });
    const second = await api.get(`/v0/customers/${customer}/onramp-transfer/${file('second.json').id}`);
    expect(second.body.status).toBe('canceled');
  });

  it('shows the quote as Ramp answers it for the demo partner: the same fee, fee parts and amounts', () => {
    const shown = JSON.parse(/```json\n([\s\S]*?)```/.exec(WALKTHROUGH.slice(WALKTHROUGH.indexOf('## 4.')))![1]!.replace(/, "…": "…"/, ''));
    const quote = file('onramp-quote.json');
    for (const field of ['source_amount', 'destination_amount', 'exchange_rate', 'fee_amount', 'fee_breakdown'] as const) {
      expect({ [field]: shown[field] }).toEqual({ [field]: quote[field] });
    }
    expect(WALKTHROUGH).toContain(`(100 − ${quote.fee_amount}) × 1.08 = ${Number.parseFloat(quote.destination_amount)} USDC`);
    expect(WALKTHROUGH).toContain(`\`destination_amount\` ${file('offramp-quote.json').destination_amount} euros`);
  });

  it('delivers the webhook step’s two events to the receiver, and the subscription replays to the off-ramp’s completion', () => {
    const deliveries = readFileSync(join(dir, 'webhooks.log'), 'utf8').trim().split('\n');
    // Two attempts run side by side: the receiver may write them down in either order (webhooks.md: order is not guaranteed).
    expect(deliveries.map((line) => JSON.parse(line.slice(line.indexOf(' ') + 1)).event_type).sort()).toEqual([
      'onramp_transfer.created',
      'onramp_transfer.status.updated',
    ]);
    for (const line of deliveries) expect(line.split(' ')[0]).toBe(JSON.parse(line.slice(line.indexOf(' ') + 1)).event_id);
    const subscription = run.stdout.lastIndexOf('::block');
    const streamed = run.stdout.slice(subscription, run.stdout.indexOf('::chains 0', subscription)).split('\n').slice(1, -1);
    expect(streamed[0]).toBe('CUSTOMER_CREATED ');
    expect(streamed).toContain('ONRAMP_TRANSFER_STATUS_UPDATED COMPLETED');
    expect(streamed.at(-1)).toBe('OFFRAMP_TRANSFER_STATUS_UPDATED COMPLETED');
  });
});
