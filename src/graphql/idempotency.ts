import type { EntityManager } from '@mikro-orm/sql';
import { checkIdempotencyKey, fingerprint, runIdempotently } from '../platform/idempotency.js';
import { type GraphQLContext, scopeOf } from './context.js';

/**
 * Runs a mutation under the same idempotency store as REST. What is stored is the id of the
 * resource the mutation produced; a replay loads that resource again.
 */
export async function idempotentMutation<T extends { id: string }>(
  ctx: GraphQLContext,
  mutation: string,
  args: { idempotencyKey?: string | null } & Record<string, unknown>,
  run: (em: EntityManager) => Promise<T>,
  load: (id: string) => Promise<T>,
): Promise<T> {
  const { idempotencyKey, ...input } = args;
  const scope = scopeOf(ctx);
  const key = checkIdempotencyKey(idempotencyKey ?? undefined, false);
  const outcome = await runIdempotently(scope.em, scope.actor, { key, fingerprint: fingerprint(`graphql:${mutation}`, input) }, async (tx) => {
    const result = await run(tx);
    return { status: 200, body: { id: result.id }, result };
  });
  return outcome.result ?? load((outcome.body as { id: string }).id);
}
