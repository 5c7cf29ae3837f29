import type { FastifyInstance } from 'fastify';
import { requestScope } from '../../platform/rest.js';
import type { Services } from '../../services.js';
import { presentListedEvent } from './presenters.js';

type EventsQuery = { Querystring: { after?: string; types?: string | string[]; limit?: string } };

/** `types` as a comma-separated list or a repeated parameter. */
const typesOf = (types: string | string[] | undefined) =>
  types === undefined
    ? undefined
    : (Array.isArray(types) ? types : [types])
        .flatMap((t) => t.split(','))
        .map((t) => t.trim())
        .filter(Boolean);

/** GET /v0/events (an extension): the outbox after a cursor, to reconcile after downtime. */
export function eventRoutes(app: FastifyInstance, { events }: Services) {
  app.get<EventsQuery>('/v0/events', async (request) => {
    const { after, types, limit } = request.query;
    const page = await events.list(requestScope(request), { after, types: typesOf(types), limit });
    return { items: page.items.map(presentListedEvent), has_more: page.hasMore, next_cursor: page.nextCursor };
  });
}
