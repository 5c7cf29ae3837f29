import { Migration } from '@mikro-orm/migrations';

const list = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');
const FIAT = ['usd', 'eur', 'aed'];
const TOKENS = ['usdc', 'usdt'];
const ASSETS = [...FIAT, ...TOKENS];
const NETWORKS = ['polygon', 'ethereum', 'solana', 'base', 'tron', 'arbitrum'];
const RAILS = ['ach', 'wire', 'swift', 'sepa', 'uaefts'];
const STATUSES = ['pending', 'processing', 'completed', 'failed', 'refunded', 'canceled', 'expired'];
const MOVEMENTS = ['deposit', 'fees', 'conversion', 'payout', 'refund'];
const ACCOUNTS = ['customer_funds', 'bank', 'wallet', 'conversion', 'platform_fees', 'developer_fees', 'network_fees'];
// Align's 30 transfer purposes (src/domain/transfer-purpose.ts); copied, since a migration never changes.
const PURPOSES = [
  'charity',
  'commercial_investment',
  'corporate_card',
  'credit_card',
  'dividend',
  'family',
  'financial_services',
  'good_sold',
  'goods_bought',
  'government',
  'insurance',
  'intergroup_transfer',
  'intra_group_dividends',
  'information_technology',
  'leasing',
  'loan_charges',
  'merchant_settlement',
  'mobile_wallet',
  'none',
  'non_resident_transfer_between_accounts',
  'pension',
  'personal_expenses',
  'prepaid_cards',
  'professional',
  'rental',
  'resident_transfer_between_accounts',
  'salaries',
  'telecommunications',
  'travel',
  'utility_bill',
];

/** Quotes, on-ramp and off-ramp transfers, their status history, and the double-entry ledger. */
export class Migration20261122000500_transfers extends Migration {
  override name = 'Migration20261122000500_transfers';

  override up(): void {
    this.addSql(`create table quotes (
      id uuid primary key,
      partner_id uuid not null references partners(id),
      environment text not null check (environment in ('sandbox', 'production')),
      customer_id uuid not null references customers(id),
      direction text not null check (direction in ('onramp', 'offramp')),
      source_currency text not null check (source_currency in (${list(ASSETS)})),
      source_rails text check (source_rails in (${list(RAILS)})),
      source_network text check (source_network in (${list(NETWORKS)})),
      destination_currency text not null check (destination_currency in (${list(ASSETS)})),
      destination_rails text check (destination_rails in (${list(RAILS)})),
      destination_network text check (destination_network in (${list(NETWORKS)})),
      requested_side text not null check (requested_side in ('source', 'destination')),
      source_amount numeric(38,18) not null check (source_amount > 0 and source_amount = round(source_amount, 6)),
      destination_amount numeric(38,18) not null check (destination_amount > 0 and destination_amount = round(destination_amount, 6)),
      exchange_rate numeric(38,18) not null check (exchange_rate > 0),
      platform_fee numeric(38,18) not null check (platform_fee >= 0),
      developer_fee numeric(38,18) not null check (developer_fee >= 0),
      network_fee numeric(38,18) not null check (network_fee >= 0),
      fee_amount numeric(38,18) not null,
      developer_fee_percent numeric(11,8) not null check (developer_fee_percent between 0 and 100),
      platform_fee_bps integer not null check (platform_fee_bps between 0 and 10000),
      expires_at timestamptz not null,
      created_at timestamptz not null,
      constraint quotes_fee_parts check (fee_amount = platform_fee + developer_fee + network_fee),
      constraint quotes_fees_below_amount check (fee_amount < source_amount),
      constraint quotes_expire_after_creation check (expires_at > created_at),
      constraint quotes_direction_shape check (
        (direction = 'onramp' and source_currency in (${list(FIAT)}) and source_rails is not null and source_network is null
          and destination_currency in (${list(TOKENS)}) and destination_network is not null and destination_rails is null)
        or (direction = 'offramp' and source_currency in (${list(TOKENS)}) and source_network is not null and source_rails is null
          and destination_currency in (${list(FIAT)}) and destination_rails is not null and destination_network is null))
    )`);
    this.addSql(`create index quotes_customer on quotes (partner_id, environment, customer_id, created_at)`);

    this.addSql(`create table transfers (
      id uuid primary key,
      partner_id uuid not null references partners(id),
      environment text not null check (environment in ('sandbox', 'production')),
      customer_id uuid not null references customers(id),
      quote_id uuid not null references quotes(id),
      direction text not null check (direction in ('onramp', 'offramp')),
      status text not null check (status in (${list(STATUSES)})),
      destination_address text,
      deposit_bank_account jsonb,
      deposit_message text,
      payout_transaction_hash text,
      virtual_account_id uuid references virtual_accounts(id),
      destination_bank_account jsonb,
      destination_external_account_id uuid references external_accounts(id),
      transfer_purpose text check (transfer_purpose in (${list(PURPOSES)})),
      deposit_blockchain_address text,
      deposit_transaction_hash text,
      funds_received_at timestamptz,
      failure_reason text,
      deposit_expires_at timestamptz not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint transfers_one_per_quote unique (quote_id),
      constraint transfers_deposit_reference_unique unique (deposit_message),
      constraint transfers_deposit_hash_once unique (environment, deposit_transaction_hash),
      constraint transfers_direction_shape check (
        (direction = 'onramp' and destination_address is not null and deposit_bank_account is not null and deposit_message is not null
          and destination_bank_account is null and transfer_purpose is null and deposit_blockchain_address is null)
        or (direction = 'offramp' and destination_bank_account is not null and transfer_purpose is not null
          and deposit_blockchain_address is not null and destination_address is null and deposit_message is null)),
      constraint transfers_processing_has_funds check (status not in ('processing', 'completed', 'refunded') or funds_received_at is not null)
    )`);
    this.addSql(`create index transfers_page on transfers (partner_id, environment, created_at, id)`);
    this.addSql(`create index transfers_customer on transfers (partner_id, environment, customer_id, direction, created_at)`);
    // What the jobs scan: pending transfers by deadline, processing ones by last change.
    this.addSql(`create index transfers_pending_deadline on transfers (deposit_expires_at) where status = 'pending'`);
    this.addSql(`create index transfers_processing_since on transfers (updated_at) where status = 'processing'`);

    this.addSql(`create table transfer_status_history (
      id bigserial primary key,
      transfer_id uuid not null references transfers(id),
      from_status text check (from_status in (${list(STATUSES)})),
      to_status text not null check (to_status in (${list(STATUSES)})),
      reason text not null,
      created_at timestamptz not null
    )`);
    this.addSql(`create index transfer_status_history_transfer on transfer_status_history (transfer_id, id)`);

    this.addSql(`create table ledger_transactions (
      id uuid primary key,
      partner_id uuid not null references partners(id),
      environment text not null check (environment in ('sandbox', 'production')),
      transfer_id uuid not null references transfers(id),
      movement text not null check (movement in (${list(MOVEMENTS)})),
      created_at timestamptz not null,
      constraint ledger_transactions_once unique (transfer_id, movement)
    )`);
    this.addSql(`create table ledger_entries (
      id bigserial primary key,
      transaction_id uuid not null references ledger_transactions(id),
      partner_id uuid not null references partners(id),
      environment text not null check (environment in ('sandbox', 'production')),
      transfer_id uuid not null references transfers(id),
      movement text not null check (movement in (${list(MOVEMENTS)})),
      account text not null check (account in (${list(ACCOUNTS)})),
      currency text not null check (currency in (${list(ASSETS)})),
      amount numeric(38,18) not null check (amount <> 0),
      created_at timestamptz not null
    )`);
    this.addSql(`create index ledger_entries_transaction on ledger_entries (transaction_id)`);
    this.addSql(`create index ledger_entries_transfer on ledger_entries (transfer_id, id)`);
    this.addSql(`create index ledger_entries_balance on ledger_entries (partner_id, environment, account, currency)`);
    // The domain checks every posting balances before writing; the database checks again at
    // commit, so no code path (or hand-written SQL) can leave an unbalanced transaction behind.
    this.addSql(`create function ledger_transaction_balances() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from ledger_entries where transaction_id = new.transaction_id
                   group by currency having sum(amount) <> 0) then
          raise exception 'ledger transaction % does not balance', new.transaction_id using errcode = '23514';
        end if;
        return null;
      end
    $$`);
    this.addSql(`create constraint trigger ledger_entries_balance_check after insert or update on ledger_entries
      deferrable initially deferred for each row execute function ledger_transaction_balances()`);
    // Corrections are new postings, never edits: the ledger is append-only.
    this.addSql(`create function ledger_append_only() returns trigger language plpgsql as $$
      begin
        raise exception 'the ledger is append-only' using errcode = '23514';
      end
    $$`);
    this.addSql(`create trigger ledger_entries_append_only before update or delete on ledger_entries
      for each row execute function ledger_append_only()`);
    this.addSql(`create trigger ledger_transactions_append_only before update or delete on ledger_transactions
      for each row execute function ledger_append_only()`);
  }
}
