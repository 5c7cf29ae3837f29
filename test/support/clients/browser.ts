import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { DEFAULT_COST_BUCKET_SIZE } from '../../../src/platform/security/cost-budget.js';
import { DEFAULT_RATE_LIMIT_PER_MINUTE } from '../../../src/platform/security/rate-limit.js';
import { startRamp, type TestRamp } from '../ramp.js';

/**
 * The GraphQL cost budget and the request rate limit as production has them (NODE_ENV=test turns both off):
 * the browser suites run the console and the pages under the limits a partner's browser meets.
 */
export const PRODUCTION_LIMITS: Readonly<Record<string, string>> = {
  GRAPHQL_COST_BUCKET_SIZE: String(DEFAULT_COST_BUCKET_SIZE),
  RATE_LIMIT_PER_MINUTE: String(DEFAULT_RATE_LIMIT_PER_MINUTE),
};

/** Debian's chromium (`apt-get install chromium`, which .ci/run does when it is missing); CHROMIUM_PATH points elsewhere. */
export const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const haveChromium = existsSync(executablePath);

/** Headless Chromium as every browser test runs it: no sandbox (root in CI), no GPU, no background traffic. */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });

/** What a page reports going wrong: console errors, Content-Security-Policy violations and uncaught errors. */
export function watchProblems(page: Page, expected?: RegExp): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (expected?.test(message.text())) return;
    if (message.type() === 'error' || /Content.Security.Policy/i.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}

/** A Ramp under the production limits and a headless Chromium for one browser test file (started only where Chromium is installed). */
export function useRampInBrowser(env: Record<string, string> = {}): { readonly t: TestRamp; readonly browser: Browser } {
  const started = {} as { t: TestRamp; browser: Browser };
  beforeAll(async () => {
    if (!haveChromium) return;
    started.t = await startRamp({ ...PRODUCTION_LIMITS, ...env });
    started.browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await started.browser?.close();
    await started.t?.close();
  });
  return started;
}
