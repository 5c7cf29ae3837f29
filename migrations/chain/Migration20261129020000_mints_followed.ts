import { Migration } from '@mikro-orm/migrations';

/**
 * Faucet mints are followed like payouts (modules/custody/mints.ts): to the chain's confirmations (`confirmed`), sent
 * again when a reorganisation drops them, and signed again under their nonce at higher fees when stuck. What that
 * needs: the fees each was signed at, when it was sent, and the hashes it replaced (any may be the one mined).
 */
export class Migration20261129020000_mints_followed extends Migration {
  override name = 'Migration20261129020000_mints_followed';

  override up(): void {
    this.addSql(`alter table chain_mints
      add column earlier_hashes jsonb not null default '[]',
      add column max_fee_per_gas numeric(78,0),
      add column max_priority_fee_per_gas numeric(78,0),
      add column sent_at timestamptz`);
    this.addSql(`alter table chain_mints drop constraint chain_mints_status_check`);
    this.addSql(`alter table chain_mints add constraint chain_mints_status_check check (status in ('signed', 'sent', 'mined', 'confirmed'))`);
    this.addSql(`drop index chain_mints_open`);
    this.addSql(`create index chain_mints_open on chain_mints (sequence, nonce) where status in ('signed', 'sent', 'mined')`);
  }
}
