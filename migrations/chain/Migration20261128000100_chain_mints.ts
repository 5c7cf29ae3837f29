import { Migration } from '@mikro-orm/migrations';

/**
 * The sandbox faucet's mints, stored signed before they are broadcast (modules/custody/mints.ts): the minter's
 * nonces come from the same allocator as the treasuries' (chain_senders), so concurrent mints never share one, and
 * a mint stored before a crash is sent by the follower, once.
 */
export class Migration20261128000100_chain_mints extends Migration {
  override name = 'Migration20261128000100_chain_mints';

  override up(): void {
    this.addSql(`create table chain_mints (
      id uuid primary key,
      sequence text not null,
      sender text not null,
      nonce bigint not null check (nonce >= 0),
      contract_address text not null,
      "to" text not null,
      amount numeric(78,0) not null check (amount > 0),
      raw_transaction text not null,
      transaction_hash text not null,
      status text not null check (status in ('signed', 'sent', 'mined')),
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (sequence, sender, nonce)
    )`);
    this.addSql(`create index chain_mints_open on chain_mints (sequence, nonce) where status in ('signed', 'sent')`);
  }
}
