import type { EntityManager } from '@mikro-orm/sql';
import type { Actor } from '../../domain/environment.js';
import type { AuditCall } from '../security/audit.js';
import type { DeclaredRequest } from './idempotency.js';
import { scopeTo } from '../security/tenant.js';

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

/** A use case's scope: `em` narrowed to the caller's tenant (platform/security/tenant.ts), so no query can leave it. */
export const scopeFor = (em: EntityManager, actor: Actor, audit?: AuditCall | null): Scope => ({
  em: scopeTo(em, actor),
  actor,
  ...(audit && { audit }),
});

/** Ids compared in code, not by PostgreSQL: a UUID in a path may come in upper case. */
export const sameId = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
