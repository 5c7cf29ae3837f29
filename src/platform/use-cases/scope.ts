import type { EntityManager } from '@mikro-orm/sql';
import type { Actor } from '../../domain/environment.js';
import type { AuditCall } from '../security/audit.js';
import type { DeclaredRequest } from './idempotency.js';
import { scopeTo } from '../security/tenant.js';
import { RequestEntityManager } from '../db/request-em.js';

export { tenantOf } from '../security/tenant.js';

/** What every use case runs with: the caller and its own EntityManager (fork or transaction). */
export interface Scope {
  em: EntityManager;
  actor: Actor;
  /** The request a face declared idempotent (its key, fingerprint and kept answer): the use case it calls claims and stores it (platform/use-cases/use-case.ts). */
  idempotency?: DeclaredRequest;
  /** The state-changing call the face audits (its actor, action and origin): `useCase` writes its row in its transaction (platform/security/audit.ts). */
  audit?: AuditCall;
}

/** Request scopes and the request's EntityManager each was made with: their reads use the pool until it is forked. */
const requestEms = new WeakMap<Scope, RequestEntityManager>();

/**
 * A use case's scope: `em` narrowed to the caller's tenant (platform/security/tenant.ts), so no query can leave it.
 * Given a request's EntityManager (db/request-em.ts), the scope forks it when `em` is first read; a read that only
 * runs Kysely statements (`readsOf`, platform/reads/queries.ts) never does. A copy of the scope
 * (`{ ...scope, em: tx }`) reads `em` and so is an ordinary scope: its reads are its own EntityManager's, inside its
 * transaction.
 */
export function scopeFor(em: EntityManager | RequestEntityManager, actor: Actor, audit?: AuditCall | null): Scope {
  if (!(em instanceof RequestEntityManager)) return { em: scopeTo(em, actor), actor, ...(audit && { audit }) };
  let scoped: EntityManager | null = null;
  const scope: Scope = {
    get em() {
      scoped ??= scopeTo(em.get(), actor);
      return scoped;
    },
    actor,
    ...(audit && { audit }),
  };
  requestEms.set(scope, em);
  return scope;
}

/** What every EntityManager of the ORM shares: its entities' metadata and its platform (how a read converts a column). */
export type OrmModel = Pick<EntityManager, 'getMetadata' | 'getPlatform'>;

/** The ORM's model for a read that builds its statement from entity metadata (`rowShape`): reading it forks nothing. */
export function modelOf(scope: Scope): OrmModel {
  const lazy = requestEms.get(scope);
  return lazy ? lazy.model() : scope.em;
}

/** The request's EntityManager a scope was made with, forked or not (platform/reads/queries.ts `readsOf`). */
export const requestEmOf = (scope: Scope): RequestEntityManager | undefined => requestEms.get(scope);

/** Ids compared in code, not by PostgreSQL: a UUID in a path may come in upper case. */
export const sameId = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
