import { Migration } from '@mikro-orm/migrations';

/** External bank accounts and virtual accounts of customers. */
export class Migration20261122000300_accounts extends Migration {
  override name = 'Migration20261122000300_accounts';

  override up(): void {
    this.addSql(`create table external_accounts (
      id uuid primary key,
      partner_id uuid not null references partners(id),
      environment text not null check (environment in ('sandbox', 'production')),
      customer_id uuid not null references customers(id),
      account_type text not null check (account_type in ('iban', 'us', 'swift')),
      bank_name text not null,
      account_holder_type text not null check (account_holder_type in ('individual', 'business')),
      account_holder_first_name text,
      account_holder_last_name text,
      account_holder_business_name text,
      account_holder_address jsonb not null,
      iban_number text,
      bic text,
      account_number text,
      routing_number text,
      us_account_type text check (us_account_type in ('checking', 'savings')),
      created_at timestamptz not null,
      -- Each variant carries exactly its own numbers.
      constraint external_accounts_variant check (
        (account_type = 'iban' and iban_number is not null and bic is not null and account_number is null and routing_number is null)
        or (account_type = 'us' and iban_number is null and bic is null and account_number is not null and routing_number is not null and us_account_type is not null)
        or (account_type = 'swift' and iban_number is null and bic is not null and account_number is not null)
      ),
      constraint external_accounts_holder check (
        (account_holder_type = 'individual' and account_holder_first_name is not null and account_holder_last_name is not null and account_holder_business_name is null)
        or (account_holder_type = 'business' and account_holder_business_name is not null and account_holder_first_name is null and account_holder_last_name is null)
      )
    )`);
    // One registration per bank account and customer: an IBAN, a US routing+account pair, or a
    // SWIFT account at one bank (BIC without branch).
    this.addSql(`create unique index external_accounts_same_account on external_accounts (
      customer_id, account_type, coalesce(iban_number, ''), coalesce(routing_number, ''), coalesce(account_number, ''),
      (case when account_type = 'swift' then left(bic, 8) else '' end)
    )`);
    this.addSql(`create index external_accounts_by_customer on external_accounts (customer_id, created_at, id)`);

    this.addSql(`create table virtual_accounts (
      id uuid primary key,
      partner_id uuid not null references partners(id),
      environment text not null check (environment in ('sandbox', 'production')),
      customer_id uuid not null references customers(id),
      status text not null check (status in ('pending', 'active')),
      source_currency text not null check (source_currency in ('usd', 'eur', 'aed')),
      source_rails text check (source_rails is null or (source_rails = 'swift' and source_currency = 'usd')),
      destination_token text not null check (destination_token in ('usdc', 'usdt')),
      destination_network text not null check (destination_network in ('polygon', 'ethereum', 'solana', 'base', 'tron', 'arbitrum')),
      destination_address text,
      developer_fee_percent numeric(11,8) check (developer_fee_percent between 0 and 100),
      deposit_instructions jsonb,
      deposit_account_number text unique,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint virtual_accounts_issued check ((status = 'active') = (deposit_instructions is not null and deposit_account_number is not null))
    )`);
    // Identical parameters for the same customer are one account (409). Omitted fee means no fee;
    // EVM addresses compare case-insensitively (EIP-55 case is only a checksum).
    this.addSql(`create unique index virtual_accounts_same_parameters on virtual_accounts (
      customer_id, source_currency, coalesce(source_rails, ''), destination_token, destination_network,
      (coalesce(case when destination_network in ('polygon', 'ethereum', 'base', 'arbitrum') then lower(destination_address) else destination_address end, '')),
      (coalesce(developer_fee_percent, 0))
    )`);
    this.addSql(`create index virtual_accounts_by_customer on virtual_accounts (customer_id, created_at, id)`);
  }
}
