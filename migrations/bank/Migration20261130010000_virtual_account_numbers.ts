import { Migration } from '@mikro-orm/migrations';

/**
 * How many numbers of the bank's reserved range Ramp has issued to virtual accounts, per environment and currency: the
 * next one is taken by one `insert … on conflict do update … returning`, which holds the row until the account's
 * transaction ends, so two accounts never share a number and a rolled-back one gives its number to the next.
 */
export class Migration20261130010000_virtual_account_numbers extends Migration {
  override name = 'Migration20261130010000_virtual_account_numbers';

  override up(): void {
    this.addSql(`create table virtual_account_numbers (
      environment text not null,
      currency text not null,
      issued bigint not null,
      primary key (environment, currency)
    )`);
  }
}
