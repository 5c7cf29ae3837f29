import { Migration } from '@mikro-orm/migrations';

/** Webhook endpoints, their deliveries and every delivery attempt; the outbox's dispatch state. */
export class Migration20261122000600_webhooks extends Migration {
  override name = 'Migration20261122000600_webhooks';

  override up(): void {
    // The dispatcher claims events by this state (FOR UPDATE SKIP LOCKED), never by "cursor greater
    // than the last one seen", so several instances share the work and none is skipped or done twice.
    this.addSql(`alter table events add column dispatched_at timestamptz`);
    // No webhook exists yet, so every earlier event is already as dispatched as it will ever be.
    this.addSql(`update events set dispatched_at = created_at`);
    this.addSql(`create index events_undispatched on events (cursor) where dispatched_at is null`);

    this.addSql(`create table webhook_endpoints (
      id uuid primary key,
      partner_id uuid not null references partners(id),
      environment text not null check (environment in ('sandbox', 'production')),
      url text not null check (length(url) <= 2048),
      status text not null check (status in ('enabled', 'disabled')),
      disabled_reason text check (disabled_reason in ('disabled_by_partner', 'endpoint_gone')),
      secret_encrypted text not null,
      previous_secret_encrypted text,
      previous_secret_expires_at timestamptz,
      starts_after_cursor bigint not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      deleted_at timestamptz,
      check ((status = 'disabled') = (disabled_reason is not null))
    )`);
    this.addSql(`create unique index webhook_endpoints_url_unique on webhook_endpoints (partner_id, environment, url) where deleted_at is null`);
    this.addSql(`create index webhook_endpoints_tenant on webhook_endpoints (partner_id, environment) where deleted_at is null`);

    this.addSql(`create table webhook_deliveries (
      id uuid primary key,
      partner_id uuid not null references partners(id),
      environment text not null check (environment in ('sandbox', 'production')),
      endpoint_id uuid not null references webhook_endpoints(id),
      event_id uuid not null references events(id),
      event_cursor bigint not null,
      event_type text not null,
      trigger text not null check (trigger in ('event', 'redelivery')),
      status text not null check (status in ('pending', 'succeeded', 'failed', 'canceled')),
      attempt_count integer not null default 0 check (attempt_count between 0 and 100),
      next_attempt_at timestamptz,
      lease_id uuid,
      leased_until timestamptz,
      last_status_code integer,
      last_error text,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      completed_at timestamptz,
      check ((status = 'pending') = (next_attempt_at is not null))
    )`);
    // An event reaches an endpoint once through the dispatcher, whichever instance dispatches it.
    this.addSql(`create unique index webhook_deliveries_once on webhook_deliveries (event_id, endpoint_id) where trigger = 'event'`);
    this.addSql(`create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'pending'`);
    this.addSql(`create index webhook_deliveries_page on webhook_deliveries (partner_id, environment, created_at, id)`);
    this.addSql(`create index webhook_deliveries_endpoint on webhook_deliveries (endpoint_id, status)`);

    this.addSql(`create table webhook_delivery_attempts (
      id uuid primary key,
      delivery_id uuid not null references webhook_deliveries(id),
      number integer not null check (number >= 1),
      instance text not null,
      started_at timestamptz not null,
      finished_at timestamptz,
      status_code integer,
      latency_ms integer,
      error text,
      response_excerpt text,
      unique (delivery_id, number)
    )`);
  }
}
