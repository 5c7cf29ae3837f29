import type { FastifyInstance } from 'fastify';
import { parseInput } from '../../domain/validation.js';
import { requestScope, withRestPointers } from '../../platform/rest.js';
import type { Services } from '../../services.js';
import { EventListQuery } from './inputs.js';
import { presentListedEvent } from './presenters.js';

/** GET /v0/events (an extension): the outbox after a cursor, to reconcile after downtime. */
export function eventRoutes(app: FastifyInstance, { events }: Services) {
  app.get('/v0/events', async (request) => {
    const page = await withRestPointers(events.list(requestScope(request), parseInput(EventListQuery, request.query ?? {})));
    return { items: page.items.map(presentListedEvent), has_more: page.hasMore, next_cursor: page.nextCursor };
  });
}
