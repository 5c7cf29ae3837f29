import { OutboxEvent, type OutboxTables } from '../../platform/messaging/outbox.js';
import { type Columns, readsOver, rowShape, rowsOf, selecting } from '../../platform/reads/queries.js';
import { type Scope, modelOf } from '../../platform/use-cases/scope.js';

const { tenant } = readsOver<OutboxTables>();

/** An outbox row as the events API and the subscriptions' replays read it: a plain object, no entity. */
export type EventRow = Columns<OutboxEvent>;

/** Which of the caller's events a read wants: after a position (and before one), of some types, about one entity. */
export interface EventFilter {
  after: string;
  before?: string;
  types?: readonly string[];
  entityId?: string;
}

/** Up to `limit` of the caller's events that `filter` wants, in cursor order (newest first when `descending`). */
export function eventsOf(scope: Scope, filter: EventFilter, limit: number, descending = false): Promise<EventRow[]> {
  const shape = rowShape(modelOf(scope), OutboxEvent, 'e');
  let query = tenant(scope, 'events', 'e').where('e.cursor', '>', filter.after);
  if (filter.before) query = query.where('e.cursor', '<', filter.before);
  if (filter.types?.length) query = query.where('e.type', 'in', [...filter.types]);
  if (filter.entityId) query = query.where('e.entity_id', '=', filter.entityId);
  return rowsOf(selecting(query.orderBy('e.cursor', descending ? 'desc' : 'asc').limit(limit), shape), shape);
}
