import type { EntityManager } from '@mikro-orm/sql';
import type { Actor } from '../domain/environment.js';

/** What every use case runs with: the caller and its own EntityManager (fork or transaction). */
export interface Scope {
  em: EntityManager;
  actor: Actor;
}

/** The filter that keeps every read and write inside the caller's partner and environment. */
export const tenantOf = (actor: Actor) => ({ partnerId: actor.partnerId, environment: actor.environment });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A malformed id is treated as an unknown one: both answer 404. */
export const isUuid = (id: string) => UUID.test(id);

/** Ids compared in code, not by PostgreSQL: a UUID in a path may come in upper case. */
export const sameId = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
