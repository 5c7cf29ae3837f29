import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient, TestRamp } from '../support/ramp.js';
import {
  ageTransfer,
  createCustomer,
  ibanAccount,
  idempotencyKey,
  ledgerSums,
  offrampQuoteBody,
  onrampQuoteBody,
  txHash,
  useTransferFixture,
  wallet,
} from '../support/data/transfers.js';

const fixture = useTransferFixture({ platformFeeBps: 75 });
let t: TestRamp;
let api: ApiClient;
let customerId: string;
beforeAll(() => {
  ({ t, api, customerId } = fixture);
});

/** One thing a partner, the sandbox or the clock can do to a transfer. */
type Operation =
  | { kind: 'create_onramp'; currency: 'usd' | 'eur' | 'aed'; amount: string; fee: string }
  | { kind: 'create_offramp'; token: 'usdc' | 'usdt'; amount: string; fee: string }
  | { kind: 'deposit' | 'complete' | 'settle' | 'fail' | 'refund' | 'cancel' | 'expire'; pick: number };

const RAILS = { usd: 'wire', eur: 'sepa', aed: 'uaefts' } as const;
const amountArb = fc.integer({ min: 500, max: 5_000_000 }).map((cents) => (cents / 100).toFixed(2));
const feeArb = fc.constantFrom('0', '0.5', '1.25', '3');
const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({
    kind: fc.constant('create_onramp' as const),
    currency: fc.constantFrom('usd' as const, 'eur' as const, 'aed' as const),
    amount: amountArb,
    fee: feeArb,
  }),
  fc.record({ kind: fc.constant('create_offramp' as const), token: fc.constantFrom('usdc' as const, 'usdt' as const), amount: amountArb, fee: feeArb }),
  fc.record({ kind: fc.constantFrom('deposit', 'complete', 'settle', 'fail', 'refund', 'cancel', 'expire') as fc.Arbitrary<'deposit'>, pick: fc.nat() }),
);

interface Made {
  id: string;
  direction: 'onramp' | 'offramp';
}

async function apply(op: Operation, made: Made[]): Promise<number> {
  if (op.kind === 'create_onramp') {
    const quote = await api.post(
      `/v0/customers/${customerId}/onramp-transfer/quote`,
      onrampQuoteBody({ source_amount: op.amount, source_currency: op.currency, source_payment_rails: RAILS[op.currency], developer_fee_percent: op.fee }),
    );
    if (quote.status !== 201) return quote.status;
    const res = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote/${quote.body.quote_id}`, { destination_address: wallet() });
    made.push({ id: res.body.id, direction: 'onramp' });
    return res.status;
  }
  if (op.kind === 'create_offramp') {
    const body = offrampQuoteBody({
      source_amount: op.amount,
      source_token: op.token,
      developer_fee_percent: op.fee,
      destination_bank_account: ibanAccount(),
      transfer_purpose: 'travel',
    });
    const res = await api.post(`/v0/customers/${customerId}/offramp-transfer/quote`, body, idempotencyKey());
    if (res.status === 201) made.push({ id: res.body.transfer_id, direction: 'offramp' });
    return res.status;
  }
  if (!made.length) return 0;
  const target = made[op.pick % made.length]!;
  const simulate = (action: string) => api.post(`/v0/customers/${customerId}/${target.direction}-transfer/simulate`, { action, transfer_id: target.id });
  switch (op.kind) {
    case 'deposit':
      return (await simulate('fiat_deposit')).status;
    case 'complete':
      return (await api.post(`/v0/customers/${customerId}/offramp-transfer/${target.id}/complete`, { deposit_transaction_hash: txHash() }, idempotencyKey()))
        .status;
    case 'settle':
      return (await simulate('complete_transfer')).status;
    case 'fail':
      return (await simulate('fail_transfer')).status;
    case 'refund':
      return (await simulate('refund_transfer')).status;
    case 'cancel':
      return (await api.graphql(`mutation ($id: ID!) { cancelTransfer(input: { transferId: $id }) { __typename } }`, { id: target.id })).status;
    case 'expire':
      await ageTransfer(t, target.id);
      await t.ramp.jobs.runOnce();
      return 200;
  }
}

describe('the ledger over random operations', () => {
  it('sums to zero per currency, per ledger transaction and overall, and customer funds match what transfers hold', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 14 }), async (operations) => {
        const made: Made[] = [];
        for (const op of operations) {
          const status = await apply(op, made);
          expect([0, 200, 201, 400, 404, 409, 422]).toContain(status);
        }
        for (const sum of Object.values(await ledgerSums(t))) expect(Number(sum)).toBe(0);
        const unbalanced = await t.sql('select transaction_id, currency from ledger_entries group by transaction_id, currency having sum(amount) <> 0');
        expect(unbalanced).toEqual([]);
        // Money is held for a transfer exactly while it is processing or failed-after-deposit.
        const held = await t.sql<{ status: string; held: string; funded: boolean }>(
          `select t.status, coalesce(-sum(e.amount) filter (where e.account = 'customer_funds'), 0)::text as held, t.funds_received_at is not null as funded
           from transfers t left join ledger_entries e on e.transfer_id = t.id group by t.id`,
        );
        for (const row of held) {
          const holds = row.status === 'processing' || (row.status === 'failed' && row.funded);
          expect(Number(row.held) > 0, JSON.stringify(row)).toBe(holds);
        }
        // Each movement of a transfer was posted at most once.
        const twice = await t.sql('select transfer_id, movement from ledger_transactions group by transfer_id, movement having count(*) > 1');
        expect(twice).toEqual([]);
      }),
      { numRuns: 8 },
    );
  });
});

describe('the database guards the ledger', () => {
  async function settledTransfer() {
    const quote = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote`, onrampQuoteBody());
    const transfer = (await api.post(`/v0/customers/${customerId}/onramp-transfer/quote/${quote.body.quote_id}`, { destination_address: wallet() })).body;
    await api.post(`/v0/customers/${customerId}/onramp-transfer/simulate`, { action: 'fiat_deposit', transfer_id: transfer.id });
    const [entry] = await t.sql<{ transaction_id: string; partner_id: string }>(
      'select transaction_id, partner_id from ledger_entries where transfer_id = ? limit 1',
      [transfer.id],
    );
    return { transfer, entry: entry! };
  }

  it('refuses at commit a ledger transaction that does not balance', async () => {
    const { transfer, entry } = await settledTransfer();
    await expect(
      t.sql(
        `insert into ledger_entries (transaction_id, partner_id, environment, transfer_id, movement, account, currency, amount, created_at)
         values (?, ?, 'sandbox', ?, 'deposit', 'bank', 'eur', 1, now())`,
        [entry.transaction_id, entry.partner_id, transfer.id],
      ),
    ).rejects.toThrow(/does not balance/);
  });

  it('refuses to edit or delete an entry (append-only) and to post a movement twice', async () => {
    const { transfer, entry } = await settledTransfer();
    await expect(t.sql('update ledger_entries set amount = amount * 2 where transfer_id = ?', [transfer.id])).rejects.toThrow(/append-only/);
    await expect(t.sql('delete from ledger_entries where transfer_id = ?', [transfer.id])).rejects.toThrow(/append-only/);
    await expect(
      t.sql(
        `insert into ledger_transactions (id, partner_id, environment, transfer_id, movement, created_at) values (gen_random_uuid(), ?, 'sandbox', ?, 'deposit', now())`,
        [entry.partner_id, transfer.id],
      ),
    ).rejects.toThrow(/ledger_transactions_once/);
  });
});

describe('accountInfo balances', () => {
  it('reports reserved fiat and crypto from the ledger, and crypto thresholds with no minimum', async () => {
    const partner = t.client(await t.keyFor('Ledger Balances'));
    const customer = await createCustomer(partner);
    const quote = await partner.post(
      `/v0/customers/${customer}/offramp-transfer/quote`,
      offrampQuoteBody({ source_amount: '42.5', source_token: 'usdt', destination_bank_account: ibanAccount(), transfer_purpose: 'travel' }),
      idempotencyKey(),
    );
    await partner.post(
      `/v0/customers/${customer}/offramp-transfer/${quote.body.transfer_id}/complete`,
      { deposit_transaction_hash: txHash() },
      idempotencyKey(),
    );
    const { info } = (await partner.get('/v1/partners/accountInfo')).body;
    expect(info.reserved_crypto).toContainEqual({ coin: 'usdt', balance: '42.500000' });
    expect(info.reserved_crypto).toContainEqual({ coin: 'usdc', balance: '0.000000' });
    expect(info.reserved_fiat).toContainEqual({ currency: 'eur', balance: '0.00' });
    expect(info.crypto_threshold).toContainEqual({ coin: 'usdt', minimumThreshold: '0.000000', currentBalance: '42.500000', remainingBalance: '42.500000' });
    // Another partner's money is not in this partner's balances.
    const bystander = t.client(await t.keyFor('Ledger Bystander'));
    const theirs = (await bystander.get('/v1/partners/accountInfo')).body.info;
    expect(theirs.reserved_crypto).toContainEqual({ coin: 'usdt', balance: '0.000000' });
  });
});
