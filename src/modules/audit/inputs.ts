import { z } from 'zod';
import { wholeNumberParameter } from '../../platform/reads/pagination.js';

/** What the audit log can be narrowed to, in both faces. */
export interface AuditEventFilter {
  action?: string;
  entityId?: string;
}

const filterText = (description: string) => z.string().min(1).max(200).meta({ description }).optional();

/** GET /v0/audit-events: other query parameters are ignored, as on every REST list. */
export const AuditEventListQuery = z.object({
  limit: wholeNumberParameter(1, 100).optional(),
  cursor: z
    .string()
    .min(1)
    .max(200)
    .meta({
      description: '`next_cursor` of the previous page',
      'x-ramp-checks': 'a next_cursor this API returned to you (sealed to your partner, environment and this list)',
    })
    .optional(),
  action: filterText('Only this action (`customer.create`, `transfer.onramp.create`, …)'),
  entity_id: filterText('Only rows about this entity'),
});
export type AuditEventListQuery = z.output<typeof AuditEventListQuery>;
