import { Migration } from '@mikro-orm/migrations';

/**
 * Partner whitelists (Encryptus forensics): wallet addresses for deposits and withdrawals, bank
 * accounts for sell orders and fiat withdrawals. Each is scoped per partner and environment, and
 * a duplicate is refused by a unique index (never by read-then-write).
 */
export class Migration20261122000400_partner_whitelists extends Migration {
  override name = 'Migration20261122000400_partner_whitelists';

  override up(): void {
    this.addSql(`create table whitelisted_wallet_addresses (
      id uuid primary key,
      partner_id uuid not null references partners(id),
      environment text not null check (environment in ('sandbox', 'production')),
      address text not null,
      coin text not null check (coin in ('usdc', 'usdt')),
      network text not null check (network in ('polygon', 'ethereum', 'solana', 'base', 'tron', 'arbitrum')),
      label text not null,
      created_at timestamptz not null
    )`);
    // EVM addresses are case-insensitive (the case is only a checksum); base58 ones are not.
    this.addSql(`create unique index whitelisted_wallet_addresses_unique on whitelisted_wallet_addresses (
      partner_id, environment, network, coin,
      (case when network in ('polygon', 'ethereum', 'base', 'arbitrum') then lower(address) else address end)
    )`);

    this.addSql(`create table whitelisted_bank_accounts (
      id uuid primary key,
      partner_id uuid not null references partners(id),
      environment text not null check (environment in ('sandbox', 'production')),
      account_holder_name text not null,
      account_holder_address text not null,
      beneficiary_bank_name text not null,
      beneficiary_bank_address text not null,
      beneficiary_bank_country text not null,
      bank_account_number text not null,
      bic_swift text not null check (length(bic_swift) in (8, 11)),
      fiat_currency text not null check (fiat_currency in ('usd', 'eur', 'aed')),
      created_at timestamptz not null
    )`);
    // A BIC11 with branch XXX names the same institution as its BIC8 (ISO 9362).
    this.addSql(`create unique index whitelisted_bank_accounts_unique on whitelisted_bank_accounts (
      partner_id, environment, fiat_currency, bank_account_number,
      (case when length(bic_swift) = 11 and right(bic_swift, 3) = 'XXX' then left(bic_swift, 8) else bic_swift end)
    )`);
  }
}
