import { AsyncLocalStorage } from 'node:async_hooks';
import { TransactionContext, TransactionPropagation } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';

/*
 * A unit of work: one database transaction, and the side effects it decided on, run only once it
 * committed. A request use case opens it through `useCase` (platform/use-cases/use-case.ts), which also claims
 * and stores the request's idempotency key in it; a job opens it here directly. A side effect (a broadcast, a bank file, a mint) is first stored as what must be
 * sent, in the transaction; `afterCommit` then sends it at once, and the job that follows the stored
 * intent sends it again if this process dies first. A rolled-back transaction runs none of them.
 */
/** An effect gets the EntityManager the unit of work was opened on: its transaction is over, its statements commit on their own. */
export type Effect = (em: EntityManager) => Promise<unknown>;

const effectsOfTransaction = new AsyncLocalStorage<Effect[]>();

/** Whether the caller is inside an open database transaction (MikroORM's own async context says so). */
export const inTransaction = (): boolean => TransactionContext.getEntityManager()?.isInTransaction() ?? false;

/** Raised by a call to the outside money world (a chain, a bank) made while a database transaction is open: a bug. */
export class RailsCallInTransaction extends Error {
  constructor(call: string) {
    super(
      `${call} was called inside a database transaction: a chain or bank call holds the transaction's connection and locks ` +
        'for as long as the other side takes. Read before the transaction opens; store what must be sent and send it after commit.',
    );
    this.name = 'RailsCallInTransaction';
  }
}

/** Throws RailsCallInTransaction when a transaction is open. Every rails adapter calls it before it talks to the outside. */
export function assertOutsideTransaction(call: string): void {
  if (inTransaction()) throw new RailsCallInTransaction(call);
}

/**
 * Runs `work` in a transaction, then the effects it registered with `afterCommit`, in order. Inside
 * another unit of work it joins that one's transaction (no savepoint: a failure fails the whole unit,
 * which is rolled back), and its effects wait for the outer commit.
 */
export async function unitOfWork<T>(em: EntityManager, work: (tx: EntityManager) => Promise<T>): Promise<T> {
  if (effectsOfTransaction.getStore() && inTransaction()) return em.transactional(work, { propagation: TransactionPropagation.REQUIRED });
  const effects: Effect[] = [];
  const result = await effectsOfTransaction.run(effects, () => em.transactional(work));
  await runEffects(em, effects);
  return result;
}

/**
 * Registers `effect` to run once the enclosing unit of work commits. An effect is a nudge, not the
 * guarantee: what it sends is already stored, and a job sends it again if the effect fails or never
 * runs; so its failure is swallowed here (the job's own run reports a lasting one).
 */
export function afterCommit(effect: Effect): void {
  const effects = effectsOfTransaction.getStore();
  if (!effects || !inTransaction()) throw new Error('afterCommit needs an open unit of work (unitOfWork)');
  effects.push(effect);
}

async function runEffects(em: EntityManager, effects: readonly Effect[]): Promise<void> {
  for (const effect of effects) {
    await effect(em).catch((error: unknown) => {
      // Not a failure to swallow: an effect run while some transaction is still open is a bug to see.
      if (error instanceof RailsCallInTransaction) throw error;
    });
  }
}
