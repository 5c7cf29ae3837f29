import { Migration } from '@mikro-orm/migrations';

/**
 * Fiat payouts through an ISO 20022 bank (modules/bank-payments): each credit transfer stored with its sealed pain.001
 * before the file is written, each status the bank reports applied once, and the payment's UETR on its transfer.
 */
export class Migration20261128150000_bank_payment_orders extends Migration {
  override name = 'Migration20261128150000_bank_payment_orders';

  override up(): void {
    this.addSql(`create table bank_payment_orders (
      id uuid primary key,
      transfer_id uuid not null unique,
      partner_id uuid not null,
      environment text not null check (environment in ('sandbox', 'production')),
      customer_id uuid not null,
      message_id text not null unique,
      end_to_end_id text not null unique,
      uetr uuid not null unique,
      file_name text not null,
      document text not null,
      status text not null check (status in ('stored', 'sent', 'accepted', 'rejected')),
      reason_code text,
      sent_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    // The sender job's one read: the orders whose file is not written yet.
    this.addSql(`create index bank_payment_orders_stored on bank_payment_orders (created_at) where status = 'stored'`);
    this.addSql(`create table bank_statuses_applied (
      key text primary key,
      order_id uuid not null references bank_payment_orders (id),
      status text not null,
      file_name text not null,
      created_at timestamptz not null
    )`);
    this.addSql('alter table transfers add column uetr uuid');
  }
}
