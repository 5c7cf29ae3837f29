import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../domain/environment.js';
import { UnauthenticatedError } from '../domain/errors.js';
import { checkIdempotencyKey, fingerprint, type IdempotentResponse, runIdempotently } from './idempotency.js';
import type { Scope } from './scope.js';
import type { EntityManager } from '@mikro-orm/sql';

declare module 'fastify' {
  interface FastifyRequest {
    /** This request's own EntityManager fork. */
    em: EntityManager;
    /** Set for every authenticated route. */
    actor: Actor | null;
  }
}

export function requestScope(request: FastifyRequest): Scope {
  if (!request.actor) throw new UnauthenticatedError('unauthenticated', 'An API key is required');
  return { em: request.em, actor: request.actor };
}

/**
 * Answers a POST through the idempotency store: the first response is stored and a repeat
 * with the same Idempotency-Key replays it with `Idempotent-Replayed: true`.
 */
export async function replyIdempotently(
  request: FastifyRequest,
  reply: FastifyReply,
  options: { required: boolean },
  run: (scope: Scope) => Promise<IdempotentResponse>,
): Promise<FastifyReply> {
  const scope = requestScope(request);
  const header = request.headers['idempotency-key'];
  const key = checkIdempotencyKey(Array.isArray(header) ? header[0] : header, options.required);
  const operation = `${request.method} ${request.routeOptions.url} ${JSON.stringify(request.params)}`;
  const outcome = await runIdempotently(scope.em, scope.actor, { key, fingerprint: fingerprint(operation, request.body ?? null) }, async (em) => ({
    ...(await run({ ...scope, em })),
    result: undefined,
  }));
  if (outcome.replayed) reply.header('Idempotent-Replayed', 'true');
  return reply.code(outcome.status).send(outcome.body);
}
