import type { EntityManager } from '@mikro-orm/sql';
import { inTransaction, unitOfWork } from './db/unit-of-work.js';
import { claimKey } from './idempotency.js';
import type { Scope } from './scope.js';

/**
 * A request use case's steps: `read` asks the outside world (a chain, a bank) what the work needs, never
 * inside a transaction; `work` makes the change in the unit of work's transaction.
 */
export interface UseCaseSteps<T, R> {
  read?: () => Promise<R>;
  work: (em: EntityManager, read: R) => Promise<T>;
}

/**
 * Opens a request use case's unit of work, the one call every mutating use case makes. With a request
 * the face declared idempotent on `scope` (the first use case to get here takes it; only one may):
 * 1. the key is claimed in its own committed statement, so a concurrent repeat sees it in flight; a
 *    completed key throws Replayed and nothing runs;
 * 2. `read` runs, outside any transaction;
 * 3. the transaction opens, `work` runs, the face's answer is rendered from its result and stored under
 *    the claim, and it commits: the change, its event and the stored answer, or none of them;
 * 4. the effects `work` registered (`afterCommit`) run.
 * A failure anywhere releases the key, so a corrected retry may use it. Inside another unit of work
 * the use case joins that one's transaction, and the outer use case holds the key.
 */
export async function useCase<T, R = undefined>(scope: Scope, steps: ((em: EntityManager) => Promise<T>) | UseCaseSteps<T, R>): Promise<T> {
  const { read, work } = typeof steps === 'function' ? { read: undefined, work: steps } : steps;
  const declared = inTransaction() || scope.idempotency?.taken ? undefined : scope.idempotency;
  if (declared) declared.taken = true;
  const { key, fingerprint } = declared?.request ?? {};
  const claimed = key && fingerprint !== undefined ? await claimKey(scope.em, scope.actor, { key, fingerprint }) : undefined;
  try {
    const reading = (read ? await read() : undefined) as R;
    return await unitOfWork(scope.em, async (tx) => {
      const result = await work(tx, reading);
      if (declared) {
        const answer = await declared.request.answer(result);
        await claimed?.store(tx, answer);
        declared.answered = answer;
        declared.answeredFrom = result;
      }
      return result;
    });
  } catch (error) {
    await claimed?.release();
    throw error;
  }
}
