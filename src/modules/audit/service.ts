import { isUuid } from '../../domain/identifiers/uuid.js';
import { requireScope } from '../../domain/scopes.js';
import { type KeysetPage, pageCursors, type Position } from '../../platform/reads/pagination.js';
import type { Scope } from '../../platform/use-cases/scope.js';
import { AuditEvent } from './entities.js';
import type { AuditEventFilter } from './inputs.js';
import { type AuditEventRow, auditCount, auditPage } from './queries.js';

export interface AuditService {
  /** A page of the caller's audit log, newest first: `after` is older, `before` newer (keyset on occurred_at, id). */
  page(scope: Scope, filter: AuditEventFilter, page: KeysetPage): Promise<AuditEventRow[]>;
  /** How many rows of the caller's audit log match `filter`. */
  count(scope: Scope, filter: AuditEventFilter): Promise<number>;
  /** REST's page: `limit` rows after the sealed `cursor`, and the cursor of the next page (null on the last). */
  list(scope: Scope, filter: AuditEventFilter, request: { limit: number; cursor?: string }): Promise<{ items: AuditEventRow[]; nextCursor: string | null }>;
  /** Rows by id, of the caller's tenant (Relay `node`/`nodes`); unknown or another's ids are left out. */
  load(scope: Scope, ids: readonly string[]): Promise<AuditEvent[]>;
  /** Every matching row, newest first, page by page (the CSV export). */
  all(scope: Scope, filter: AuditEventFilter): AsyncGenerator<AuditEventRow>;
}

/** Where a REST cursor of this list is valid: the caller's tenant, this list. */
const REST_LIST = 'audit-events';
const EXPORT_PAGE = 500;

export const positionOf = (row: AuditEventRow): Position => ({ createdAt: row.occurredAt, id: row.id });

async function* everyRow(scope: Scope, filter: AuditEventFilter): AsyncGenerator<AuditEventRow> {
  let after: Position | null = null;
  for (;;) {
    const rows = await auditPage(scope, filter, { after, limit: EXPORT_PAGE, inverted: false });
    yield* rows;
    if (rows.length < EXPORT_PAGE) return;
    after = positionOf(rows.at(-1)!);
  }
}

export function createAuditService(options: { cursorKey: Buffer }): AuditService {
  const cursors = pageCursors(options.cursorKey);
  const bindingOf = (scope: Scope) => ({ partnerId: scope.actor.partnerId, environment: scope.actor.environment, list: REST_LIST });
  return {
    async page(scope, filter, page) {
      requireScope(scope.actor, 'admin');
      return auditPage(scope, filter, page);
    },
    async count(scope, filter) {
      requireScope(scope.actor, 'admin');
      return auditCount(scope, filter);
    },
    async list(scope, filter, { limit, cursor }) {
      requireScope(scope.actor, 'admin');
      const after = cursor === undefined ? null : cursors.positionOf(bindingOf(scope), cursor, '/cursor');
      const rows = await auditPage(scope, filter, { after, limit: limit + 1, inverted: false });
      const items = rows.slice(0, limit);
      const last = items.at(-1);
      return { items, nextCursor: rows.length > limit && last ? cursors.cursorOf(bindingOf(scope), positionOf(last)) : null };
    },
    async load(scope, ids) {
      requireScope(scope.actor, 'admin');
      return scope.em.find(AuditEvent, { id: { $in: ids.filter(isUuid) } });
    },
    all(scope, filter) {
      // Checked now, not at the first row: a refusal must be answered before the export starts streaming.
      requireScope(scope.actor, 'admin');
      return everyRow(scope, filter);
    },
  };
}
