import { execFileSync } from 'node:child_process';
import { mkdirSync, statSync, utimesSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { bundleIsStale, generateOperationTypes } from '../../../src/modules/console/bundle.js';
import { haveChromium, launchChromium, PRODUCTION_LIMITS, useRampInBrowser, watchProblems } from '../../support/clients/browser.js';
import { byHash, onlyTrustedDocuments } from '../../support/clients/console-documents.js';
import { type ApiClient, startRamp } from '../../support/ramp.js';
import { APPROVE_KYC, createCustomer, ibanAccount, idempotencyKey, offrampQuoteBody } from '../../support/data/transfers.js';
import { startReceiver } from '../../support/clients/webhook-receiver.js';

const ARTIFACTS = 'test-artifacts';

/**
 * What the tests send themselves, around the console (making transfers outside it, checking what it did): an
 * operator's manifest of them, as a partner's frontend's would be, sent by hash.
 */
const QUOTE = 'mutation ($input: CreateOnrampQuoteInput!) { createOnrampQuote(input: $input) { ... on CreateOnrampQuotePayload { quote { id } } } }';
const TRANSFER =
  'mutation ($input: CreateOnrampTransferInput!) { createOnrampTransfer(input: $input) { ... on CreateOnrampTransferPayload { transfer { id databaseId } } } }';
const LAST_TRANSFER = '{ transfers(last: 1) { edges { node { databaseId status customer { email } } } } }';
const SIMULATIONS = ['simulateFiatDeposit', 'simulateTransferSettlement'];
const simulation = (mutation: string) =>
  `mutation ($input: ${mutation[0]!.toUpperCase()}${mutation.slice(1)}Input!) { ${mutation}(input: $input) { __typename } }`;

// As production may run it: only trusted documents. The console's are, and it sends their hashes.
const env = useRampInBrowser(onlyTrustedDocuments([APPROVE_KYC, QUOTE, TRANSFER, LAST_TRANSFER, ...SIMULATIONS.map(simulation)]));

// Each test's tabs close with it: an open console keeps its subscription and refetches on every event, spending
// the key's cost budget (every test shares the demo key) on work no later test looks at.
afterEach(async () => {
  if (haveChromium) await Promise.all(env.browser.contexts().map((context) => context.close()));
});

/**
 * Everything that went wrong in the page: console errors, CSP violations, failed requests, requests leaving the origin.
 * Not a 429: the tests share one key under the production budget, and the console waits out a throttled answer and
 * asks again (its own test below counts those), so a 429 is the budget working, whichever test it lands in.
 */
async function watchedPage(): Promise<{ page: Page; problems: string[] }> {
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems = watchProblems(page, /status of 429/);
  const origin = new URL(env.t.url).origin;
  page.on('request', (r) => !r.url().startsWith(origin) && !r.url().startsWith(origin.replace('http', 'ws')) && problems.push(`left the origin: ${r.url()}`));
  page.on('response', (r) => r.status() >= 400 && r.status() !== 429 && problems.push(`${r.status()} ${r.url()}`));
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/graphql') && !('documentId' in (r.postDataJSON() ?? {})))
      problems.push(`sent a document, not its hash: ${r.postData()}`);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
  });
  return { page, problems };
}

const signIn = async (page: Page, key: string) => {
  await page.getByLabel('API key', { exact: true }).fill(key);
  await page.getByRole('button', { name: 'Open the console' }).click();
};

const screenshot = async (page: Page, name: string) => {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = `${ARTIFACTS}/${name}.png`;
  await page.screenshot({ path, fullPage: true });
  expect(statSync(path).size).toBeGreaterThan(10_000);
};

const statusOf = (page: Page, transferId: string) =>
  page
    .locator(`tr[data-transfer="${transferId}"]`)
    .getAttribute('data-status', { timeout: 1_000 })
    .catch(() => null);

describe.skipIf(!haveChromium)('the sandbox console in a real browser', () => {
  it('drives a customer and an on-ramp transfer by clicking, and the board follows it live: pending → processing → completed', async () => {
    const { page, problems } = await watchedPage();
    const response = await page.goto(`${env.t.url}/console`);
    expect(response!.headers()['content-type']).toContain('text/html');
    expect(response!.headers()['content-security-policy']).toContain("script-src 'self'");

    // A wrong key is refused with the fix named; the right one opens the console on its empty state.
    await signIn(page, 'sk_test_123');
    await expect.poll(() => page.getByRole('alert').innerText()).toContain('rk_sandbox_');
    await signIn(page, env.t.key);
    await expect.poll(() => page.locator('.empty').first().innerText(), { timeout: 30_000 }).toContain('No customers yet');
    expect(await page.evaluate(() => sessionStorage.getItem('ramp-console-api-key'))).toBe(env.t.key);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    await screenshot(page, 'console-empty');

    // Create a customer; the console opens its page, where KYC is approved by a click.
    await page.getByLabel('Email').fill('console-buyer@example.com');
    await page.getByLabel('First name').fill('Grace');
    await page.getByLabel('Last name').fill('Hopper');
    await page.getByRole('button', { name: 'Create customer' }).click();
    await page.getByRole('heading', { name: 'Grace Hopper' }).waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Approve KYC' }).click();
    await page.locator('[data-kyc-status="APPROVED"]').waitFor({ timeout: 10_000 });

    // A quote, then the transfer from it.
    await page.getByRole('button', { name: 'Get quote' }).click();
    await page.getByRole('button', { name: 'Create transfer from this quote' }).click();
    await page.getByText(/created, pending the deposit/).waitFor({ timeout: 10_000 });
    await page.locator('table.transfers tbody tr').waitFor({ timeout: 10_000 });
    await screenshot(page, 'console-customer');
    const listed = await byHash(env.t.client(env.t.key)).graphql(LAST_TRANSFER);
    const transfer = listed.body.data.transfers.edges[0].node;
    expect(transfer).toMatchObject({ status: 'PENDING', customer: { email: 'console-buyer@example.com' } });

    // The board: the row moves only through the subscription (the board never reads a mutation's answer).
    await page.getByRole('link', { name: 'Transfers' }).click();
    await expect.poll(() => page.locator('[data-stream]').getAttribute('data-stream'), { timeout: 15_000 }).toBe('live');
    await expect.poll(() => statusOf(page, transfer.databaseId), { timeout: 10_000 }).toBe('PENDING');
    const row = page.locator(`tr[data-transfer="${transfer.databaseId}"]`);
    await row.getByRole('button', { name: 'Simulate fiat deposit' }).click();
    await expect.poll(() => statusOf(page, transfer.databaseId), { timeout: 10_000 }).toBe('PROCESSING');
    await row.getByRole('button', { name: 'Settle' }).click();
    await expect.poll(() => statusOf(page, transfer.databaseId), { timeout: 10_000 }).toBe('COMPLETED');

    // Idle, the page asks nothing: updates come over the socket, never by polling.
    let requests = 0;
    page.on('request', (r) => r.url().endsWith('/graphql') && requests++);
    await page.waitForTimeout(3_000);
    expect(requests).toBe(0);

    // Its status history and postings, in words.
    await row.getByText('Status history and postings').click();
    const detail = await row.locator('details').innerText();
    expect(detail).toMatch(/pending[\s\S]*processing[\s\S]*completed/);
    expect(detail).toMatch(/deposit/);
    expect(detail).toMatch(/payout/);
    await screenshot(page, 'console-board-completed');

    // The chart counts it: today's completed volume, in figures as well as bars.
    await page.getByText("The chart's figures as a table").click();
    const today = new Date().toISOString().slice(0, 10);
    await expect
      .poll(() => page.locator('tr', { has: page.locator(`th:text-is("${today}")`) }).innerText(), { timeout: 10_000 })
      .toMatch(/100\.00\s+0\.00\s+0\.00\s+0\.00\s+0\.00\s+100\.00$/);
    expect(await page.locator('svg.chart rect.bar-completed').count()).toBe(1);

    expect(problems).toEqual([]);
  }, 180_000);

  it('catches up by cursor after the network drops: what happened meanwhile arrives once it is back', async () => {
    const { page, problems } = await watchedPage();
    // What the console says on its sockets: each subscribe's `after`, and the cursor of each event it received.
    const subscribedAfter: Array<string | null> = [];
    const received: string[] = [];
    page.on('websocket', (socket) => {
      socket.on('framesent', ({ payload }) => {
        const message = JSON.parse(String(payload));
        if (message.type === 'subscribe') subscribedAfter.push(message.payload.variables?.after ?? null);
      });
      socket.on('framereceived', ({ payload }) => {
        const message = JSON.parse(String(payload));
        if (message.type === 'next' && message.payload.data?.events) received.push(message.payload.data.events.cursor);
      });
    });
    await page.goto(`${env.t.url}/console#/transfers`);
    await signIn(page, env.t.key);
    await expect.poll(() => page.locator('[data-stream]').getAttribute('data-stream'), { timeout: 15_000 }).toBe('live');

    // A second transfer, made outside the console: it appears live.
    const api = byHash(env.t.client(env.t.key));
    const customerId = await createCustomer(api);
    const quoted = await api.graphql(QUOTE, {
      input: { customerId, sourceAmount: '42.00', sourceCurrency: 'USD', sourcePaymentRails: 'ACH', destinationToken: 'USDC', destinationNetwork: 'POLYGON' },
    });
    const created = await api.graphql(TRANSFER, {
      input: { quoteId: quoted.body.data.createOnrampQuote.quote.id, destinationAddress: '0x9AD0BAD1900a8a37f840c197B961847A3a32f0c9' },
    });
    const transfer = created.body.data.createOnrampTransfer.transfer;
    await expect.poll(() => statusOf(page, transfer.databaseId), { timeout: 10_000 }).toBe('PENDING');

    // The network goes away: the console drops its socket and says it will catch up.
    await page.context().setOffline(true);
    await expect.poll(() => page.locator('[data-stream]').getAttribute('data-stream'), { timeout: 15_000 }).toBe('reconnecting');
    const lastSeen = received.at(-1);
    expect(lastSeen).toBeDefined();
    expect(subscribedAfter).toHaveLength(1);

    // Meanwhile the transfer is funded and settled.
    for (const mutation of SIMULATIONS) {
      const name = `${mutation[0]!.toUpperCase()}${mutation.slice(1)}`;
      const done = await api.graphql(simulation(mutation), { input: { transferId: transfer.id } });
      expect(done.body.data[mutation].__typename).toBe(`${name}Payload`);
    }
    expect(await statusOf(page, transfer.databaseId)).toBe('PENDING');
    await screenshot(page, 'console-board-offline');

    // Back online: the console subscribes again after its last cursor and Ramp replays what it missed.
    await page.context().setOffline(false);
    await expect.poll(() => statusOf(page, transfer.databaseId), { timeout: 20_000 }).toBe('COMPLETED');
    await expect.poll(() => page.locator('[data-stream]').getAttribute('data-stream')).toBe('live');
    // It resumed after the last cursor it had seen, and the replay began right after it.
    expect(subscribedAfter.at(-1)).toBe(lastSeen);
    expect(received.indexOf(lastSeen!)).toBe(received.lastIndexOf(lastSeen!));
    await screenshot(page, 'console-board-caught-up');

    // The drop shows as failed requests while offline; anything else is a problem.
    expect(problems.filter((p) => !/ERR_INTERNET_DISCONNECTED|WebSocket/i.test(p))).toEqual([]);
  }, 180_000);

  it('works from the keyboard, shows typed errors inline with their fix, issues a virtual account and deposits to it, and redelivers a webhook', async () => {
    const receiver = await startReceiver();
    const key = await env.t.keyFor('Console Keyboard Partner');
    const { page, problems } = await watchedPage();
    await page.goto(`${env.t.url}/console#/webhooks`);
    // Signed in with the keyboard alone.
    await page.getByLabel('API key', { exact: true }).focus();
    await page.keyboard.type(key);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.empty').first().innerText(), { timeout: 15_000 }).toContain('No webhooks yet');

    await page.getByLabel('Receiver URL').fill(receiver.url);
    await page.getByLabel('Receiver URL').press('Enter');
    await expect.poll(() => page.getByRole('status').first().innerText()).toContain('whsec_');
    await page.getByRole('article', { name: `Webhook ${receiver.url}` }).waitFor();

    // A quote before the KYC is approved: the typed error, its code and what to do, where the button was.
    await page.getByRole('link', { name: 'Customers' }).click();
    await page.getByLabel('Email').fill('console-keyboard@example.com');
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Keys');
    await page.getByLabel('Last name').press('Enter');
    await page.getByRole('heading', { name: 'Ada Keys' }).waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Get quote' }).click();
    const refusal = page.getByRole('alert');
    await expect.poll(() => refusal.innerText()).toContain('KYC_NOT_APPROVED');
    expect(await refusal.innerText()).toContain('Approve the customer’s KYC first');

    // A pending AED virtual account, issued by its button.
    const opening = page.getByRole('form', { name: 'Open a virtual account' });
    await opening.getByLabel(/^Currency/).selectOption('AED');
    await opening.getByRole('button', { name: 'Open virtual account' }).click();
    const account = page.locator('section', { has: page.getByRole('heading', { name: /^Virtual accounts/ }) }).locator('tbody tr');
    await expect.poll(() => account.innerText(), { timeout: 10_000 }).toContain('pending');
    await account.getByRole('button', { name: 'Issue account' }).click();
    await expect.poll(() => account.innerText(), { timeout: 10_000 }).toContain('active');

    // A deposit to it needs an approved KYC too; once approved, it becomes a funded transfer of the customer.
    await account.getByRole('button', { name: 'Simulate deposit' }).click();
    await expect.poll(() => account.getByRole('alert').innerText()).toContain('KYC_NOT_APPROVED');
    await page.getByRole('button', { name: 'Approve KYC' }).click();
    await page.locator('[data-kyc-status="APPROVED"]').waitFor({ timeout: 10_000 });
    await account.getByRole('button', { name: 'Simulate deposit' }).click();
    await expect.poll(() => page.locator('table.transfers tbody tr').first().getAttribute('data-status'), { timeout: 10_000 }).toBe('PROCESSING');

    // The webhook got each event; one is sent again by the Redeliver button, with the same webhook-id.
    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(5);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByText('Deliveries', { exact: true }).click();
    const deliveries = page.locator('article tbody tr');
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh deliveries' }).click();
          return (await deliveries.allInnerTexts()).filter((row) => row.includes('succeeded')).length;
        },
        { timeout: 15_000 },
      )
      .toBeGreaterThanOrEqual(5);
    const before = receiver.received.length;
    await deliveries.last().getByRole('button', { name: 'Redeliver' }).click();
    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(before + 1);
    const redelivered = receiver.received.at(-1)!.headers['webhook-id'];
    expect(receiver.received.filter((r) => r.headers['webhook-id'] === redelivered)).toHaveLength(2);
    await expect.poll(() => page.locator('article tbody').innerText(), { timeout: 10_000 }).toContain('redelivery');
    await screenshot(page, 'console-webhooks');

    await receiver.close();
    expect(problems).toEqual([]);
  }, 180_000);

  it('fails and refunds a transfer, and rejects a KYC, by their buttons', async () => {
    const { page, problems } = await watchedPage();
    await page.goto(`${env.t.url}/console`);
    await signIn(page, env.t.key);
    await page.getByLabel('Email').fill('console-rejected@example.com');
    await page.getByLabel('First name').fill('Rex');
    await page.getByLabel('Last name').fill('Jected');
    await page.getByRole('button', { name: 'Create customer' }).click();
    await page.getByRole('button', { name: 'Reject KYC' }).click();
    await page.locator('[data-kyc-status="REJECTED"]').waitFor({ timeout: 10_000 });

    const api = byHash(env.t.client(env.t.key));
    const customerId = await createCustomer(api);
    const quoted = await api.graphql(QUOTE, {
      input: {
        customerId,
        sourceAmount: '7.00',
        sourceCurrency: 'EUR',
        sourcePaymentRails: 'SEPA',
        destinationToken: 'USDC',
        destinationNetwork: 'POLYGON',
      },
    });
    const created = await api.graphql(TRANSFER, {
      input: { quoteId: quoted.body.data.createOnrampQuote.quote.id, destinationAddress: '0x9AD0BAD1900a8a37f840c197B961847A3a32f0c9' },
    });
    const transferId = created.body.data.createOnrampTransfer.transfer.databaseId;
    await page.getByRole('link', { name: 'Transfers' }).click();
    const row = page.locator(`tr[data-transfer="${transferId}"]`);
    await row.getByRole('button', { name: 'Simulate fiat deposit' }).click();
    await expect.poll(() => statusOf(page, transferId), { timeout: 10_000 }).toBe('PROCESSING');
    await row.getByRole('button', { name: 'Fail' }).click();
    await expect.poll(() => statusOf(page, transferId), { timeout: 10_000 }).toBe('FAILED');
    expect(await row.innerText()).toContain('simulated_failure');
    await row.getByRole('button', { name: 'Refund' }).click();
    await expect.poll(() => statusOf(page, transferId), { timeout: 10_000 }).toBe('REFUNDED');
    expect(problems).toEqual([]);
  }, 120_000);

  it("shows a transfer's real chain hash and its confirmations rising, polling only while they are short", async () => {
    const api = byHash(env.t.client(env.t.key));
    const customerId = await createCustomer(api);
    const quote = await api.post(
      `/v0/customers/${customerId}/offramp-transfer/quote`,
      offrampQuoteBody({ destination_bank_account: ibanAccount(), transfer_purpose: 'family' }),
      idempotencyKey(),
    );
    const transferId = quote.body.transfer_id as string;
    const hash = `0x${'ab'.repeat(32)}`;
    // What the chain watcher records as blocks come: the deposit's hash, then its confirmations one by one.
    const confirm = (n: number) =>
      env.t.sql('update transfers set deposit_transaction_hash = ?, confirmations = ?, required_confirmations = 3 where id = ?', [hash, n, transferId]);
    await confirm(1);

    const { page, problems } = await watchedPage();
    await page.goto(`${env.t.url}/console`);
    await signIn(page, env.t.key);
    await page.getByRole('link', { name: 'Transfers' }).click();
    const row = page.locator(`tr[data-transfer="${transferId}"]`);
    const shown = () =>
      row
        .locator('[data-confirmations]')
        .innerText({ timeout: 1_000 })
        .catch(() => '');
    await expect.poll(shown, { timeout: 15_000 }).toBe('confirmations 1 / 3');
    expect(await row.locator('.chain .hash').innerText()).toBe(hash);
    expect(await row.locator('.chain a').count()).toBe(0);
    await confirm(2);
    await expect.poll(shown, { timeout: 10_000 }).toBe('confirmations 2 / 3');
    await confirm(3);
    await expect.poll(shown, { timeout: 10_000 }).toBe('confirmations 3 / 3');
    await screenshot(page, 'console-confirmations');

    // Reached: the page stops asking.
    let requests = 0;
    page.on('request', (r) => r.url().endsWith('/graphql') && requests++);
    await page.waitForTimeout(3_000);
    expect(requests).toBe(0);
    expect(problems, JSON.stringify(problems)).toEqual([]);
  }, 120_000);

  it('opens read-only with a production key: everything visible, no sandbox buttons', async () => {
    const productionKey = await env.t.keyFor('Demo Partner', 'production');
    const { page, problems } = await watchedPage();
    await page.goto(`${env.t.url}/console`);
    await signIn(page, productionKey);
    await page.getByText('Production (read-only)').waitFor({ timeout: 15_000 });
    await expect.poll(() => page.locator('.empty').first().innerText()).toContain('No customers yet');
    expect(await page.getByRole('button', { name: 'Create customer' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Transfers' }).click();
    await page.getByRole('heading', { name: /^Transfers/ }).waitFor();
    expect(await page.getByRole('button', { name: /Simulate|Settle|Approve/ }).count()).toBe(0);
    expect(problems).toEqual([]);
  }, 120_000);
});

/** An on-ramp transfer of `amount` in `currency`, made outside the console; its REST id. */
async function onramp(api: ApiClient, customerId: string, amount: string, currency: 'USD' | 'EUR'): Promise<string> {
  const input = { customerId, sourceAmount: amount, sourceCurrency: currency, sourcePaymentRails: currency === 'USD' ? 'ACH' : 'SEPA' };
  const quoted = await api.graphql(QUOTE, { input: { ...input, destinationToken: 'USDC', destinationNetwork: 'POLYGON' } });
  const created = await api.graphql(TRANSFER, {
    input: { quoteId: quoted.body.data.createOnrampQuote.quote.id, destinationAddress: '0x9AD0BAD1900a8a37f840c197B961847A3a32f0c9' },
  });
  return created.body.data.createOnrampTransfer.transfer.databaseId;
}

describe.skipIf(!haveChromium)("the console's first hour", () => {
  it("opens on what already happened: latest events, the week in its most used currency, a customer's transfers newest first", async () => {
    const key = await env.t.keyFor('Console First Hour Partner');
    const api = byHash(env.t.client(key));
    const customerId = await createCustomer(api);
    const older = await onramp(api, customerId, '10.00', 'USD');
    const newer = await onramp(api, customerId, '20.00', 'USD');
    await onramp(api, customerId, '30.00', 'EUR');
    const { page, problems } = await watchedPage();
    await page.goto(`${env.t.url}/console#/transfers`);
    await signIn(page, key);
    await expect.poll(() => page.locator('[data-stream]').getAttribute('data-stream'), { timeout: 15_000 }).toBe('live');

    // Latest events: the ones before the page opened, newest first, with nothing new happening.
    const events = page.locator('ol.events li code');
    await expect.poll(() => events.allInnerTexts(), { timeout: 10_000 }).toEqual(expect.arrayContaining(['CUSTOMER_CREATED', 'ONRAMP_TRANSFER_CREATED']));
    expect((await events.allInnerTexts()).at(-1)).toBe('CUSTOMER_CREATED');

    // The chart opens on USD, the currency of most of the week's transfers (EUR, first by name, hid it).
    const currency = page.locator('section', { has: page.getByRole('heading', { name: /^Volume by status/ }) }).locator('select');
    await expect.poll(() => currency.inputValue(), { timeout: 10_000 }).toBe('USD');

    // The customer's page lists its transfers as the board does, newest first.
    await page.goto(`${env.t.url}/console#/customers/${customerId}`);
    const rows = page.locator('table.transfers tbody tr');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(3);
    const order = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-transfer')));
    expect(order.indexOf(newer)).toBeLessThan(order.indexOf(older));
    expect(order[2]).toBe(older);

    // The wallet field shows the whole address, on every network (Solana's is the longest).
    const wallet = page.locator('input[name="destinationAddress"]');
    const network = page.locator('form', { has: wallet }).getByLabel('Network', { exact: true });
    for (const option of await network.locator('option').allInnerTexts()) {
      await network.selectOption(option);
      const { scrollWidth, clientWidth } = await wallet.evaluate((input: HTMLInputElement) => ({
        scrollWidth: input.scrollWidth,
        clientWidth: input.clientWidth,
      }));
      expect(scrollWidth, option).toBeLessThanOrEqual(clientWidth);
    }
    expect(problems).toEqual([]);
  }, 120_000);

  it('waits out a throttled answer by its Retry-After and loads the board by itself, under a bucket smaller than the board asks for at once', async () => {
    // 250 points, 100 a second: the board's queries together (its transfers, the week's volume, the latest
    // events) cost more than the bucket holds, each alone less.
    const small = await startRamp({ ...PRODUCTION_LIMITS, ...onlyTrustedDocuments(), GRAPHQL_COST_BUCKET_SIZE: '250', GRAPHQL_COST_RESTORE_RATE: '100' });
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const throttled: string[] = [];
      page.on('response', (r) => r.status() === 429 && throttled.push(r.headers()['retry-after'] ?? ''));
      await page.goto(`${small.url}/console#/transfers`);
      await signIn(page, small.key);
      await expect.poll(() => page.locator('#board-title').innerText(), { timeout: 30_000 }).toBe('Transfers (0)');
      await expect.poll(() => page.getByText('No transfers this week').count(), { timeout: 30_000 }).toBe(1);
      expect(throttled.length).toBeGreaterThan(0);
      expect(throttled.every((seconds) => Number(seconds) >= 1)).toBe(true);
      expect(await page.getByText('Throttled').count()).toBe(0);
    } finally {
      await browser.close();
      await small.close();
    }
  }, 120_000);

  it('builds a stale bundle as Ramp starts, before anyone asks for /console', async () => {
    // An edited source makes the bundle stale (mtime only: the file's content is untouched).
    const source = new URL('../../../console/src/main.tsx', import.meta.url);
    const now = new Date();
    utimesSync(source, now, now);
    expect(bundleIsStale()).toBe(true);
    const started = await startRamp(PRODUCTION_LIMITS);
    try {
      await expect.poll(() => bundleIsStale(), { timeout: 90_000, interval: 250 }).toBe(false);
      const loaded = performance.now();
      expect((await fetch(`${started.url}/console/app.js`)).status).toBe(200);
      expect(performance.now() - loaded).toBeLessThan(2_000);
    } finally {
      await started.close();
    }
  }, 120_000);
});

describe("the console's typed operations", () => {
  it('are valid against schema.graphql, and the console type-checks with the types generated from them', async () => {
    await generateOperationTypes();
    // tsc exits non-zero (and execFileSync throws with its report) on any type error.
    expect(() => execFileSync('node_modules/.bin/tsc', ['-p', 'console/tsconfig.json'], { encoding: 'utf8' })).not.toThrow();
  }, 120_000);
});
