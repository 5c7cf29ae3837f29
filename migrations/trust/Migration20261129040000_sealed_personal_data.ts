import { Migration } from '@mikro-orm/migrations';

/**
 * A customer's personal values (email, names, company name, address) are kept in one column, `personal`, sealed by the
 * customer's data key, beside the email's keyed digest under its tenant's digest key (`email_digest_keys`, wrapped by
 * the master key), which carries the email's uniqueness instead of the email.
 *
 * SQL cannot seal (the keys live in the application), so this moves each row's values, in clear, into `personal` as
 * JSON and drops the clear columns: the row's one copy is then the one the job `seal-clear-personal-data` overwrites,
 * sealed, and digests the email of, at the next start. Until it has, such a row opens as it is and is found by email
 * only once digested.
 */
export class Migration20261129040000_sealed_personal_data extends Migration {
  override name = 'Migration20261129040000_sealed_personal_data';

  override up(): void {
    this.addSql(`create table email_digest_keys (
      partner_id uuid not null references partners(id),
      environment text not null check (environment in ('sandbox', 'production')),
      -- Which master key wrapped it (its fingerprint), so a rotation re-wraps only what the old one wrapped.
      master_key_id text not null,
      wrapped_key text not null,
      created_at timestamptz not null,
      primary key (partner_id, environment)
    )`);
    this.addSql('create index email_digest_keys_master on email_digest_keys (master_key_id)');

    this.addSql('alter table customers add column personal text');
    this.addSql('alter table customers add column email_digest text');
    this.addSql(`update customers set personal = jsonb_build_object(
      'email', email, 'firstName', first_name, 'lastName', last_name, 'companyName', company_name, 'address', address)::text`);
    this.addSql('alter table customers alter column personal set not null');
    this.addSql('drop index customers_email_unique');
    // An erased customer keeps no digest (null), so its email is free again, as before.
    this.addSql('create unique index customers_email_unique on customers (partner_id, environment, email_digest)');
    // What the job looks for on every poll: an index that is empty once every row is sealed.
    this.addSql(`create index customers_personal_in_clear on customers (id)
      where redacted_at is null and (personal not like 'v1:%' or email_digest is null)`);
    this.addSql('alter table customers drop column email, drop column first_name, drop column last_name, drop column company_name, drop column address');
  }
}
