import { Migration } from '@mikro-orm/migrations';

/**
 * A sweep's gas top-up is followed like a payout (modules/custody/sweeps.ts): one stuck in the mempool holds up the
 * treasury's whole nonce sequence, so it is signed again under its nonce at higher fees. What that needs: when it was
 * sent, the fees it was signed at (apart from the sweep's own), and the hashes it replaced (any may be the one mined).
 */
export class Migration20261128000500_top_up_replacement extends Migration {
  override name = 'Migration20261128000500_top_up_replacement';

  override up(): void {
    this.addSql(`alter table chain_sweeps
      add column gas_sent_at timestamptz,
      add column gas_max_fee_per_gas numeric(78,0),
      add column gas_max_priority_fee_per_gas numeric(78,0),
      add column gas_earlier_hashes jsonb not null default '[]'`);
  }
}
