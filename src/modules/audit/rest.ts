import type { FastifyInstance } from 'fastify';
import { Readable } from 'node:stream';
import { parseInput } from '../../domain/validation.js';
import { contract } from '../../rest/openapi/contract.js';
import { requestScope, withRestPointers } from '../../rest/routes.js';
import type { Services } from '../../services.js';
import { AuditEventListQuery } from './inputs.js';
import { csvHeader, csvLine, presentAuditEvent } from './presenters.js';
import { AuditEventCsvAnswer, AuditEventPageAnswer } from './rest-bodies.js';

const DEFAULT_LIMIT = 50;
const wantsCsv = (accept: string | undefined) => accept !== undefined && /(^|,)\s*text\/csv\b/i.test(accept);

/** GET /v0/audit-events (an extension): the caller's audit log, newest first, as JSON pages or one CSV export. */
export function auditRoutes(app: FastifyInstance, { audit }: Services) {
  app.get(
    '/v0/audit-events',
    contract({
      operationId: 'listAuditEvents',
      scope: 'admin',
      summary: 'The audit log: every state-changing call, succeeded or refused',
      description:
        "Newest first; `cursor` is the previous page's `next_cursor`. Filters: `action`, `entity_id`. With `Accept: text/csv`, every matching row as one CSV download. Needs the `admin` scope.",
      tag: 'Audit',
      query: AuditEventListQuery,
      responses: {
        200: { description: 'A page of audit events (or the CSV export)', body: AuditEventPageAnswer, alternatives: { 'text/csv': AuditEventCsvAnswer } },
      },
      errors: ['invalid_cursor', 'insufficient_scope'],
    }),
    async (request, reply) => {
      const query = await withRestPointers(Promise.resolve().then(() => parseInput(AuditEventListQuery, request.query ?? {})));
      const filter = { action: query.action, entityId: query.entity_id };
      const scope = requestScope(request);
      if (wantsCsv(request.headers.accept)) {
        const rows = audit.all(scope, filter);
        const lines = async function* () {
          yield csvHeader();
          for await (const row of rows) yield csvLine(row);
        };
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', 'attachment; filename="audit-events.csv"')
          .send(Readable.from(lines()));
      }
      const page = await withRestPointers(audit.list(scope, filter, { limit: query.limit ?? DEFAULT_LIMIT, cursor: query.cursor }));
      return { items: page.items.map(presentAuditEvent), next_cursor: page.nextCursor };
    },
  );
}
