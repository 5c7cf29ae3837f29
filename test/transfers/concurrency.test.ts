import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, type ApiResponse, onPostgres, startRamp, type TestRamp } from '../support/ramp.js';
import {
  ageTransfer,
  createCustomer,
  ibanAccount,
  idempotencyKey,
  ledgerSums,
  offrampQuoteBody,
  onrampQuoteBody,
  txHash,
  wallet,
} from '../support/data/transfers.js';

// Races need real connections in parallel: PGlite is one connection, so these run on PostgreSQL only.
describe.skipIf(!onPostgres)('concurrent requests on one transfer (PostgreSQL)', () => {
  let t: TestRamp;
  let api: ApiClient;
  let customerId: string;

  beforeAll(async () => {
    t = await startRamp();
    api = t.client(t.key);
    customerId = await createCustomer(api);
  });
  afterAll(() => t.close());

  const times = <T>(n: number, f: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => f(i)));
  const statuses = (responses: ApiResponse[]) => responses.map((r) => r.status).sort();

  async function pendingOfframp() {
    const quote = await api.post(
      `/v0/customers/${customerId}/offramp-transfer/quote`,
      offrampQuoteBody({ destination_bank_account: ibanAccount(), transfer_purpose: 'travel' }),
      idempotencyKey(),
    );
    expect(quote.status).toBe(201);
    return quote.body.transfer_id as string;
  }
  const complete = (id: string, hash: string, key: string) =>
    api.post(`/v0/customers/${customerId}/offramp-transfer/${id}/complete`, { deposit_transaction_hash: hash }, { 'idempotency-key': key });
  const depositPostings = (id: string) => t.sql(`select id from ledger_entries where transfer_id = ? and movement = 'deposit'`, [id]);
  const moves = (id: string, to: string) => t.sql('select id from transfer_status_history where transfer_id = ? and to_status = ?', [id, to]);

  it('creates exactly one transfer from 20 parallel requests on one quote; the others get 422 quote_used', async () => {
    const quote = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote`, onrampQuoteBody());
    const responses = await times(20, () =>
      api.post(`/v0/customers/${customerId}/onramp-transfer/quote/${quote.body.quote_id}`, { destination_address: wallet() }),
    );
    expect(statuses(responses)).toEqual([201, ...Array(19).fill(422)]);
    expect(responses.filter((r) => r.status === 422).every((r) => r.body.code === 'quote_used')).toBe(true);
    expect(await t.sql('select id from transfers where quote_id = ?', [quote.body.quote_id])).toHaveLength(1);
    const created = responses.find((r) => r.status === 201)!.body.id;
    expect(await t.sql(`select id from events where entity_id = ? and type = 'onramp_transfer.created'`, [created])).toHaveLength(1);
  });

  it('replays one response to 20 parallel completes with the same Idempotency-Key', async () => {
    const id = await pendingOfframp();
    const key = randomUUID();
    const hash = txHash();
    // A repeat that arrives while the first is still running is told so (409 idempotency_key_in_use);
    // a client retries it, and then gets the stored response.
    const completeRetrying = async (): Promise<ApiResponse> => {
      for (;;) {
        const res = await complete(id, hash, key);
        if (res.status !== 409 || res.body.code !== 'idempotency_key_in_use') return res;
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const responses = await times(20, completeRetrying);
    expect(responses.every((r) => r.status === 200)).toBe(true);
    for (const r of responses) expect(r.body).toEqual(responses[0]!.body);
    expect(responses.filter((r) => r.headers.get('idempotent-replayed') !== 'true')).toHaveLength(1);
    expect(await moves(id, 'processing')).toHaveLength(1);
    expect(await depositPostings(id)).toHaveLength(2);
  });

  it('lets exactly one of 20 parallel completes with different keys win; the rest get 409', async () => {
    const id = await pendingOfframp();
    const responses = await times(20, () => complete(id, txHash(), randomUUID()));
    expect(statuses(responses)).toEqual([200, ...Array(19).fill(409)]);
    const winner = responses.find((r) => r.status === 200)!;
    expect((await api.get(`/v0/customers/${customerId}/offramp-transfer/${id}`)).body.quote.deposit_transaction_hash).toBe(
      winner.body.quote.deposit_transaction_hash,
    );
    expect(await moves(id, 'processing')).toHaveLength(1);
    expect(await depositPostings(id)).toHaveLength(2);
  });

  it('settles once under 20 parallel settlements, posting fees, conversion and payout once', async () => {
    const id = await pendingOfframp();
    expect((await complete(id, txHash(), randomUUID())).status).toBe(200);
    const responses = await times(20, () =>
      api.post(`/v0/customers/${customerId}/offramp-transfer/simulate`, { action: 'complete_transfer', transfer_id: id }),
    );
    expect(statuses(responses)).toEqual([200, ...Array(19).fill(409)]);
    const movements = await t.sql<{ movement: string }>('select movement from ledger_transactions where transfer_id = ? order by created_at, movement', [id]);
    expect(movements.map((m) => m.movement).sort()).toEqual(['conversion', 'deposit', 'fees', 'payout']);
  });

  it('expires each overdue transfer once when several job runners race, and a racing deposit loses cleanly', async () => {
    const ids = await times(5, async () => {
      const quote = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote`, onrampQuoteBody());
      return (await api.post(`/v0/customers/${customerId}/onramp-transfer/quote/${quote.body.quote_id}`, { destination_address: wallet() })).body.id as string;
    });
    for (const id of ids) await ageTransfer(t, id);
    const [, , , deposit] = await Promise.all([
      t.ramp.jobs.runOnce(),
      t.ramp.jobs.runOnce(),
      t.ramp.jobs.runOnce(),
      api.post(`/v0/customers/${customerId}/onramp-transfer/simulate`, { action: 'fiat_deposit', transfer_id: ids[0] }),
    ]);
    // Whether it comes before the job (window passed: 422) or after it (expired: 409), the deposit is refused.
    expect([409, 422]).toContain(deposit.status);
    for (const id of ids) expect(await moves(id, 'expired'), id).toHaveLength(1);
    expect(await depositPostings(ids[0]!)).toEqual([]);
    expect(Object.values(await ledgerSums(t)).every((sum) => Number(sum) === 0)).toBe(true);
  });

  it('posts nothing twice anywhere', async () => {
    expect(await t.sql('select transfer_id, movement from ledger_transactions group by transfer_id, movement having count(*) > 1')).toEqual([]);
    expect(await t.sql(`select transfer_id, to_status from transfer_status_history group by transfer_id, to_status having count(*) > 1`)).toEqual([]);
  });
});
