import { Migration } from '@mikro-orm/migrations';

/**
 * The audit log: one row per state-changing call, appended in the transaction of the change (or, for a
 * refusal, after the answer). Append-only for real: a trigger refuses every UPDATE, and every DELETE
 * except the retention trim's, which says so with the transaction-local setting `ramp.audit_retention`
 * (an interval) and may then delete only rows older than it (decision 019).
 */
export class Migration20261127000200_audit_events extends Migration {
  override name = 'Migration20261127000200_audit_events';

  override async up(): Promise<void> {
    this.addSql(`create table audit_events (
      id uuid primary key,
      partner_id uuid not null,
      environment text not null,
      action text not null,
      outcome text not null check (outcome in ('succeeded', 'refused')),
      code text,
      replayed boolean not null default false,
      entity_type text,
      entity_id text,
      actor_type text not null check (actor_type in ('api_key', 'cli', 'system')),
      api_key_id uuid,
      api_key_prefix text,
      ip text,
      user_agent text,
      request_id text,
      occurred_at timestamptz not null default now()
    )`);
    // Newest first per tenant, the only order the log is read in; the trim reads by time alone.
    this.addSql('create index audit_events_tenant_time on audit_events (partner_id, environment, occurred_at desc, id desc)');
    this.addSql('create index audit_events_entity on audit_events (partner_id, environment, entity_id) where entity_id is not null');
    this.addSql('create index audit_events_time on audit_events (occurred_at)');
    this.addSql(`create function audit_events_append_only() returns trigger language plpgsql as $$
      declare
        retention text := current_setting('ramp.audit_retention', true);
      begin
        if tg_op = 'DELETE' and coalesce(retention, '') <> '' and old.occurred_at < now() - retention::interval then
          return old;
        end if;
        raise exception 'the audit log is append-only (% refused)', tg_op using errcode = '42501';
      end
    $$`);
    this.addSql(`create trigger audit_events_append_only before update or delete on audit_events
      for each row execute function audit_events_append_only()`);
    this.addSql(`create trigger audit_events_no_truncate before truncate on audit_events
      for each statement execute function audit_events_append_only()`);
  }
}
