import { describe, expect, it } from 'vitest';
import { haveChromium, useRampInBrowser, watchProblems } from '../../support/clients/browser.js';

const env = useRampInBrowser();

describe.skipIf(!haveChromium)('GraphiQL in a real browser, under our Content-Security-Policy', () => {
  it('loads, runs a query with an API key, and the browser reports no CSP violation', async () => {
    const page = await env.browser.newPage();
    const problems = watchProblems(page);
    page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.url()}`));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
    });

    const response = await page.goto(`${env.t.url}/graphql`);
    expect(response!.headers()['content-security-policy']).toContain('script-src');
    // The editor is Monaco, started from blob: workers; the run button appears once GraphiQL has rendered.
    const run = page.locator('.graphiql-execute-button');
    await run.waitFor({ timeout: 60_000 });

    // The welcome comment fits the query editor, which does not wrap: every line ends inside it on a 1280-pixel screen.
    const editor = page.locator('.graphiql-query-editor .monaco-editor').first();
    await expect.poll(() => editor.locator('.view-line').count(), { timeout: 10_000 }).toBeGreaterThan(7);
    const beyond = await editor.evaluate((root) => {
      const right = root.querySelector('.monaco-scrollable-element')!.getBoundingClientRect().right;
      return [...root.querySelectorAll('.view-line > span')].filter((line) => line.getBoundingClientRect().right > right).map((line) => line.textContent);
    });
    expect(beyond).toEqual([]);
    expect(await editor.locator('.view-line').first().innerText()).toMatch(/Welcome\sto\sRamp/); // Monaco draws spaces as no-break spaces
    // Its icon is Ramp's, served here (the browser asks /favicon.ico of any page that names none).
    expect(await page.locator('link[rel="icon"]').getAttribute('href')).toBe('/favicon.ico');

    // The schema loads with the placeholder key the Headers pane opens with: the Docs pane shows the root types.
    await page.getByRole('button', { name: /documentation explorer/i }).click();
    await expect.poll(() => page.locator('.graphiql-doc-explorer').innerText(), { timeout: 30_000 }).toMatch(/Query/);
    await page.getByRole('button', { name: /documentation explorer/i }).click(); // closed again, for room
    const headers = page.locator('section[aria-label="Headers"] .graphiql-editor:not(.hidden) .view-lines');
    await expect.poll(() => headers.innerText(), { timeout: 10_000 }).toContain('Bearer');

    // The API key replaces the placeholder, as the welcome comment says; the default query lists customers.
    const created = await env.t.client(env.t.key).post('/v0/customers', { email: 'browser@example.com', type: 'corporate', company_name: 'Browser' });
    await headers.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(JSON.stringify({ Authorization: `Bearer ${env.t.key}` }));
    const answered = page.waitForResponse((r) => r.url().endsWith('/graphql') && r.request().postData()?.includes('customers') === true);
    await run.click();
    const result = await (await answered).json();
    expect(result.data.customers.edges.length).toBeGreaterThan(0);
    // The welcome query shows the Relay conventions: totalCount, a global id and the REST id beside it.
    expect(result.data.customers.totalCount).toBe(result.data.customers.edges.length);
    expect(result.data.customers.edges).toContainEqual({
      node: expect.objectContaining({ id: expect.any(String), databaseId: created.body.customer_id, type: 'CORPORATE' }),
    });
    await expect.poll(() => page.locator('.graphiql-response').innerText(), { timeout: 10_000 }).toContain('browser@example.com');

    expect(problems).toEqual([]);
  }, 120_000);
});
