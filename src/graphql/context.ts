import type { EntityManager } from '@mikro-orm/sql';
import type { Actor } from '../domain/environment.js';
import { UnauthenticatedError } from '../domain/errors.js';
import { type Scope, scopeFor } from '../platform/scope.js';
import type { Services } from '../services.js';

export interface GraphQLContext {
  /** This request's (or this subscription event's) own EntityManager. */
  em: EntityManager;
  /** Null only for an introspection-only request, which needs no key. */
  actor: Actor | null;
  requestId: string;
  services: Services;
  /** A subscription's graphql-ws connection (closed when the subscriber falls too far behind); absent over HTTP. */
  connection?: { close(code: number, reason: string): void };
}

/** The use-case scope of a GraphQL request; every root field needs an authenticated caller. */
export function scopeOf(ctx: GraphQLContext): Scope {
  if (!ctx.actor) throw new UnauthenticatedError('unauthenticated', 'An API key is required');
  return scopeFor(ctx.em, ctx.actor);
}
