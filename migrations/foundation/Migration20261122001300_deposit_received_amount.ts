import { Migration } from '@mikro-orm/migrations';

const MOVEMENTS = ['deposit', 'fees', 'conversion', 'payout', 'refund', 'excess_return'];
const list = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

/**
 * What a transfer's deposit actually brought in, which the sandbox can make more or less than the
 * deposit amount: an underpaid on-ramp fails holding what arrived (refunded in full), an overpaid
 * one sends the excess straight back, posted as the `excess_return` movement.
 */
export class Migration20261122001300_deposit_received_amount extends Migration {
  override name = 'Migration20261122001300_deposit_received_amount';

  override up(): void {
    this.addSql('alter table transfers add column deposit_received_amount numeric(38,18) check (deposit_received_amount > 0)');
    // Until now a deposit was always the quoted amount.
    this.addSql(`update transfers set deposit_received_amount = quotes.source_amount
      from quotes where quotes.id = transfers.quote_id and transfers.funds_received_at is not null`);
    for (const table of ['ledger_transactions', 'ledger_entries']) {
      this.addSql(`alter table ${table} drop constraint ${table}_movement_check`);
      this.addSql(`alter table ${table} add constraint ${table}_movement_check check (movement in (${list(MOVEMENTS)}))`);
    }
  }
}
