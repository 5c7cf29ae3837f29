import { Migration } from '@mikro-orm/migrations';

/**
 * Sweeps: a confirmed deposit moved from its deposit address to the network's treasury
 * (docs/engineering/decisions/writes/017-chain-rails.md). One per deposit. Both transactions a sweep
 * needs (the treasury's gas top-up, then the deposit address's token transfer) are stored signed
 * before they are broadcast, like payouts: a crash between the two is repaired by sending again.
 */
export class Migration20261126000500_chain_sweeps extends Migration {
  override name = 'Migration20261126000500_chain_sweeps';

  override up(): void {
    this.addSql(`create table chain_sweeps (
      id uuid primary key,
      deposit_id uuid not null unique references chain_deposits(id),
      chain text not null,
      address text not null,
      address_index bigint not null check (address_index >= 0),
      token text not null check (token in ('usdc', 'usdt')),
      amount numeric(38,18) not null check (amount > 0),
      status text not null check (status in ('funding', 'sweeping', 'swept', 'failed')),
      max_fee_per_gas numeric(78,0),
      max_priority_fee_per_gas numeric(78,0),
      gas_amount numeric(78,0),
      gas_nonce bigint,
      gas_raw_transaction text,
      gas_transaction_hash text,
      sweep_nonce bigint,
      sweep_raw_transaction text,
      sweep_transaction_hash text,
      failure_reason text,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql(`create index chain_sweeps_in_flight on chain_sweeps (chain, created_at) where status in ('funding', 'sweeping')`);
  }
}
