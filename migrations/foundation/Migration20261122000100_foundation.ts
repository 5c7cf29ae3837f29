import { Migration } from '@mikro-orm/migrations';

/** Partners and keys, idempotency, the events outbox, customers. */
export class Migration20261122000100_foundation extends Migration {
  override name = 'Migration20261122000100_foundation';

  override up(): void {
    this.addSql(`create table partners (
      id uuid primary key,
      name text not null unique,
      email text,
      phone text,
      location text,
      client_id text not null unique,
      grant_services text[] not null default '{QUOTESANDORDERS}',
      platform_fee_bps integer not null default 0 check (platform_fee_bps between 0 and 10000),
      created_at timestamptz not null default now()
    )`);
    this.addSql(`create table api_keys (
      id uuid primary key,
      partner_id uuid not null references partners(id),
      environment text not null check (environment in ('sandbox', 'production')),
      prefix text not null unique,
      secret_hash text not null,
      created_at timestamptz not null default now(),
      revoked_at timestamptz
    )`);
    this.addSql(`create table idempotency_keys (
      partner_id uuid not null references partners(id),
      environment text not null,
      key varchar(255) not null,
      fingerprint text not null,
      state text not null check (state in ('in_progress', 'completed')),
      response_status integer,
      response_body jsonb,
      locked_at timestamptz not null,
      created_at timestamptz not null,
      primary key (partner_id, environment, key)
    )`);
    this.addSql(`create index idempotency_keys_created_at on idempotency_keys (created_at)`);
    this.addSql(`create table events (
      cursor bigserial primary key,
      id uuid not null unique,
      type text not null,
      entity_type text not null,
      entity_id uuid not null,
      partner_id uuid not null references partners(id),
      environment text not null,
      payload jsonb not null,
      created_at timestamptz not null default now()
    )`);
    this.addSql(`create index events_stream on events (partner_id, environment, cursor)`);
    this.addSql(`create index events_entity on events (entity_id, cursor)`);
    this.addSql(`create table customers (
      id uuid primary key,
      partner_id uuid not null references partners(id),
      environment text not null check (environment in ('sandbox', 'production')),
      email text not null,
      type text not null check (type in ('individual', 'corporate')),
      first_name text,
      last_name text,
      company_name text,
      address jsonb,
      kyc_status_breakdown jsonb not null,
      kyc_sub_status text,
      profile jsonb not null default '{}',
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint customers_email_unique unique (partner_id, environment, email)
    )`);
    this.addSql(`create index customers_page on customers (partner_id, environment, created_at, id)`);
  }
}
