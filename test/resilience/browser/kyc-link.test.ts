import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haveChromium, launchChromium, PRODUCTION_LIMITS, watchProblems } from '../../support/clients/browser.js';
import { startRamp, type TestRamp } from '../../support/ramp.js';

/** The partner's page the applicant returns to: a tiny server on another origin that records each visit. */
let partner: Server;
let partnerUrl: string;
const visits: Array<{ url: string; headers: IncomingHttpHeaders }> = [];

let t: TestRamp;
let browser: Browser;
beforeAll(async () => {
  if (!haveChromium) return;
  partner = createServer((request, response) => {
    // The browser also asks for /favicon.ico; only page visits count.
    if (!request.url?.startsWith('/favicon')) visits.push({ url: request.url ?? '', headers: request.headers });
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Partner</title><h1>Welcome back</h1>');
  });
  await new Promise<void>((resolve) => partner.listen(0, '127.0.0.1', resolve));
  partnerUrl = `http://127.0.0.1:${(partner.address() as AddressInfo).port}`;
  t = await startRamp(PRODUCTION_LIMITS);
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await new Promise((resolve) => partner?.close(resolve));
});

describe.skipIf(!haveChromium)('a KYC link in a real browser', () => {
  it('opens the sandbox page, approves, and lands on redirect_uri with customer_id and status, with no CSP violation', async () => {
    const api = t.client(t.key);
    const id = (await api.post('/v0/customers', { email: 'browser-kyc@example.com', type: 'individual', first_name: 'Ada', last_name: 'Lovelace' })).body
      .customer_id;
    const created = await api.post(`/v0/customers/${id}/kycs`, { redirect_uri: `${partnerUrl}/onboarding/kyc-done?session=s1` });
    expect(created.status).toBe(201);
    const link: string = created.body.kycs.kyc_flow_link;

    const page = await browser.newPage();
    const problems = watchProblems(page);
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
    });

    await page.goto(link);
    await expect.poll(() => page.locator('#kyc-status').innerText()).toBe('not_started');
    await page.getByRole('button', { name: 'Submit verification' }).click();
    await expect.poll(() => page.locator('#kyc-status').innerText()).toBe('in_review');
    expect(visits).toEqual([]);

    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(`${partnerUrl}/**`, { timeout: 15_000 });
    const landed = new URL(page.url());
    expect(landed.pathname).toBe('/onboarding/kyc-done');
    expect(Object.fromEntries(landed.searchParams)).toEqual({ session: 's1', customer_id: id, status: 'approved' });
    expect(await page.locator('h1').innerText()).toBe('Welcome back');

    // The partner saw one visit, and the link's token did not travel with it (Referrer-Policy: no-referrer).
    expect(visits).toHaveLength(1);
    expect(visits[0]!.headers.referer).toBeUndefined();
    expect(JSON.stringify(visits)).not.toContain(new URL(link).searchParams.get('token'));

    expect((await api.get(`/v0/customers/${id}`)).body.kycs).toMatchObject({ status: 'approved', sub_status: 'kyc_approved' });
    expect(problems).toEqual([]);
  }, 120_000);
});
