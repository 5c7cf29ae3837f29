import { mkdirSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { haveChromium, useRampInBrowser, watchProblems } from '../../support/clients/browser.js';

const SCREENSHOT = 'test-artifacts/api-reference.png';

const env = useRampInBrowser();

describe.skipIf(!haveChromium)('/docs/api in a real browser, offline and under our Content-Security-Policy', () => {
  it('renders the reference from /openapi.json: its title and the createCustomer operation, with no request leaving this origin', async () => {
    const page = await env.browser.newPage();
    const problems = watchProblems(page);
    const origin = new URL(env.t.url).origin;
    page.on('request', (r) => !r.url().startsWith(origin) && !r.url().startsWith('data:') && problems.push(`left the origin: ${r.url()}`));
    page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.url()}`));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
    });

    const response = await page.goto(`${env.t.url}/docs/api`);
    expect(response!.headers()['content-security-policy']).toContain("script-src 'self'");
    await expect.poll(() => page.locator('.info .title').innerText(), { timeout: 60_000 }).toContain('Ramp partner REST API');
    const operation = page.locator('#operations-Customers-createCustomer');
    await operation.waitFor({ timeout: 30_000 });
    expect(await operation.innerText()).toContain('/v0/customers');

    // Opened, the operation shows the request body generated from the zod schema.
    await operation.locator('.opblock-summary').click();
    await expect.poll(() => operation.innerText(), { timeout: 10_000 }).toMatch(/customer_email_taken/);

    // The /v0 groups come first (Customers), Encryptus's /v1 after them; the license is text, not a link to nowhere.
    const groups = await page.locator('.opblock-tag-section .opblock-tag').allInnerTexts();
    expect(groups[0]).toMatch(/^Customers/);
    expect(groups.findIndex((g) => g.includes('(/v1)'))).toBeGreaterThan(groups.findIndex((g) => g.startsWith('Webhooks')));
    expect(await page.locator('.info').innerText()).toContain('Proprietary');
    expect(await page.locator('.info a[href*="spdx"], .info a[href*="UNLICENSED"]').count()).toBe(0);

    mkdirSync('test-artifacts', { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: false });
    expect(statSync(SCREENSHOT).size).toBeGreaterThan(10_000);
    expect(problems).toEqual([]);
  }, 120_000);

  it('is linked from /docs, whose error table anchors each code a problem type points to', async () => {
    const page = await env.browser.newPage();
    await page.goto(`${env.t.url}/docs`);
    expect(await page.locator('a[href="/docs/api"]').count()).toBeGreaterThan(0);
    const problem = await env.t.client(env.t.key).get('/v0/customers/00000000-0000-4000-8000-000000000000');
    expect(problem.body.type).toBe(`${env.t.url}/docs#not_found`);
    await page.goto(problem.body.type);
    expect(await page.locator('#not_found').innerText()).toContain('not_found');
  }, 60_000);

  it('keeps every code block of the /docs guide within the page on a narrow screen: wrapped, never cut off on the right', async () => {
    const page = await env.browser.newPage({ viewport: { width: 480, height: 800 } });
    await page.goto(`${env.t.url}/docs`);
    const blocks = await page.evaluate(() => [...document.querySelectorAll('pre')].map((pre) => pre.scrollWidth - pre.clientWidth));
    expect(blocks.length).toBeGreaterThan(20);
    expect(blocks.filter((overflow) => overflow > 1)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  }, 60_000);
});
