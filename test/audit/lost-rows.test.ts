import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/observability/logging.js';
import { capturedLog } from '../support/log-capture.js';
import { startRamp, type TestRamp } from '../support/ramp.js';

/**
 * A refusal's audit row is written after the answer is decided, so a row that cannot be written must not change the
 * answer; it must not vanish either. Both faces log it as an error with the request's id (the table is taken away
 * in this file's own database to make every write of a row fail).
 */
describe('an audit row that cannot be written', () => {
  let t: TestRamp;
  const log = capturedLog();
  let from = 0;
  const lostRows = () => log.lines(from).filter((line) => line.msg === 'audit row not written');

  beforeAll(async () => {
    t = await startRamp({}, { logger: createLogger('warn', log.stream) });
    await t.sql('alter table audit_events rename to audit_events_taken_away');
  });
  afterAll(() => t?.close());

  it('over GraphQL: the refusal is answered as ever, and the lost row is logged as an error', async () => {
    from = log.length;
    const answer = await t
      .client(t.key)
      .graphql(
        'mutation { createCustomer(input: { type: INDIVIDUAL, email: "not an email", firstName: "Ada", lastName: "L" }) { __typename ... on ValidationError { code } } }',
      );
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data.createCustomer).toEqual({ __typename: 'ValidationError', code: 'VALIDATION_FAILED' });
    const [lost] = lostRows();
    expect(lost).toMatchObject({ level: 50, err: { message: expect.stringContaining('audit_events') } });
  });

  it('over REST: the same', async () => {
    from = log.length;
    const answer = await t.client(t.key).post('/v0/customers', { type: 'individual', email: 'not an email', first_name: 'Ada', last_name: 'L' });
    expect([answer.status, answer.body.code]).toEqual([400, 'validation_failed']);
    const [lost] = lostRows();
    expect(lost).toMatchObject({ level: 50, err: { message: expect.stringContaining('audit_events') } });
  });
});
