import type { FastifyInstance } from 'fastify';
import { parseInput } from '../../domain/validation.js';
import { contract } from '../../rest/openapi/contract.js';
import { requestScope, withRestPointers } from '../../rest/routes.js';
import type { Services } from '../../services.js';
import { EventListQuery } from './inputs.js';
import { presentListedEvent } from './presenters.js';
import { EventPageAnswer } from './rest-bodies.js';

/** GET /v0/events (an extension): the outbox after a cursor, to reconcile after downtime. */
export function eventRoutes(app: FastifyInstance, { events }: Services) {
  app.get(
    '/v0/events',
    contract({
      operationId: 'listEvents',
      scope: 'read',
      summary: 'Events after a cursor (reconcile after downtime)',
      description: '`after` is a cursor from an earlier event or `0` for the start; `types` filters (comma-separated or repeated).',
      tag: 'Events',
      query: EventListQuery,
      responses: { 200: { description: 'A page of events, oldest first', body: EventPageAnswer } },
      errors: ['invalid_cursor'],
    }),
    async (request) => {
      const page = await withRestPointers(events.list(requestScope(request), parseInput(EventListQuery, request.query ?? {})));
      return { items: page.items.map(presentListedEvent), has_more: page.hasMore, next_cursor: page.nextCursor };
    },
  );
}
