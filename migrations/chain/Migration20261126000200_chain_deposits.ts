import { Migration } from '@mikro-orm/migrations';

const MOVEMENTS = ['deposit', 'fees', 'conversion', 'payout', 'refund', 'excess_return', 'deposit_reversal'];
const DEPOSIT_STATUSES = ['observed', 'credited', 'removed', 'reversed', 'late', 'wrong_token'];
const list = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

/**
 * The deposit watcher's memory (docs/api/transfers.md, "Deposits on a live chain"). Each live chain
 * has one cursor row, which the watching instance holds `FOR UPDATE SKIP LOCKED` while it polls;
 * a window of the blocks it has passed, so a reorganisation is walked back to where the chains
 * part; and every token `Transfer` log to a deposit address, once per (chain, tx hash, log index):
 * the unique key that makes a deposit credited exactly once, whoever sees it first (the watcher
 * or `complete`). A credited deposit that leaves the chain is reversed by a new ledger movement.
 */
export class Migration20261126000200_chain_deposits extends Migration {
  override name = 'Migration20261126000200_chain_deposits';

  override up(): void {
    this.addSql(`create table chain_cursors (
      chain_key text primary key,
      block_number bigint not null check (block_number >= 0),
      block_hash text not null,
      updated_at timestamptz not null
    )`);
    this.addSql(`create table chain_blocks (
      chain_key text not null references chain_cursors(chain_key),
      number bigint not null,
      hash text not null,
      parent_hash text not null,
      primary key (chain_key, number)
    )`);
    this.addSql(`create table chain_deposits (
      id uuid primary key,
      chain_key text not null,
      environment text not null check (environment in ('sandbox', 'production')),
      network text not null,
      tx_hash text not null,
      log_index integer not null check (log_index >= 0),
      block_number bigint not null,
      block_hash text not null,
      token text not null check (token in ('usdc', 'usdt')),
      contract_address text not null,
      from_address text not null,
      to_address text not null,
      amount numeric(38,18) not null check (amount > 0),
      transfer_id uuid not null references transfers(id),
      status text not null check (status in (${list(DEPOSIT_STATUSES)})),
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint chain_deposits_once unique (chain_key, tx_hash, log_index)
    )`);
    this.addSql('create index chain_deposits_transfer on chain_deposits (transfer_id)');
    // What each poll revisits: deposits still waiting for confirmations, and credited ones a reorganisation could undo.
    this.addSql(`create index chain_deposits_open on chain_deposits (chain_key, block_number) where status in ('observed', 'credited')`);
    for (const table of ['ledger_transactions', 'ledger_entries']) {
      this.addSql(`alter table ${table} drop constraint ${table}_movement_check`);
      this.addSql(`alter table ${table} add constraint ${table}_movement_check check (movement in (${list(MOVEMENTS)}))`);
    }
  }
}
