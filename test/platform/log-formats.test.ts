import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/platform/observability/logging.js';
import { migrate } from '../../src/platform/db/migrations.js';
import { freshDatabaseEnv, startRamp, type TestRamp } from '../support/ramp.js';

/** Logs readable in development (one line a request), JSON in production; start-up says what it does. */
const sink = () => {
  const stream = Object.assign(
    new Writable({
      write(chunk, _encoding, done) {
        stream.text += chunk.toString();
        done();
      },
    }),
    { text: '' },
  );
  return stream;
};

describe('LOG_FORMAT', () => {
  it('is pretty under NODE_ENV=development (npm start), JSON under production and test, and can be set either way', () => {
    expect(loadConfig({}).logFormat).toBe('pretty');
    expect(loadConfig({ NODE_ENV: 'development' }).logFormat).toBe('pretty');
    expect(
      loadConfig({
        NODE_ENV: 'production',
        WEBHOOK_SECRET_KEY: Buffer.alloc(32).toString('base64'),
        ENCRYPTION_MASTER_KEY: Buffer.alloc(32).toString('base64'),
      }).logFormat,
    ).toBe('json');
    expect(loadConfig({ NODE_ENV: 'test' }).logFormat).toBe('json');
    expect(loadConfig({ NODE_ENV: 'development', LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(
      loadConfig({
        NODE_ENV: 'production',
        WEBHOOK_SECRET_KEY: Buffer.alloc(32).toString('base64'),
        ENCRYPTION_MASTER_KEY: Buffer.alloc(32).toString('base64'),
        LOG_FORMAT: 'pretty',
      }).logFormat,
    ).toBe('pretty');
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
  });
});

describe('start-up', () => {
  const json = sink();
  let t: TestRamp;
  let database: Awaited<ReturnType<typeof freshDatabaseEnv>>;
  beforeAll(async () => {
    // An empty database, not the suite's migrated copy: this start must apply every migration.
    database = await freshDatabaseEnv();
    t = await startRamp(database.env, { logger: createLogger('info', json) });
  });
  afterAll(async () => {
    await t.close();
    await database.drop();
  });

  it('says what it does, one JSON line a step: the database, how many migrations, each one, how long they took', () => {
    const messages: string[] = json.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).msg);
    expect(messages[0]).toMatch(/^(connecting to PostgreSQL|opening the embedded PGlite database in memory:\/\/ \(a first start creates it\))…$/);
    const total = Number(/^applying (\d+) migrations…$/.exec(messages[1] ?? '')?.[1]);
    expect(total).toBeGreaterThan(10);
    const steps = messages.slice(2, 2 + total);
    for (const [i, step] of steps.entries()) expect(step).toMatch(new RegExp(`^ {2}migration ${i + 1}/${total}: Migration\\d{14}_\\w+$`));
    expect(messages[2 + total]).toMatch(/^migrations done in \d+\.\d s$/);
    expect(messages.some((m) => m.includes('[migrator]'))).toBe(false);
  });

  it('says nothing of migrations when the schema is current', async () => {
    const lines: string[] = [];
    const migrator = { getPending: async () => [], up: async () => [], on: () => migrator, off: () => migrator };
    await migrate(migrator as never, (line) => lines.push(line));
    expect(lines).toEqual([]);
  });
});

describe('the pretty format', () => {
  const pretty = sink();
  let t: TestRamp;
  beforeAll(async () => {
    t = await startRamp({}, { logger: createLogger('info', pretty, 'pretty') });
  });
  afterAll(() => t.close());

  it('writes one line a request: method, path, status and time, with its request id', async () => {
    const from = pretty.text.length;
    const api = t.client(t.key);
    expect(
      (await api.post('/v0/customers', { email: 'pretty@example.com', type: 'corporate', company_name: 'Pretty' }, { 'x-request-id': 'req-pretty-1' })).status,
    ).toBe(201);
    expect((await api.get('/v0/customers/not-a-uuid', { 'x-request-id': 'req-pretty-2' })).status).toBe(404);
    const lines = pretty.text.slice(from).trim().split('\n');
    for (const line of lines) expect(() => JSON.parse(line)).toThrow();
    const first = lines.filter((line) => line.endsWith('[req-pretty-1]'));
    expect(first).toHaveLength(1);
    expect(first[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}POST \/v0\/customers → 201 in \d+ ms {2}\[req-pretty-1\]$/);
    // A client's mistake keeps its own line (with its code), then the request's.
    const second = lines.filter((line) => line.endsWith('[req-pretty-2]'));
    expect(second).toHaveLength(2);
    expect(second[0]).toMatch(/INFO {2}client error code=not_found status=404 {2}\[req-pretty-2\]$/);
    expect(second[1]).toMatch(/INFO {2}GET \/v0\/customers\/not-a-uuid → 404 in \d+ ms {2}\[req-pretty-2\]$/);
  });

  it('still redacts keys and numbers, and shows an error’s stack under its line', () => {
    const out = sink();
    const logger = createLogger('info', out, 'pretty');
    logger.info({ account: { iban: 'DE89370400440532013000' }, authorization: 'Bearer rk_sandbox_secret' }, 'account seen');
    logger.error({ err: new Error('it broke') }, 'unexpected error');
    const [info, error, stack] = out.text.split('\n');
    expect(info).toMatch(/INFO {2}account seen account=\{"iban":"\[redacted\]"\} authorization=\[redacted\]$/);
    expect(error).toMatch(/ERROR unexpected error$/);
    expect(stack).toMatch(/^ {2}Error: it broke$/);
    expect(out.text).not.toContain('DE89370400440532013000');
    expect(out.text).not.toContain('rk_sandbox_secret');
  });
});
