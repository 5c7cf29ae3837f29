import type { EntityManager } from '@mikro-orm/sql';
import type { GraphQLResolveInfo } from 'graphql';
import { checkIdempotencyKey, fingerprint, runIdempotently } from '../platform/idempotency.js';
import type { Scope } from '../platform/scope.js';
import { type GraphQLContext, scopeOf } from './context.js';
import { withInputPaths } from './errors.js';

/** The key's rules report REST's header; here the key is a field of the input. */
const KEY_PATHS = { '/headers/idempotency-key': '/idempotencyKey' };

type Keyed = { idempotencyKey?: string | null };

/**
 * Runs `run` under the same idempotency store as REST: `idempotencyKey` comes out of the input, the
 * rest is fingerprinted (`graphql:<mutation>`) and handed to `run`, which says what to keep for a replay.
 */
async function runKeyed<I extends Keyed, T, R = undefined>(
  ctx: GraphQLContext,
  mutation: string,
  input: I,
  run: (em: EntityManager, input: Omit<I, 'idempotencyKey'>, read: R) => Promise<{ body: unknown; result: T }>,
  readFirst?: (input: Omit<I, 'idempotencyKey'>) => Promise<R>,
) {
  const { idempotencyKey, ...rest } = input;
  const scope = scopeOf(ctx);
  const key = await withInputPaths(
    Promise.resolve().then(() => checkIdempotencyKey(idempotencyKey ?? undefined, false)),
    KEY_PATHS,
  );
  return runIdempotently(
    scope.em,
    scope.actor,
    { key, fingerprint: fingerprint(`graphql:${mutation}`, rest) },
    async (tx, read: R) => ({ status: 200, ...(await run(tx, rest, read)) }),
    readFirst && (() => withInputPaths(readFirst(rest))),
  );
}

/**
 * Runs a creating mutation idempotently (runKeyed). What is stored is the id of the resource the
 * mutation produced; a replay loads that resource again.
 */
export async function idempotentMutation<I extends Keyed, T extends { id: string }, R = undefined>(
  ctx: GraphQLContext,
  mutation: string,
  input: I,
  run: (em: EntityManager, input: Omit<I, 'idempotencyKey'>, read: R) => Promise<T>,
  load: (id: string) => Promise<T>,
  readFirst?: (input: Omit<I, 'idempotencyKey'>) => Promise<R>,
): Promise<T> {
  const outcome = await runKeyed(
    ctx,
    mutation,
    input,
    async (tx, rest, read: R) => {
      const result = await run(tx, rest, read);
      return { body: { id: result.id }, result };
    },
    readFirst,
  );
  return outcome.result ?? load((outcome.body as { id: string }).id);
}

/** What a creating mutation says of itself; the rest (key, fingerprint, transaction, replay, error paths) is the same for all. */
export interface CreatingMutation<I extends Keyed, P extends Keyed, T, R = undefined> {
  /** The input as it is fingerprinted and run, when it is not the input as sent: e.g. an id in one spelling, so a retry may spell it either way. */
  prepare?: (input: I) => P;
  /** What the use case reads of the outside world (a chain), before its unit of work opens. */
  readFirst?: (input: Omit<P, 'idempotencyKey'>, scope: Scope, ctx: GraphQLContext) => Promise<R>;
  /** The use case, in the idempotency transaction; its ValidationErrors' pointers are the input's (a GraphQL input mirrors the domain's). */
  run: (input: Omit<P, 'idempotencyKey'>, scope: Scope, ctx: GraphQLContext, read: R) => Promise<T>;
  /** A replay: the resource the first call produced, read again. */
  load: (id: string, scope: Scope, ctx: GraphQLContext) => Promise<T>;
}

/**
 * The resolver of a creating mutation: `resolve: creatingMutation({ run, load })`. Its one `input`
 * runs idempotently under the mutation's field name (`graphql:<field>` in the fingerprint).
 */
export const creatingMutation =
  <I extends Keyed, T extends { id: string }, P extends Keyed = I, R = undefined>({ prepare, readFirst, run, load }: CreatingMutation<I, P, T, R>) =>
  (_parent: unknown, { input }: { input: I }, ctx: GraphQLContext, info: GraphQLResolveInfo): Promise<T> =>
    idempotentMutation(
      ctx,
      info.fieldName,
      prepare ? prepare(input) : (input as unknown as P),
      (em, rest, read: R) => withInputPaths(run(rest, { ...scopeOf(ctx), em }, ctx, read)),
      (id) => load(id, scopeOf(ctx), ctx),
      readFirst && ((rest) => readFirst(rest, scopeOf(ctx), ctx)),
    );

/**
 * A mutation whose result is no stored resource to load again (the sandbox faucet's mint): run
 * idempotently (runKeyed) with its input's error paths, the result itself kept and a replay returning it.
 */
export async function idempotentResult<I extends Keyed, T, R = undefined>(
  ctx: GraphQLContext,
  mutation: string,
  input: I,
  run: (scope: Scope, input: Omit<I, 'idempotencyKey'>, read: R) => Promise<T>,
  readFirst?: (scope: Scope, input: Omit<I, 'idempotencyKey'>) => Promise<R>,
): Promise<T> {
  const outcome = await runKeyed(
    ctx,
    mutation,
    input,
    async (em, rest, read: R) => {
      const result = await withInputPaths(run({ ...scopeOf(ctx), em }, rest, read));
      return { body: result, result };
    },
    readFirst && ((rest) => readFirst(scopeOf(ctx), rest)),
  );
  return outcome.result ?? (outcome.body as T);
}
