import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, onPostgres, startRamp, type TestRamp } from '../support/ramp.js';
import { createCustomer } from '../support/data/transfers.js';
import { waitFor } from '../support/clients/webhook-receiver.js';

/**
 * Admission control sheds what the instance can't carry, not what waited in its queue: places held by requests that
 * wait on a row lock (a database that is otherwise idle) let the next requests in beyond the cap, and only a saturated
 * instance (here, an event loop held in stretches longer than its limit) answers 503 `overloaded`. A table lock held from outside
 * needs a second session, which embedded PGlite hasn't: PostgreSQL only.
 */
describe.skipIf(!onPostgres)('admission control', () => {
  let t: TestRamp;
  let customerId: string;
  let locker: pg.Client;

  beforeAll(async () => {
    t = await startRamp({ ADMISSION_MAX_IN_FLIGHT: '1', ADMISSION_MAX_QUEUED: '16', ADMISSION_QUEUE_TIMEOUT_MS: '100', ADMISSION_LOOP_DELAY_LIMIT_MS: '250' });
    customerId = await createCustomer(t.client(t.key));
    locker = new pg.Client({ connectionString: t.ramp.config.DATABASE_URL });
    await locker.connect();
    // Start-up (migrations, the schema) holds the loop: let two readings of calm pass.
    await new Promise((resolve) => setTimeout(resolve, 1100));
  });
  afterAll(async () => {
    await locker.end();
    await t.close();
  });

  /** Holds every read of `customers` until `release` is called. */
  const lockCustomers = async () => {
    await locker.query('begin');
    await locker.query('lock table customers in access exclusive mode');
    return () => locker.query('commit');
  };
  /** Resolves once the read Ramp let in is waiting on the lock (its place is held by a lock, not by work). */
  const blockedOnTheLock = () =>
    waitFor(
      async () => {
        const { rows } = await locker.query<{ waiting: string }>(
          'select count(*) as waiting from pg_locks where not granted and database = (select oid from pg_database where datname = current_database())',
        );
        return Number(rows[0]?.waiting) > 0;
      },
      5000,
      'the first read to wait on the table lock',
    );
  /**
   * Holds the event loop in stretches of 400 ms, longer than the limit, with a breath of 10 ms between them, until
   * `work` settles: every reading of the loop (each 500 ms) shows it saturated however slow the machine is, and the
   * requests still move (they are received, queue and time out) in the breaths. One stretch held once left a slow
   * machine's requests to reach the queue after the next reading had found the loop calm.
   */
  const whileTheLoopIsSaturated = async <T>(work: () => Promise<T>): Promise<T> => {
    const hold = () => {
      const until = Date.now() + 400;
      while (Date.now() < until);
    };
    // The reading after this stretch already finds the loop saturated when the first request reaches the gate.
    hold();
    await new Promise((resolve) => setTimeout(resolve, 10));
    let settled = false;
    const running = work().finally(() => {
      settled = true;
    });
    while (!settled) {
      hold();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return running;
  };
  const reads = (n: number) => Array.from({ length: n }, () => t.client(t.key).get(`/v0/customers/${customerId}`));
  const statuses = (answers: ApiResponse[]) => answers.map((a) => `${a.status} ${a.body.code ?? ''}`.trim());

  it('admits requests beyond the cap when the places are held by requests waiting on a lock, not by a saturated instance', async () => {
    const release = await lockCustomers();
    const pending = reads(6);
    // Five of them waited in the queue three times its timeout, behind one held by the lock.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await release();
    expect(statuses(await Promise.all(pending))).toEqual(Array(6).fill('200'));
  });

  it('sheds the queued requests as 503 overloaded with Retry-After when the event loop is saturated', async () => {
    const release = await lockCustomers();
    const first = reads(1);
    await blockedOnTheLock();
    const queued = await whileTheLoopIsSaturated(() => Promise.all(reads(4)));
    await release();
    expect(statuses(queued)).toEqual(Array(4).fill('503 overloaded'));
    for (const answer of queued) expect(answer.headers.get('retry-after')).toBe('1');
    expect(statuses(await Promise.all(first))).toEqual(['200']);
  });

  it('writes no audit row for a write it sheds: the answer is about capacity, and the row would need the database', async () => {
    const release = await lockCustomers();
    const first = reads(1);
    await blockedOnTheLock();
    // Released after a while whatever happens: a write let in would wait for the lock, and then show as a 201.
    const released = new Promise((resolve) => setTimeout(resolve, 1000)).then(release);
    const writes = await whileTheLoopIsSaturated(() =>
      Promise.all(
        Array.from({ length: 3 }, (_, n) =>
          t.client(t.key).post('/v0/customers', { email: `shed-${n}-${Date.now()}@example.com`, type: 'individual', first_name: 'Ada', last_name: 'Lovelace' }),
        ),
      ),
    );
    await released;
    await Promise.all(first);
    expect(statuses(writes)).toEqual(Array(3).fill('503 overloaded'));
    const requestIds = writes.map((answer) => answer.headers.get('x-request-id'));
    expect(requestIds.every(Boolean)).toBe(true);
    expect(await t.sql('select request_id from audit_events where request_id in (?)', [requestIds])).toEqual([]);
  });
});
