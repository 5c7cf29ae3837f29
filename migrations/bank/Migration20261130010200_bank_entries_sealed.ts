import { Migration } from '@mikro-orm/migrations';

/**
 * A bank entry names its customer when Ramp knows it (the transfer or virtual account it credited, the payout it
 * returned): its personal values (the payer's remittance words, the account paid into) are sealed by that customer's
 * data key, and erasure finds the customer's entries by it.
 */
export class Migration20261130010200_bank_entries_sealed extends Migration {
  override name = 'Migration20261130010200_bank_entries_sealed';

  override up(): void {
    this.addSql('alter table bank_entries add column customer_id uuid, add column partner_id uuid');
    this.addSql('create index bank_entries_customer on bank_entries (customer_id) where customer_id is not null');
  }
}
