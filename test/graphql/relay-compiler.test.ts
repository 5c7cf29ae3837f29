import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres, startRamp, type TestRamp } from '../support/ramp.js';
import { createCustomer } from '../support/data/transfers.js';

/**
 * The Relay client operations under examples/relay compile with relay-compiler against schema.graphql
 * so a schema change that breaks a Relay client fails CI; the documents Relay
 * persists then run on Ramp as its trusted documents, @defer included.
 */
const EXAMPLES = resolve('examples/relay');
const ARTIFACTS = ['CustomerDetails_customer', 'CustomerDetailsRefetchQuery', 'CustomerTransfers_customer', 'CustomerTransfersPaginationQuery'];
const OPERATIONS = ['CustomerPageQuery', 'StartOnrampMutation', 'TransferUpdatesSubscription', ...ARTIFACTS];

/**
 * Compiles a copy of the examples against `schema` into a temporary directory: relay.config.json as
 * committed, the schema path made absolute, and Relay's persisted documents (SHA-256 → text) beside them.
 */
function compileRelay(schema: string): { dir: string; ok: boolean; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ramp-relay-'));
  cpSync(join(EXAMPLES, 'src'), join(dir, 'src'), { recursive: true, filter: (path) => !path.includes('__generated__') });
  mkdirSync(join(dir, 'src/__generated__'));
  const config = JSON.parse(readFileSync(join(EXAMPLES, 'relay.config.json'), 'utf8'));
  const persistConfig = { file: join(dir, 'persisted-documents.json'), algorithm: 'SHA256', include_query_text: true };
  writeFileSync(persistConfig.file, '{}'); // Relay adds to the file it finds
  writeFileSync(join(dir, 'relay.config.json'), JSON.stringify({ ...config, schema, persistConfig }));
  try {
    // The package's own launcher, run by this Node: it starts the native binary of this platform.
    const output = execFileSync(process.execPath, [resolve('node_modules/relay-compiler/cli.js'), join(dir, 'relay.config.json')], {
      cwd: dir,
      encoding: 'utf8',
      stdio: 'pipe',
    });
    return { dir, ok: true, output };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return { dir, ok: false, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

// Schema-level: it runs once, in the embedded-database project.
describe.skipIf(onPostgres)('Relay client operations (relay-compiler over schema.graphql)', () => {
  let compiled: ReturnType<typeof compileRelay>;
  let t: TestRamp;

  beforeAll(async () => {
    compiled = compileRelay(resolve('schema.graphql'));
    if (compiled.ok) t = await startRamp({ GRAPHQL_TRUSTED_DOCUMENTS: join(compiled.dir, 'persisted-documents.json') });
  }, 180_000);
  afterAll(() => t?.close());

  it('compiles the refetchable fragment, the paginated connection, the @prependNode mutation and the subscription', () => {
    expect(compiled.ok, compiled.output).toBe(true);
    const generated = readdirSync(join(compiled.dir, 'src/__generated__'));
    for (const name of [...OPERATIONS, 'TransferHistory_transfer']) expect(generated).toContain(`${name}.graphql.ts`);
    const mutation = readFileSync(join(compiled.dir, 'src/__generated__/StartOnrampMutation.graphql.ts'), 'utf8');
    expect(mutation).toContain('"handle": "prependNode"');
    const page = readFileSync(join(compiled.dir, 'src/__generated__/CustomerPageQuery.graphql.ts'), 'utf8');
    expect(page).toMatch(/"kind": "Defer"/);
  }, 60_000);

  it('fails, naming the field, when the schema stops serving what a Relay client selects', () => {
    const schema = readFileSync('schema.graphql', 'utf8');
    const broken = schema.replace(/^ {2}statusHistory: \[TransferStatusChange!\]!\n/gm, '');
    expect(broken).not.toBe(schema);
    const path = join(mkdtempSync(join(tmpdir(), 'ramp-relay-schema-')), 'schema.graphql');
    writeFileSync(path, broken);
    const failed = compileRelay(path);
    expect(failed.ok).toBe(false);
    expect(failed.output).toMatch(/statusHistory/);
  }, 60_000);

  it("runs Relay's persisted page query on Ramp by its hash: the customer first, the deferred transfers after", async () => {
    expect(compiled.ok, compiled.output).toBe(true);
    const persisted = JSON.parse(readFileSync(join(compiled.dir, 'persisted-documents.json'), 'utf8')) as Record<string, string>;
    const [id] = Object.entries(persisted).find(([, text]) => text.startsWith('query CustomerPageQuery')) ?? [];
    expect(id).toBeDefined();
    const customer = await createCustomer(t.client(t.key), { approved: false });
    const response = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json', accept: 'multipart/mixed' },
      body: JSON.stringify({ documentId: id, variables: { id: customer } }),
    });
    expect(response.headers.get('content-type')).toMatch(/^multipart\/mixed/);
    const parts = (await response.text())
      .split(/\r\n---/)
      .map((part) => part.slice(part.indexOf('\r\n\r\n') + 4).trim())
      .filter((part) => part.startsWith('{'))
      .map((part) => JSON.parse(part));
    expect(parts[0]).toMatchObject({ data: { customer: { databaseId: customer, kycs: { status: 'NOT_STARTED' } } }, hasNext: true });
    expect(parts[0].errors).toBeUndefined();
    const deferred = parts.slice(1).flatMap((part) => part.incremental ?? []);
    expect(deferred).toEqual([expect.objectContaining({ data: expect.objectContaining({ transfers: expect.objectContaining({ edges: [] }) }) })]);
    expect(existsSync(join(compiled.dir, 'src/__generated__/CustomerPageQuery.graphql.ts'))).toBe(true);
  });
});
