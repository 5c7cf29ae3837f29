import type { InferKyselyDB } from '@mikro-orm/sql';
import { defineEntity, p } from '@mikro-orm/core';
import { TENANT_FILTERS, tenantColumns } from '../../platform/security/tenant.js';

export const AUDIT_OUTCOMES = ['succeeded', 'refused'] as const;
export const AUDIT_ACTOR_TYPES = ['api_key', 'cli', 'system'] as const;

/**
 * One row of the audit log, read only: rows are appended by platform/security/audit.ts in the transaction of the
 * change they record, and the table refuses UPDATE and DELETE (migration 20261127000200, decision 019).
 */
const AuditEventSchema = defineEntity({
  name: 'AuditEvent',
  tableName: 'audit_events',
  filters: TENANT_FILTERS,
  properties: {
    id: p.uuid().primary(),
    ...tenantColumns(),
    action: p.text(),
    outcome: p.enum(AUDIT_OUTCOMES),
    code: p.text().nullable(),
    replayed: p.boolean(),
    entityType: p.text().nullable(),
    entityId: p.text().nullable(),
    actorType: p.enum(AUDIT_ACTOR_TYPES),
    apiKeyId: p.uuid().nullable(),
    apiKeyPrefix: p.text().nullable(),
    ip: p.text().nullable(),
    userAgent: p.text().nullable(),
    requestId: p.text().nullable(),
    occurredAt: p.datetime(),
  },
});
export class AuditEvent extends AuditEventSchema.class {}
AuditEventSchema.setClass(AuditEvent);
export const auditEntities = [AuditEvent];

/** The tables above as the module's query file reads them (platform/reads/queries.ts): SQL names, the entities' value types. */
export type AuditTables = InferKyselyDB<typeof AuditEventSchema>;
