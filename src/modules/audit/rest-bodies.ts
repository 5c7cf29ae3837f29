import { z } from 'zod';
import { named, timestampAnswer, uuidAnswer } from '../../rest/openapi/schemas.js';
import { AUDIT_ACTOR_TYPES, AUDIT_OUTCOMES } from './entities.js';

/** One row of GET /v0/audit-events. */
export const AuditEventAnswer = named(
  'AuditEvent',
  z.strictObject({
    id: uuidAnswer(),
    occurred_at: timestampAnswer(),
    action: z.string().meta({ description: 'What was done: `customer.create`, `transfer.onramp.create`, `simulation.fiat_deposit`, …' }),
    outcome: z.enum(AUDIT_OUTCOMES),
    code: z.string().nullable().meta({ description: 'Why it was refused (an error code); null when it succeeded' }),
    replayed: z.boolean().meta({ description: 'An idempotent repeat: the first response was answered again and nothing changed' }),
    entity_type: z.string().nullable(),
    entity_id: z.string().nullable(),
    actor: z.strictObject({
      type: z.enum(AUDIT_ACTOR_TYPES).meta({ description: '`api_key`, or `cli` (npm run keys) and `system` (Ramp itself) for key administration' }),
      api_key_prefix: z.string().nullable(),
      ip: z.string().nullable(),
      user_agent: z.string().nullable(),
    }),
    request_id: z.string().nullable(),
  }),
);

export const AuditEventPageAnswer = z.strictObject({
  items: z.array(AuditEventAnswer),
  next_cursor: z.string().nullable().meta({ description: 'Pass as `cursor` for the next (older) page; null on the last page' }),
});

/** The CSV export (`Accept: text/csv`): a header line, then one line per row, newest first. */
export const AuditEventCsvAnswer = z.string().meta({ description: 'RFC 4180 CSV, one row per audit event' });
