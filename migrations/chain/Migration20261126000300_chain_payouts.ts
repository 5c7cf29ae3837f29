import { Migration } from '@mikro-orm/migrations';

/**
 * On-ramp payouts on live chains (docs/engineering/decisions/writes/017-chain-rails.md). A sender is one
 * treasury on one chain: its row is the nonce lock, so two instances never sign the same nonce.
 * A payout keeps its signed transaction and hash from before it is broadcast, so a crash between
 * the two is repaired by broadcasting it again, never by paying twice; one payout per transfer,
 * and one per (chain, sender, nonce), are enforced by the database.
 */
export class Migration20261126000300_chain_payouts extends Migration {
  override name = 'Migration20261126000300_chain_payouts';

  override up(): void {
    this.addSql(`create table chain_senders (
      chain text not null,
      address text not null,
      next_nonce bigint not null check (next_nonce >= 0),
      updated_at timestamptz not null,
      primary key (chain, address)
    )`);
    this.addSql(`create table chain_payouts (
      id uuid primary key,
      transfer_id uuid not null unique references transfers(id),
      chain text not null,
      sender text not null,
      nonce bigint not null check (nonce >= 0),
      token text not null check (token in ('usdc', 'usdt')),
      "to" text not null,
      amount numeric(38,18) not null check (amount > 0),
      raw_transaction text not null,
      transaction_hash text not null,
      earlier_hashes jsonb not null default '[]',
      max_fee_per_gas numeric(78,0) not null,
      max_priority_fee_per_gas numeric(78,0) not null,
      status text not null check (status in ('signed', 'sent', 'mined', 'confirmed', 'failed')),
      failure_reason text,
      block_number bigint,
      block_hash text,
      sent_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (chain, sender, nonce),
      foreign key (chain, sender) references chain_senders(chain, address)
    )`);
    // The jobs read the payouts still in flight on a chain; finished ones are history.
    this.addSql(`create index chain_payouts_in_flight on chain_payouts (chain, status) where status in ('signed', 'sent', 'mined')`);
  }
}
