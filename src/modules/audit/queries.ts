import type { KeysetPage } from '../../platform/reads/pagination.js';
import { type Columns, keyset, readsOver, rowShape, rowsOf, selecting } from '../../platform/reads/queries.js';
import { type Scope, modelOf } from '../../platform/use-cases/scope.js';
import { AuditEvent, type AuditTables } from './entities.js';
import type { AuditEventFilter } from './inputs.js';

/** An audit row as the log shows it: its columns as a plain object (read once, never changed). */
export type AuditEventRow = Columns<AuditEvent>;

const { tenant } = readsOver<AuditTables>();

/** The caller's audit rows matching `filter` (GraphQL's totalCount). */
export async function auditCount(scope: Scope, filter: AuditEventFilter): Promise<number> {
  let query = tenant(scope, 'audit_events', 'a').select((eb) => eb.fn.countAll<string>().as('n'));
  if (filter.action !== undefined) query = query.where('a.action', '=', filter.action);
  if (filter.entityId !== undefined) query = query.where('a.entity_id', '=', filter.entityId);
  const [row] = await query.execute();
  return Number(row?.n ?? 0);
}

/** A page of the caller's audit log, newest first: `after` is older, `before` newer (keyset on occurred_at, id). */
export function auditPage(scope: Scope, filter: AuditEventFilter, page: KeysetPage): Promise<AuditEventRow[]> {
  const events = rowShape(modelOf(scope), AuditEvent, 'a');
  let query = selecting(tenant(scope, 'audit_events', 'a'), events);
  if (filter.action !== undefined) query = query.where('a.action', '=', filter.action);
  if (filter.entityId !== undefined) query = query.where('a.entity_id', '=', filter.entityId);
  return rowsOf(keyset(query, page, 'a', { column: 'occurred_at', newestFirst: true }), events);
}
