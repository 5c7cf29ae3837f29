import { Migration } from '@mikro-orm/migrations';

/**
 * The bank's messages in (modules/bank-payments): each camt.054 entry applied once, by the bank's reference, with
 * what it did (a credit applied to a transfer, held for return, unmatched, a payout returned); and each camt.053
 * statement's reconciliation against the ledger.
 */
export class Migration20261129060000_bank_entries extends Migration {
  override name = 'Migration20261129060000_bank_entries';

  override up(): void {
    this.addSql(`create table bank_entries (
      id uuid primary key,
      environment text not null check (environment in ('sandbox', 'production')),
      reference text not null,
      direction text not null check (direction in ('credit', 'debit')),
      outcome text not null check (outcome in ('credited', 'held', 'unmatched', 'returned', 'recorded')),
      reason text,
      amount numeric(38, 18) not null,
      currency text not null,
      booking_date date,
      account text,
      creditor_account text,
      remittance text,
      end_to_end_id text,
      transfer_id uuid,
      message_id text not null,
      file_name text not null,
      created_at timestamptz not null,
      constraint bank_entries_once unique (environment, reference)
    )`);
    // The operator's listing: credits Ramp holds and could not apply.
    this.addSql(`create index bank_entries_to_settle on bank_entries (created_at) where outcome in ('held', 'unmatched')`);
    // Reconciliation's look for what the ledger moved on the bank's word, by day.
    this.addSql('create index bank_entries_booked on bank_entries (environment, booking_date)');
    this.addSql(`create table bank_reconciliations (
      id uuid primary key,
      environment text not null check (environment in ('sandbox', 'production')),
      message_id text not null,
      statement_id text not null,
      account text,
      from_date date,
      to_date date,
      matched integer not null,
      unmatched jsonb not null,
      unexpected jsonb not null,
      missing jsonb not null,
      file_name text not null,
      created_at timestamptz not null,
      constraint bank_reconciliations_once unique (environment, message_id, statement_id)
    )`);
  }
}
