import { Migration } from '@mikro-orm/migrations';

/**
 * The audit log stops trusting the session that writes it.
 *
 * - Retention runs only through `audit_trim(retention_days, batch)`, a SECURITY DEFINER function whose floor (30 days)
 *   is fixed here: no caller can delete a younger row, whatever it passes or sets. The append-only trigger no longer
 *   honours `ramp.audit_retention`; it lets a DELETE through only inside the trim and only below the floor.
 * - Ramp's requests and jobs may run as `ramp_app`, a NOLOGIN role this migration creates when missing (operators grant
 *   it to the login role of DATABASE_URL): it may read and write Ramp's tables, but of the audit log's only INSERT and
 *   SELECT `audit_events` and SELECT the chain; it runs the trim and the seal through their functions, and cannot
 *   disable a trigger, which only the owner can. On embedded PGlite there is one user, the owner, so the triggers stay
 *   the guard there.
 */
export class Migration20261128100010_audit_guard extends Migration {
  override name = 'Migration20261128100010_audit_guard';

  override async up(): Promise<void> {
    // Roles belong to the cluster, not the database: another database (or a concurrent migration) may have made it.
    this.addSql(`do $$ begin
      if not exists (select 1 from pg_roles where rolname = 'ramp_app') then
        create role ramp_app nologin;
      end if;
    exception
      when duplicate_object or unique_violation then null;
      when insufficient_privilege then
        raise exception 'the role ramp_app is missing and % may not create it', current_user
          using hint = 'as a superuser run: create role ramp_app nologin; then start Ramp again';
    end $$`);
    this.addSql(`create or replace function audit_events_append_only() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' and current_setting('ramp.audit_trimming', true) = 'on' and old.occurred_at < now() - interval '30 days' then
          return old;
        end if;
        raise exception 'the audit log is append-only (% refused)', tg_op using errcode = '42501';
      end
    $$`);
    this.addSql(`create function audit_trim(retention_days integer, batch integer) returns integer
      language plpgsql security definer set search_path = pg_catalog, public, pg_temp as $$
      declare
        cutoff timestamptz := now() - make_interval(days => greatest(retention_days, 30));
        deleted integer;
      begin
        perform 1 from audit_log_state for update;
        perform set_config('ramp.audit_trimming', 'on', true);
        -- Only rows the chain has linked: a row is never gone before the chain vouches for it.
        delete from audit_events where id in (
          select e.id from audit_events e
          where e.occurred_at < cutoff and exists (select 1 from audit_chain c where c.audit_event_id = e.id)
          order by e.occurred_at limit greatest(batch, 0));
        get diagnostics deleted = row_count;
        perform set_config('ramp.audit_trimming', '', true);
        if deleted > 0 then
          update audit_log_state set trimmed_before = greatest(trimmed_before, cutoff);
        end if;
        return deleted;
      end
    $$`);
    // Every table and sequence, today's and those later migrations (run by the same owner) create.
    this.addSql('grant usage on schema public to ramp_app');
    this.addSql('grant select, insert, update, delete on all tables in schema public to ramp_app');
    this.addSql('grant usage, select, update on all sequences in schema public to ramp_app');
    this.addSql('alter default privileges in schema public grant select, insert, update, delete on tables to ramp_app');
    this.addSql('alter default privileges in schema public grant usage, select, update on sequences to ramp_app');
    // Then the exceptions: the audit log is append-only for the application, its upkeep goes through the functions.
    this.addSql('revoke update, delete, truncate on audit_events from public, ramp_app');
    this.addSql('grant select, insert on audit_events to ramp_app');
    this.addSql('revoke insert, update, delete, truncate on audit_chain, audit_log_state from public, ramp_app');
    this.addSql('grant select on audit_chain, audit_log_state to ramp_app');
    this.addSql('revoke insert, update, delete, truncate on mikro_orm_migrations from ramp_app');
    this.addSql('revoke execute on function audit_trim(integer, integer), audit_seal(integer, integer) from public');
    this.addSql('grant execute on function audit_trim(integer, integer), audit_seal(integer, integer) to ramp_app');
  }
}
