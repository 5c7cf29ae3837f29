import { Migration } from '@mikro-orm/migrations';

/**
 * Erasure that keeps the ledger (docs/engineering/decisions/security/022-erasure-and-encryption-at-rest.md).
 * A redacted customer keeps its row, id and money history; its personal data reads `[redacted]`.
 * Two redacted customers share that email and two redacted bank accounts of one customer that number,
 * so the uniqueness rules count only the rows that still hold personal data.
 *
 * Each customer gets a data key (32 random bytes) wrapped by the master key; its document and tax
 * numbers, and its directors' birth dates and document numbers, are stored sealed by it (`v1:<key id>:<iv>:<tag>:<ciphertext>`).
 * Erasure deletes the row, so no copy of the database (a restored backup) can open them again.
 */
export class Migration20261127000500_customer_erasure extends Migration {
  override name = 'Migration20261127000500_customer_erasure';

  override up(): void {
    this.addSql('alter table customers add column redacted_at timestamptz');
    this.addSql('alter table customers drop constraint customers_email_unique');
    this.addSql('create unique index customers_email_unique on customers (partner_id, environment, email) where redacted_at is null');

    this.addSql('drop index external_accounts_same_account');
    this.addSql(`create unique index external_accounts_same_account on external_accounts (
      customer_id, account_type, coalesce(iban_number, ''), coalesce(routing_number, ''), coalesce(account_number, ''),
      (case when account_type = 'swift' then left(bic, 8) else '' end)
    ) where iban_number is distinct from '[redacted]' and account_number is distinct from '[redacted]'`);

    // A director's birth date and document number are sealed too: the date becomes text (its ciphertext), and the
    // document's uniqueness compares a keyed digest (rows from before keep their clear number until the job seals them).
    this.addSql(`alter table business_legal_representatives alter column dob type text using to_char(dob, 'YYYY-MM-DD')`);
    this.addSql('alter table business_legal_representatives add column document_digest text');
    this.addSql('alter table business_legal_representatives drop constraint business_legal_representatives_document_unique');
    this.addSql(`create unique index business_legal_representatives_document_unique on business_legal_representatives (
      customer_id, issue_country, document_name, coalesce(document_digest, document_no))`);

    this.addSql(`create table customer_data_keys (
      customer_id uuid primary key references customers(id),
      partner_id uuid not null references partners(id),
      environment text not null check (environment in ('sandbox', 'production')),
      -- Which master key wrapped it (its fingerprint), so a rotation re-wraps only what the old one wrapped.
      master_key_id text not null,
      wrapped_key text not null,
      created_at timestamptz not null
    )`);
    this.addSql('create index customer_data_keys_master on customer_data_keys (master_key_id)');
  }
}
