import { Migration } from '@mikro-orm/migrations';

/**
 * The chain leg becomes real (docs/engineering/decisions/writes/017-chain-rails.md). An off-ramp on a live
 * chain gets a deposit address of its own, derived from the xpub at an index drawn once from a
 * sequence, so no address is ever handed out twice; the watcher finds its transfer by that address.
 * A transfer shows the confirmations of its chain transaction (the deposit, or the payout) as they rise.
 */
export class Migration20261126000100_chain_rails extends Migration {
  override name = 'Migration20261126000100_chain_rails';

  override up(): void {
    this.addSql('create sequence deposit_address_index_seq minvalue 0 start with 0');
    this.addSql('alter table transfers add column deposit_address_index bigint unique');
    this.addSql('alter table transfers add column confirmations integer check (confirmations >= 0)');
    this.addSql('alter table transfers add column required_confirmations integer check (required_confirmations > 0)');
    this.addSql('create index transfers_deposit_address on transfers (lower(deposit_blockchain_address)) where deposit_address_index is not null');
  }
}
