import { describe, expect, it } from 'vitest';
import { haveChromium, useRampInBrowser, watchProblems } from '../../support/clients/browser.js';

const env = useRampInBrowser();

describe.skipIf(!haveChromium)('the partner guide in a real browser', () => {
  it('opens from /, copies a code block with its button, and shows every error code on one line', async () => {
    const context = await env.browser.newContext({ viewport: { width: 800, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.t.url });
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(`${env.t.url}/`);
    expect(new URL(page.url()).pathname).toBe('/docs');

    const block = page.locator('pre').first();
    await block.locator('button.copy').click();
    await expect.poll(() => block.locator('button.copy').innerText()).toBe('Copied');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(await block.locator('code').innerText());

    // The error table: each code's box is one line high, on a screen narrower than the page's widest table.
    const lines = await page
      .locator('tr[id] > td:first-child > code')
      .evaluateAll((codes) => codes.map((code) => ({ code: code.textContent, lines: code.getClientRects().length })));
    expect(lines.length).toBeGreaterThan(50);
    expect(lines.filter((line) => line.lines !== 1)).toEqual([]);

    await page.locator('nav.pages a', { hasText: 'Errors' }).first().click();
    expect(new URL(page.url()).hash).toBe('#errors');
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
});
