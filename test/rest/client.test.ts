import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printRestClientTypes } from '../../scripts/print-rest-client.js';
import { startRamp, type TestRamp } from '../support/ramp.js';
import { wallet } from '../support/data/transfers.js';

// Imported by path once the types are generated (the project's own tsc must not need generated files; tsc -p examples/rest-client checks them).
const EXAMPLE_CLIENT = '../../examples/rest-client/client.js';

let t: TestRamp;
beforeAll(async () => {
  t = await startRamp();
  await printRestClientTypes();
}, 120_000);
afterAll(() => t.close());

describe('a REST client generated from openapi.json (openapi-typescript + openapi-fetch)', () => {
  it('compiles strictly against the generated types', () => {
    expect(() =>
      execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'examples/rest-client'], { encoding: 'utf8', stdio: 'pipe' }),
    ).not.toThrow();
  }, 120_000);

  it('runs the on-ramp from a new customer to a completed transfer', async () => {
    const { rampClient, onrampFlow } = await import(EXAMPLE_CLIENT);
    const ramp = rampClient(t.url, await t.keyFor('Generated SDK Partner'));
    const transfer = await onrampFlow(ramp, { email: `sdk-${randomUUID()}@example.com`, walletAddress: wallet(), idempotencyKey: randomUUID() });
    expect(transfer).toMatchObject({ status: 'completed', source_currency: 'eur', destination_token: 'usdc', destination_address: wallet() });
    expect(transfer.destination_transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);
  });
});
