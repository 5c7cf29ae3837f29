import type { RequestEntityManager } from '../platform/db/request-em.js';
import type { Logger } from 'pino';
import type { Actor } from '../domain/environment.js';
import { UnauthenticatedError } from '../domain/errors.js';
import type { AuditCall, CallOrigin } from '../platform/security/audit.js';
import type { PageCursors } from '../platform/reads/pagination.js';
import { type Scope, scopeFor } from '../platform/use-cases/scope.js';

/**
 * The use cases resolvers call. Empty here, so that src/graphql names no feature: the composition
 * root (src/services.ts) fills it by declaration merging with everything `buildServices` returns, as
 * Fastify's own types are extended, so resolvers still see every service fully typed.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by declaration merging (src/services.ts)
export interface GraphQLServices {}

export interface GraphQLContext {
  /**
   * This request's (or this subscription event's) own EntityManager, forked when first used: `scopeOf` hands it to
   * the use cases, whose Kysely reads need none (platform/db/request-em.ts). Not a getter on the context: envelop
   * copies the context's properties, which would fork it for every request.
   */
  requestEm: RequestEntityManager;
  /** Null only for an introspection-only request, which needs no key. */
  actor: Actor | null;
  requestId: string;
  services: GraphQLServices;
  /** Seals and opens the cursors of keyset connections (graphql/types/connection.ts). */
  pageCursors: PageCursors;
  /** Where what the answer cannot say is logged (an audit row not written), with this request's id when it has one. */
  log: Pick<Logger, 'warn' | 'error'>;
  /** Where the request came from (its client's address and User-Agent), for its audit rows; absent for a webhook's query. */
  origin?: CallOrigin;
  /**
   * The audited call of the mutation field running now (graphql/audit.ts), which `scopeOf` hands to its use case.
   * Mutation fields run one after another, so one context holds one call at a time.
   */
  auditCall?: AuditCall;
  /** A subscription's graphql-ws connection (closed when the subscriber falls too far behind); absent over HTTP. */
  connection?: { close(code: number, reason: string): void };
  /** The scope `scopeOf` made last: every resolver of a query asks for it, and making one each time was 2 % of a read. */
  keptScope?: Scope;
}

/** The use-case scope of a GraphQL request; every root field needs an authenticated caller. */
export function scopeOf(ctx: GraphQLContext): Scope {
  if (!ctx.actor) throw new UnauthenticatedError('unauthenticated', 'An API key is required');
  const kept = ctx.keptScope;
  // A mutation field's audit call is its own: a scope made for another field (or none) is not reused.
  if (kept && kept.actor === ctx.actor && kept.audit === ctx.auditCall) return kept;
  ctx.keptScope = scopeFor(ctx.requestEm, ctx.actor, ctx.auditCall);
  return ctx.keptScope;
}
