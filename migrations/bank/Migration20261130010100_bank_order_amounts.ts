import { Migration } from '@mikro-orm/migrations';

/**
 * A payment order keeps its amount and currency beside its sealed file: reconciliation lists a payout a statement
 * lacks with what it paid. They are no one's personal data. Orders stored before stay without (their file is sealed).
 */
export class Migration20261130010100_bank_order_amounts extends Migration {
  override name = 'Migration20261130010100_bank_order_amounts';

  override up(): void {
    this.addSql('alter table bank_payment_orders add column amount numeric(38, 18), add column currency text');
  }
}
