import type { EntityManager } from '@mikro-orm/sql';
import { checkIdempotencyKey, fingerprint, runIdempotently } from '../platform/idempotency.js';
import { type GraphQLContext, scopeOf } from './context.js';
import { withInputPaths } from './errors.js';

/** The key's rules report REST's header; here the key is a field of the input. */
const KEY_PATHS = { '/headers/idempotency-key': '/idempotencyKey' };

/**
 * Runs a creating mutation under the same idempotency store as REST: `idempotencyKey` comes out of
 * its input, the rest is fingerprinted and handed to `run`. What is stored is the id of the
 * resource the mutation produced; a replay loads that resource again.
 */
export async function idempotentMutation<I extends { idempotencyKey?: string | null }, T extends { id: string }>(
  ctx: GraphQLContext,
  mutation: string,
  input: I,
  run: (em: EntityManager, input: Omit<I, 'idempotencyKey'>) => Promise<T>,
  load: (id: string) => Promise<T>,
): Promise<T> {
  const { idempotencyKey, ...rest } = input;
  const scope = scopeOf(ctx);
  const key = await withInputPaths(
    Promise.resolve().then(() => checkIdempotencyKey(idempotencyKey ?? undefined, false)),
    KEY_PATHS,
  );
  const outcome = await runIdempotently(scope.em, scope.actor, { key, fingerprint: fingerprint(`graphql:${mutation}`, rest) }, async (tx) => {
    const result = await run(tx, rest);
    return { status: 200, body: { id: result.id }, result };
  });
  return outcome.result ?? load((outcome.body as { id: string }).id);
}
