import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxAddress } from '../../src/domain/identifiers/chain.js';
import { onPostgres, startRamp, type TestRamp } from '../support/ramp.js';

// The packages' own bin scripts, run by this Node (bin paths are not package exports).
const run = (script: string, ...args: string[]) => execFileSync(process.execPath, [`node_modules/${script}`, ...args], { encoding: 'utf8', stdio: 'pipe' });
const GENERATED = 'examples/graphql/generated';
// Imported by path once codegen has run (the project's own tsc must not need generated files; tsc -p examples/graphql checks them).
const EXAMPLE_CLIENT = '../../examples/graphql/client.js';
type Execute = (document: unknown, variables: unknown) => Promise<unknown>;
type CustomerInput = { email: string; type: string; firstName: string; lastName: string };
interface ExampleClient {
  rampClient(options: { url: string; apiKey: string; trustedDocuments?: boolean }): Execute;
  onboardCustomer(execute: Execute, input: CustomerInput): Promise<{ customer: { id: string; email: string }; kyc: { status: string } | null }>;
  whoAmI(execute: Execute): Promise<unknown>;
  startOnramp(
    execute: Execute,
    quote: Record<string, unknown>,
    destinationAddress: string,
  ): Promise<{ quote: { id: string; sourceAmount: string }; transfer: { databaseId: string; status: string } }>;
  allTransfers(execute: Execute, status: string, pageSize?: number): Promise<{ totalCount: number; rows: { id: string; status: string }[] }>;
}

/** What lines of generated types may say `any`/`unknown`: codegen's own plumbing, and the JSON scalar (open by design). */
const PLUMBING = [
  /^type Exact</,
  /__meta__\??: Record<string, any>/,
  /constructor\(value: string, __meta__/,
  / as unknown as TypedDocumentString</,
  // The schema's descriptions, as doc comments ("null when unknown"): words, not types.
  /^\s*(\/\*\*|\*)/,
  /^\s*JSON: \{ input: \{ \[key: string\]: unknown \}; output: \{ \[key: string\]: unknown \}; \}/,
];

// Schema-level: it runs once, in the embedded-database project (the generated files are shared by both).
describe.skipIf(onPostgres)('typed client operations (graphql-codegen over schema.graphql)', () => {
  let t: TestRamp;
  let trusted: TestRamp;

  beforeAll(async () => {
    run('@graphql-codegen/cli/esm/bin.js', '--config', 'graphql.config.yml', '--silent');
    t = await startRamp();
    trusted = await startRamp({ GRAPHQL_TRUSTED_DOCUMENTS: `${GENERATED}/persisted-documents.json` });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await trusted?.close();
  });

  it('compiles the example client and its operations with tsc --strict', () => {
    expect(() => run('typescript/bin/tsc', '-p', 'examples/graphql')).not.toThrow();
  }, 120_000);

  it('types every field: no any or unknown outside the JSON scalar', () => {
    const loose = readFileSync(`${GENERATED}/graphql.ts`, 'utf8')
      .split('\n')
      .filter((line) => /\b(any|unknown)\b/.test(line) && !PLUMBING.some((p) => p.test(line)));
    expect(loose).toEqual([]);
    // Ids and UUIDs are strings, enums unions of their SCREAMING_SNAKE values.
    const types = readFileSync(`${GENERATED}/graphql.ts`, 'utf8');
    expect(types).toMatch(
      /export type CustomerWithKycQuery = \{ customer: \{ id: string, databaseId: string, email: string, type: CustomerType, kycs: \{ status: KycStatus,/,
    );
    // Each value carries its description as a doc comment.
    expect(types).toMatch(/export type KycStatus =\s*\/\*\* [^*]+ \*\/\s*\| 'APPROVED'/);
    // Money is a string (Decimal), never a number.
    expect(types).toMatch(/quote: \{ id: string, sourceAmount: string, sourceCurrency: Asset, destinationAmount: string,/);
  });

  it('runs the examples against Ramp, typed end to end', async () => {
    const { rampClient, onboardCustomer, whoAmI } = (await import(EXAMPLE_CLIENT)) as ExampleClient;
    const execute = rampClient({ url: t.url, apiKey: t.key });
    expect(await whoAmI(execute)).toMatchObject({ name: 'Demo Partner', activeEnvironment: 'SANDBOX' });
    const { customer, kyc } = await onboardCustomer(execute, { email: 'typed@example.com', type: 'INDIVIDUAL', firstName: 'Ada', lastName: 'Lovelace' });
    expect(customer.email).toBe('typed@example.com');
    expect(kyc?.status).toBe('APPROVED');
    await expect(onboardCustomer(execute, { email: 'not-an-email', type: 'INDIVIDUAL', firstName: 'Ada', lastName: 'Lovelace' })).rejects.toThrow(
      /VALIDATION_FAILED.*\/email invalid_email/,
    );
  });

  it('quotes and starts an on-ramp, reports every problem of a bad quote, and pages the transfers', async () => {
    const { rampClient, onboardCustomer, startOnramp, allTransfers } = (await import(EXAMPLE_CLIENT)) as ExampleClient;
    const execute = rampClient({ url: t.url, apiKey: t.key });
    const { customer } = await onboardCustomer(execute, { email: 'payer@example.com', type: 'INDIVIDUAL', firstName: 'Ada', lastName: 'Lovelace' });
    const quote = {
      customerId: customer.id,
      sourceAmount: '100.00',
      sourceCurrency: 'EUR',
      sourcePaymentRails: 'SEPA',
      destinationToken: 'USDC',
      destinationNetwork: 'POLYGON',
    };
    const address = sandboxAddress('polygon', 'typed-client');
    const started = await Promise.all([startOnramp(execute, quote, address), startOnramp(execute, quote, address)]);
    expect(started.map((s) => s.transfer.status)).toEqual(['PENDING', 'PENDING']);
    expect(started[0]?.quote.sourceAmount).toBe('100.00');
    const refused = await startOnramp(execute, { ...quote, sourceAmount: '0', sourcePaymentRails: 'ACH' }, address).catch((error: Error) => error.message);
    expect(refused).toMatch(/^VALIDATION_FAILED: /);
    expect(refused).toContain('/sourceAmount not_positive');
    expect(refused).toContain('/sourcePaymentRails');
    const pending = await allTransfers(execute, 'PENDING', 1);
    expect(pending.totalCount).toBe(2);
    expect(pending.rows.map((r) => r.status)).toEqual(['PENDING', 'PENDING']);
  });

  it('runs the same operations by hash alone on a server limited to the generated trusted documents', async () => {
    const { rampClient, onboardCustomer } = (await import(EXAMPLE_CLIENT)) as ExampleClient;
    const execute = rampClient({ url: trusted.url, apiKey: trusted.key, trustedDocuments: true });
    const { kyc } = await onboardCustomer(execute, { email: 'trusted@example.com', type: 'INDIVIDUAL', firstName: 'Ada', lastName: 'Lovelace' });
    expect(kyc?.status).toBe('APPROVED');
    const arbitrary = await trusted.client(trusted.key).graphql('{ customers { totalCount } }');
    expect(arbitrary.body.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_ONLY');
  });
});
