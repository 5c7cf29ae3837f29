import { Migration } from '@mikro-orm/migrations';

/**
 * A payment order is a payout or a refund: an on-ramp's deposit sent back in fiat goes through the same orders as a
 * payout, with an EndToEndId and a UETR of its own. One payout per transfer as before; one refund in flight at a time
 * (a refund the bank rejected may be asked again).
 */
export class Migration20261129070000_bank_refund_orders extends Migration {
  override name = 'Migration20261129070000_bank_refund_orders';

  override up(): void {
    this.addSql(`alter table bank_payment_orders add column purpose text not null default 'payout' check (purpose in ('payout', 'refund'))`);
    this.addSql('alter table bank_payment_orders drop constraint bank_payment_orders_transfer_id_key');
    this.addSql(`create unique index bank_payment_orders_one_payout on bank_payment_orders (transfer_id) where purpose = 'payout'`);
    this.addSql(
      `create unique index bank_payment_orders_one_open_refund on bank_payment_orders (transfer_id) where purpose = 'refund' and status in ('stored', 'sent')`,
    );
  }
}
