import type { EntityManager } from '@mikro-orm/sql';
import { inTransaction, unitOfWork } from '../db/unit-of-work.js';
import { auditedWork, auditedWorkEnded } from '../security/audit.js';
import { Replayed, claimKey } from './idempotency.js';
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
 * the use case joins that one's transaction, and the outer use case holds the key and the audit call.
 * The audit call the face put on `scope` (platform/security/audit.ts) gets its row in the transaction, once `work`
 * changed something and before the answer is rendered: a failure up to the commit rolls the row back with
 * the change. A replay is noted on the call, which its face records once it answers.
 */
export async function useCase<T, R = undefined>(scope: Scope, steps: ((em: EntityManager) => Promise<T>) | UseCaseSteps<T, R>): Promise<T> {
  const { read, work } = typeof steps === 'function' ? { read: undefined, work: steps } : steps;
  const outermost = !inTransaction();
  const declared = !outermost || scope.idempotency?.taken ? undefined : scope.idempotency;
  const audit = outermost ? scope.audit : undefined;
  if (declared) declared.taken = true;
  const { key, fingerprint } = declared?.request ?? {};
  const claimed = key && fingerprint !== undefined ? await claimKey(scope.em, scope.actor, { key, fingerprint }).catch(notedReplay(scope)) : undefined;
  try {
    const reading = (read ? await read() : undefined) as R;
    const result = await unitOfWork(scope.em, async (tx) => {
      const result = await auditedWork(tx, audit, () => work(tx, reading));
      if (declared) {
        const answer = await declared.request.answer(result);
        await claimed?.store(tx, answer);
        declared.answered = answer;
        declared.answeredFrom = result;
      }
      return result;
    });
    auditedWorkEnded(audit, true);
    return result;
  } catch (error) {
    auditedWorkEnded(audit, false);
    await claimed?.release();
    throw error;
  }
}

/** A completed key's replay changed nothing: its call is recorded as a replay when it answers. */
const notedReplay =
  (scope: Scope) =>
  (error: unknown): never => {
    if (error instanceof Replayed && scope.audit) scope.audit.replayed = true;
    throw error;
  };
