import { GraphQLScalarType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { features } from '../../src/features.js';
import { buildSchema } from '../../src/graphql/schema.js';
import { createLogger } from '../../src/platform/observability/logging.js';
import { capturedLog } from '../support/log-capture.js';
import { startRamp, type TestRamp } from '../support/ramp.js';

let t: TestRamp;
const log = capturedLog();

beforeAll(async () => {
  t = await startRamp({}, { logger: createLogger('trace', log.stream) });
});
afterAll(() => t.close());

describe('logs', () => {
  it('carry the request id and never the API key, even at trace level', async () => {
    const res = await t
      .client(t.key)
      .post('/v0/customers', { email: 'logs@example.com', type: 'corporate', company_name: 'Logs' }, { 'x-request-id': 'req-logging-0001' });
    expect(res.status).toBe(201);
    await t.client(t.key).graphql('{ customers { edges { node { id } } } }');
    const lines = log.lines();
    expect(lines.some((line) => line.reqId === 'req-logging-0001' || line.request_id === 'req-logging-0001')).toBe(true);
    expect(log.text()).not.toContain(t.key);
    expect(log.text()).not.toContain(t.key.slice(-32));
  });

  it('redact secrets, bank and document numbers wherever they sit in a logged object', () => {
    const written = capturedLog();
    const logger = createLogger('info', written.stream);
    logger.info({
      req: { headers: { authorization: 'Bearer rk_sandbox_secret' } },
      account: { iban: 'DE89370400440532013000', account_number: '123456789' },
      identifying_information: { id_document: { number: 'X1234567' } },
      secret: 'whsec_abc',
    });
    for (const value of ['rk_sandbox_secret', 'DE89370400440532013000', '123456789', 'X1234567', 'whsec_abc']) {
      expect(written.text()).not.toContain(value);
    }
    expect(written.text()).toContain('[redacted]');
  });
});

describe('bindings of child loggers (each request has one)', () => {
  it('write plain values as they are, and still redact a secret by its name or inside an object', () => {
    const written = capturedLog();
    const child = createLogger('info', written.stream).child({
      reqId: 'req-bindings-0001',
      attempt: 2,
      replayed: false,
      operationName: null,
      secret: 'whsec_bound',
      account: { iban: 'DE89370400440532013000', bank: 'Bound Bank' },
    });
    child.setBindings({ operationType: 'query' });
    child.info({ nested: { deeper: { apiKey: 'rk_live_bound' } } }, 'bound');
    const [line] = written.lines();
    expect(line).toMatchObject({ reqId: 'req-bindings-0001', attempt: 2, replayed: false, operationName: null, operationType: 'query' });
    expect(line).toMatchObject({ secret: '[redacted]', account: { iban: '[redacted]', bank: 'Bound Bank' }, nested: { deeper: { apiKey: '[redacted]' } } });
    for (const value of ['whsec_bound', 'DE89370400440532013000', 'rk_live_bound']) expect(written.text()).not.toContain(value);
  });
});

describe('client mistakes', () => {
  it('are logged below error level, each line with the id of the request that made it', async () => {
    const from = log.length;
    const api = t.client(t.key);
    const id = (n: number) => ({ 'x-request-id': `req-client-mistake-${n}` });
    const graphql = (n: number, raw: string) => api.request('POST', '/graphql', { raw, headers: { ...id(n), 'content-type': 'application/json' } });
    const query = (q: string) => JSON.stringify({ query: q });
    const answers = [
      await graphql(1, query('{ customers(first: -5) { edges { node { id } } } }')),
      await graphql(2, query('{ customers(first: 100000) { edges { node { id } } } }')),
      await graphql(3, query('{ customers(first: 5, after: "not-a-cursor") { edges { node { id } } } }')),
      await graphql(4, query('{ transfers(first: 5, after: "bm90IGEgY3Vyc29y") { edges { node { id } } } }')),
      await graphql(5, '{"query": "{ customers { edges'),
      await graphql(7, query('{ node(id: "garbage") { id } }')),
      await api.post('/v0/customers', { email: 'not-an-email', type: 'individual' }, id(8)),
      await api.request('POST', '/v0/customers', { raw: '{"email":', headers: { ...id(9), 'content-type': 'application/json' } }),
      await api.get('/v0/customers/not-a-uuid', id(10)),
      await api.get('/v0/events?limit=-1', id(11)),
    ];
    for (const answer of answers) expect(answer.status < 500, JSON.stringify(answer.body)).toBe(true);

    const lines = log.lines(from);
    expect(lines.length).toBeGreaterThan(answers.length);
    for (const line of lines) {
      expect(line.level, JSON.stringify(line)).toBeLessThan(50);
      expect(line.reqId, JSON.stringify(line)).toMatch(/^req-client-mistake-\d+$/);
    }
    // The GraphQL mistakes are logged with their code, like REST's.
    expect(lines.some((line) => line.reqId === 'req-client-mistake-1' && line.code)).toBe(true);
    expect(lines.some((line) => line.reqId === 'req-client-mistake-8' && line.code === 'validation_failed')).toBe(true);
  });
});

describe('the log stream', () => {
  it('gets no plain-text line from compiled queries: a DateTime, UUID or JSON literal is read without graphql-jit warning on stderr', async () => {
    const stderr = vi.spyOn(console, 'error').mockImplementation(() => {});
    const stderrWrites = vi.spyOn(process.stderr, 'write');
    try {
      const res = await t.client(t.key).graphql('{ transfers(first: 1, createdAfter: "2026-01-01T00:00:00Z") { edges { cursor } } }');
      expect(res.body).toEqual({ data: { transfers: { edges: [] } } });
      expect(stderr).not.toHaveBeenCalled();
      expect(stderrWrites).not.toHaveBeenCalled();
    } finally {
      stderr.mockRestore();
      stderrWrites.mockRestore();
    }
  });

  it('is kept clean by every scalar of the schema reading a literal with one argument, as graphql-jit supports', async () => {
    const schema = await buildSchema(features);
    const scalars = Object.values(schema.getTypeMap()).filter((type) => type instanceof GraphQLScalarType && !type.name.startsWith('__'));
    expect(scalars.length).toBeGreaterThan(4);
    for (const scalar of scalars as GraphQLScalarType[]) expect(scalar.parseLiteral.length, scalar.name).toBeLessThanOrEqual(1);
  });
});

describe('error logs', () => {
  it('keep the message of a database error but not its SQL values or failing row', () => {
    const written = capturedLog();
    const logger = createLogger('info', written.stream);
    const error = Object.assign(new Error('insert failed'), {
      query: "insert into accounts (iban) values ('DE89370400440532013000')",
      params: ['DE89370400440532013000'],
      detail: 'Failing row contains (DE89370400440532013000).',
    });
    logger.error({ err: error }, 'unexpected error');
    expect(written.text()).toContain('insert failed');
    expect(written.text()).not.toContain('DE89370400440532013000');
  });
});
