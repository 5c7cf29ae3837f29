import { Migration } from '@mikro-orm/migrations';

const DEPOSIT_STATUSES = ['observed', 'confirmed', 'credited', 'removed', 'reversed', 'late', 'wrong_token'];
const list = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

/**
 * Deposits to one address add up within the transfer's window: a deposit that has its confirmations
 * but leaves the transfer short waits as `confirmed` until more arrives or the window closes. The
 * watcher asks the node for logs to Ramp's watched deposit addresses only: those whose window is open
 * or closed recently, found by the window's end.
 */
export class Migration20261128000400_deposits_add_up extends Migration {
  override name = 'Migration20261128000400_deposits_add_up';

  override up(): void {
    this.addSql('alter table chain_deposits drop constraint chain_deposits_status_check');
    this.addSql(`alter table chain_deposits add constraint chain_deposits_status_check check (status in (${list(DEPOSIT_STATUSES)}))`);
    this.addSql('drop index chain_deposits_open');
    this.addSql(`create index chain_deposits_open on chain_deposits (chain_key, block_number) where status in ('observed', 'confirmed', 'credited')`);
    // What the window-closing pass reads: the deposits that still wait for their transfer's sum.
    this.addSql(`create index chain_deposits_short on chain_deposits (transfer_id) where status = 'confirmed'`);
    this.addSql('create index transfers_watched_deposits on transfers (environment, deposit_expires_at) where deposit_address_index is not null');
  }
}
