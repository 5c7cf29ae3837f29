import { Migration } from '@mikro-orm/migrations';

/**
 * The audit log's hash chain: each row, once committed and a little older than the sealing delay, is linked to the
 * previous link of its partner and environment by `audit_seal`, a SECURITY DEFINER function the sealing job calls,
 * so the write path stays one INSERT and the application's role never writes a link itself.
 *
 * A link commits to its row through `row_digest`, sha256 of the row's canonical text (`audit_row_text`: each field
 * as `<bytes>:<value>` or `-` for null, comma separated, the time in microseconds since the epoch), and to the chain
 * through `hash` = sha256(previous hash || `<position>,<occurred_at µs>,<row digest hex>`), the first link's previous
 * hash being 32 zero bytes. `npm run audit:verify` recomputes both from the rows (src/modules/audit/chain.ts keeps
 * the same encoding). Links outlive the rows the retention trims, so the chain stays whole from its first link.
 */
export class Migration20261128100000_audit_chain extends Migration {
  override name = 'Migration20261128100000_audit_chain';

  override async up(): Promise<void> {
    // How far the chain has sealed, and before when the retention may have trimmed rows: one row, written only by the
    // two definer functions.
    this.addSql(`create table audit_log_state (
      id boolean primary key default true check (id),
      sealed_through timestamptz not null default '-infinity',
      trimmed_before timestamptz not null default '-infinity'
    )`);
    this.addSql('insert into audit_log_state default values');
    this.addSql(`create table audit_chain (
      audit_event_id uuid primary key,
      partner_id uuid not null,
      environment text not null,
      position bigint not null,
      occurred_at timestamptz not null,
      row_digest bytea not null,
      previous_hash bytea not null,
      hash bytea not null,
      unique (partner_id, environment, position)
    )`);
    this.addSql(`create function audit_chain_append_only() returns trigger language plpgsql as $$
      begin
        raise exception 'the audit chain is append-only (% refused)', tg_op using errcode = '42501';
      end
    $$`);
    this.addSql(`create trigger audit_chain_append_only before update or delete on audit_chain
      for each row execute function audit_chain_append_only()`);
    this.addSql(`create trigger audit_chain_no_truncate before truncate on audit_chain
      for each statement execute function audit_chain_append_only()`);
    this.addSql(`create function audit_field(v text) returns text language sql immutable as $$
      select coalesce(octet_length(v)::text || ':' || v, '-')
    $$`);
    this.addSql(`create function audit_row_text(e audit_events) returns text language sql stable as $$
      select concat_ws(',', audit_field(e.id::text), audit_field(e.partner_id::text), audit_field(e.environment),
        audit_field(e.action), audit_field(e.outcome), audit_field(e.code), audit_field(e.replayed::text),
        audit_field(e.entity_type), audit_field(e.entity_id), audit_field(e.actor_type), audit_field(e.api_key_id::text),
        audit_field(e.api_key_prefix), audit_field(e.ip), audit_field(e.user_agent), audit_field(e.request_id),
        audit_field(((extract(epoch from e.occurred_at) * 1000000)::bigint)::text))
    $$`);
    // Rows are linked in (occurred_at, id) order once older than the delay, so a transaction still open has time to
    // commit; one that commits later still (by up to ten minutes past what was sealed) is linked by the next run, after
    // the links made meanwhile. Older than that, it stays unlinked and audit:verify reports it.
    this.addSql(`create function audit_seal(delay_seconds integer, batch integer) returns integer
      language plpgsql security definer set search_path = pg_catalog, public, pg_temp as $$
      declare
        cutoff timestamptz := now() - make_interval(secs => greatest(delay_seconds, 0));
        since timestamptz;
        r audit_events;
        head_position bigint;
        head_hash bytea;
        digest bytea;
        micros bigint;
        linked integer := 0;
      begin
        -- One sealer at a time, in every instance.
        select sealed_through - interval '10 minutes' into since from audit_log_state for update;
        for r in
          select e.* from audit_events e
          where e.occurred_at < cutoff and e.occurred_at >= since
            and not exists (select 1 from audit_chain c where c.audit_event_id = e.id)
          order by e.occurred_at, e.id limit greatest(batch, 0)
        loop
          select c.position, c.hash into head_position, head_hash from audit_chain c
          where c.partner_id = r.partner_id and c.environment = r.environment order by c.position desc limit 1;
          if not found then
            head_position := 0;
            head_hash := decode(repeat('00', 32), 'hex');
          end if;
          digest := sha256(convert_to(audit_row_text(r), 'UTF8'));
          micros := (extract(epoch from r.occurred_at) * 1000000)::bigint;
          insert into audit_chain (audit_event_id, partner_id, environment, position, occurred_at, row_digest, previous_hash, hash)
          values (r.id, r.partner_id, r.environment, head_position + 1, r.occurred_at, digest, head_hash,
            sha256(head_hash || convert_to((head_position + 1)::text || ',' || micros::text || ',' || encode(digest, 'hex'), 'UTF8')));
          linked := linked + 1;
        end loop;
        if linked < batch then
          update audit_log_state set sealed_through = greatest(sealed_through, cutoff);
        end if;
        return linked;
      end
    $$`);
  }
}
