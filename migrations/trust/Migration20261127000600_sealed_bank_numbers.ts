import { Migration } from '@mikro-orm/migrations';

/**
 * Bank account numbers sealed at rest (docs/engineering/decisions/security/022-erasure-and-encryption-at-rest.md): an
 * external account's IBAN or account number, and the number of an off-ramp's payout account, are stored sealed
 * by the customer's data key. What reads show is kept beside them with all but the last four characters hidden
 * (`hidden_number`, and the numbers of `transfers.destination_bank_account`), so no list or transfer read opens
 * anything; the uniqueness of an external account compares a keyed digest (`number_digest`), since a sealed value
 * differs at every sealing.
 *
 * Columns and indexes only: SQL cannot seal with keys it must not see. Rows from before keep their clear numbers
 * (and compare them, `coalesce`) until the jobs `seal-clear-bank-numbers` and `seal-clear-payout-numbers` seal them.
 */
export class Migration20261127000600_sealed_bank_numbers extends Migration {
  override name = 'Migration20261127000600_sealed_bank_numbers';

  override up(): void {
    this.addSql('alter table external_accounts add column number_digest text, add column hidden_number text');
    this.addSql('drop index external_accounts_same_account');
    this.addSql(`create unique index external_accounts_same_account on external_accounts (
      customer_id, account_type, coalesce(number_digest, iban_number, account_number, ''), coalesce(routing_number, ''),
      (case when account_type = 'swift' then left(bic, 8) else '' end)
    ) where iban_number is distinct from '[redacted]' and account_number is distinct from '[redacted]'`);
    // The job's work list: accounts whose number is still in clear.
    this.addSql(`create index external_accounts_clear_numbers on external_accounts (id)
      where coalesce(iban_number, account_number) not like 'v1:%' and coalesce(iban_number, account_number) <> '[redacted]'`);

    // The payout account's number, sealed; the jsonb copy keeps it hidden but for the last four characters.
    this.addSql('alter table transfers add column destination_number text');
    this.addSql(`create index transfers_clear_destination_numbers on transfers (id)
      where destination_bank_account is not null and destination_number is null
        and coalesce(destination_bank_account #>> '{iban,iban_number}', destination_bank_account #>> '{us,account_number}',
                     destination_bank_account #>> '{swift,account_number}') <> '[redacted]'`);
  }
}
