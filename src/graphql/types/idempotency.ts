import type { GraphQLResolveInfo } from 'graphql';
import { answerDeclared, checkIdempotencyKey, fingerprint } from '../../platform/use-cases/idempotency.js';
import type { Scope } from '../../platform/use-cases/scope.js';
import { type GraphQLContext, scopeOf } from '../context.js';
import { withInputPaths } from './errors.js';

/** The key's rules report REST's header; here the key is a field of the input. */
const KEY_PATHS = { '/headers/idempotency-key': '/idempotencyKey' };

type Keyed = { idempotencyKey?: string | null };

/**
 * Declares a mutation under the same idempotency store as REST: `idempotencyKey` comes out of the
 * input, the rest is fingerprinted (`graphql:<mutation>`) and handed to `run`, which calls the use
 * case with the declaration on its scope; `keep` says what of the result a replay gets back. The use
 * case claims, runs and stores in its own unit of work (platform/use-cases/use-case.ts); the resolver opens none.
 */
async function runKeyed<I extends Keyed, T>(
  ctx: GraphQLContext,
  mutation: string,
  input: I,
  run: (scope: Scope, input: Omit<I, 'idempotencyKey'>) => Promise<T>,
  keep: (result: T) => unknown,
) {
  const { idempotencyKey, ...rest } = input;
  const key = await withInputPaths(
    Promise.resolve().then(() => checkIdempotencyKey(idempotencyKey ?? undefined, false)),
    KEY_PATHS,
  );
  return answerDeclared(
    scopeOf(ctx),
    { key, fingerprint: fingerprint(`graphql:${mutation}`, rest), answer: (result: T) => ({ status: 200, body: keep(result) }) },
    (scope) => withInputPaths(run(scope, rest)),
  );
}

/**
 * Runs a creating mutation idempotently (runKeyed). `run` returns the use case's result as it is;
 * `answer` is what of it the mutation answers. What is stored is the id of the resource answered;
 * a replay loads that resource again.
 */
export async function idempotentMutation<I extends Keyed, T extends { id: string }, U = T>(
  ctx: GraphQLContext,
  mutation: string,
  input: I,
  run: (scope: Scope, input: Omit<I, 'idempotencyKey'>) => Promise<U>,
  answer: (result: U) => T,
  load: (id: string) => Promise<T>,
): Promise<T> {
  const outcome = await runKeyed(ctx, mutation, input, run, (result) => ({ id: answer(result).id }));
  return outcome.result === undefined ? load((outcome.body as { id: string }).id) : answer(outcome.result);
}

/** What a creating mutation says of itself; the rest (key, fingerprint, replay, error paths) is the same for all. */
export interface CreatingMutation<I extends Keyed, P extends Keyed, T, U> {
  /** The input as it is fingerprinted and run, when it is not the input as sent: e.g. an id in one spelling, so a retry may spell it either way. */
  prepare?: (input: I) => P;
  /**
   * Calls the use case, with the declared request on `scope`, and returns its result as it is (the stored
   * answer is rendered from it); its ValidationErrors' pointers are the input's (a GraphQL input mirrors the domain's).
   */
  run: (input: Omit<P, 'idempotencyKey'>, scope: Scope, ctx: GraphQLContext) => Promise<U>;
  /** What of the use case's result the mutation answers, when not all of it (e.g. the transfer of a transfer and its quote). */
  answer?: (result: U) => T;
  /** A replay: the resource the first call produced, read again. */
  load: (id: string, scope: Scope, ctx: GraphQLContext) => Promise<T>;
}

/**
 * The resolver of a creating mutation: `resolve: creatingMutation({ run, load })`. Its one `input`
 * runs idempotently under the mutation's field name (`graphql:<field>` in the fingerprint).
 */
export const creatingMutation =
  <I extends Keyed, T extends { id: string }, P extends Keyed = I, U = T>({ prepare, run, answer, load }: CreatingMutation<I, P, T, U>) =>
  (_parent: unknown, { input }: { input: I }, ctx: GraphQLContext, info: GraphQLResolveInfo): Promise<T> =>
    idempotentMutation(
      ctx,
      info.fieldName,
      prepare ? prepare(input) : (input as unknown as P),
      (scope, rest) => run(rest, scope, ctx),
      answer ?? ((result) => result as unknown as T),
      (id) => load(id, scopeOf(ctx), ctx),
    );

/**
 * A mutation whose result is no stored resource to load again (the sandbox faucet's mint): run
 * idempotently (runKeyed) with its input's error paths, the result itself kept and a replay returning it.
 */
export async function idempotentResult<I extends Keyed, T>(
  ctx: GraphQLContext,
  mutation: string,
  input: I,
  run: (scope: Scope, input: Omit<I, 'idempotencyKey'>) => Promise<T>,
): Promise<T> {
  const outcome = await runKeyed(ctx, mutation, input, run, (result) => result);
  return outcome.result ?? (outcome.body as T);
}
