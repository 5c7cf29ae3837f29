import { Migration } from '@mikro-orm/migrations';

/**
 * A sweep's two transactions are followed like a payout (modules/custody/sweeps.ts): one stuck in the mempool is signed
 * again under its nonce at higher fees (a stuck top-up holds up the treasury's whole nonce sequence). What that needs,
 * for each: when it was sent, and the hashes it replaced (any may be the one mined); for the top-up, the fees it was
 * signed at, apart from the sweep's own.
 */
export class Migration20261128000500_top_up_replacement extends Migration {
  override name = 'Migration20261128000500_top_up_replacement';

  override up(): void {
    this.addSql(`alter table chain_sweeps
      add column gas_sent_at timestamptz,
      add column gas_max_fee_per_gas numeric(78,0),
      add column gas_max_priority_fee_per_gas numeric(78,0),
      add column gas_earlier_hashes jsonb not null default '[]',
      add column sweep_sent_at timestamptz,
      add column sweep_earlier_hashes jsonb not null default '[]'`);
  }
}
