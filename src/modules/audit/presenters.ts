import type { z } from 'zod';
import type { AuditEventRow } from './queries.js';
import type { AuditEventAnswer } from './rest-bodies.js';

export function presentAuditEvent(row: AuditEventRow): z.output<typeof AuditEventAnswer> {
  return {
    id: row.id,
    occurred_at: row.occurredAt.toISOString(),
    action: row.action,
    outcome: row.outcome,
    code: row.code ?? null,
    replayed: row.replayed,
    entity_type: row.entityType ?? null,
    entity_id: row.entityId ?? null,
    actor: { type: row.actorType, api_key_prefix: row.apiKeyPrefix ?? null, ip: row.ip ?? null, user_agent: row.userAgent ?? null },
    request_id: row.requestId ?? null,
  };
}

export const CSV_COLUMNS = [
  'id',
  'occurred_at',
  'action',
  'outcome',
  'code',
  'replayed',
  'entity_type',
  'entity_id',
  'actor_type',
  'api_key_prefix',
  'ip',
  'user_agent',
  'request_id',
] as const;

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line break, quotes doubled. A field a
 * spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, carriage return first: a user agent is the
 * client's text) gets a leading `'`, as OWASP advises against CSV injection.
 */
export function csvField(value: string | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvHeader = () => `${CSV_COLUMNS.join(',')}\r\n`;

export function csvLine(row: AuditEventRow): string {
  const a = presentAuditEvent(row);
  const fields = [a.id, a.occurred_at, a.action, a.outcome, a.code, a.replayed, a.entity_type, a.entity_id];
  const actor = [a.actor.type, a.actor.api_key_prefix, a.actor.ip, a.actor.user_agent, a.request_id];
  return `${[...fields, ...actor].map(csvField).join(',')}\r\n`;
}
