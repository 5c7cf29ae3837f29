import { setTimeout as sleep } from 'node:timers/promises';
import type { EntityManager } from '@mikro-orm/sql';
import { type Environment, assertSandbox } from '../../domain/environment.js';
import { RAILS_OF_CURRENCY, SCALE, toFixedPlaces } from '../../domain/money.js';
import { parseAmount } from '../../domain/pricing.js';
import { parseInput } from '../../domain/validation.js';
import { unitOfWork } from '../../platform/db/unit-of-work.js';
import type { Scope } from '../../platform/use-cases/scope.js';
import { scopeTo } from '../../platform/security/tenant.js';
import { useCase } from '../../platform/use-cases/use-case.js';
import type { Iso20022Bank } from '../../rails/port.js';
import { entryApplied } from '../bank-payments/operator.js';
import type { TransferDeps } from './context.js';
import { Quote, Transfer } from './entities.js';
import { SimulatedVirtualAccountDeposit } from './inputs.js';
import type { simulations } from './ramps/simulations.js';

/** Thrown to roll back a dry run: what it checked passed. */
class DryRun extends Error {}

/** How long the simulate call waits for a credit another reader took first to be applied (it applies in one transaction). */
const APPLIED_WITHIN_MS = 5_000;

/**
 * The sandbox's simulated virtual account deposit, through the bank when SANDBOX_BANK=iso20022 with its simulator: the
 * simulator books a camt.054 credit to the account's number, and the inbox reader applies it as any bank credit
 * (bank-payments/credits.ts), which creates and funds the on-ramp. The call answers with that transfer, as the
 * in-process bank's does: it reads the inbox itself rather than wait for the next round of the jobs.
 * What would refuse the deposit (an account not active, an amount out of range …) is tried first in a transaction
 * rolled back, so a refused call books nothing at the bank and answers the same error as without it.
 */
export function virtualAccountDepositThroughBank(
  deps: Pick<TransferDeps, 'rails' | 'virtualAccounts'>,
  sandbox: ReturnType<typeof simulations>,
  readInbox: (environment: Environment, bank: Iso20022Bank, em: EntityManager) => Promise<unknown>,
) {
  return async (scope: Scope, virtualAccountId: string, deposit: SimulatedVirtualAccountDeposit, customerId?: string) => {
    assertSandbox(scope.actor);
    const bank = deps.rails.bank(scope.actor.environment);
    const simulator = bank?.kind === 'iso20022' ? deps.rails.sandboxBankSimulator : null;
    if (!simulator || bank?.kind !== 'iso20022') return sandbox.virtualAccountDeposit(scope, virtualAccountId, deposit, customerId);
    const data = parseInput(SimulatedVirtualAccountDeposit, deposit);
    const environment = scope.actor.environment;
    return useCase(scope, {
      read: async () => {
        const account = await dryRun(scope, async (em) => {
          const inTenant = { ...scope, em };
          const found =
            customerId === undefined
              ? await deps.virtualAccounts.get(inTenant, virtualAccountId)
              : await deps.virtualAccounts.getForCustomer(inTenant, customerId, virtualAccountId);
          await sandbox.virtualAccountFunded(inTenant, found, data.amount);
          return found;
        });
        const currency = account.sourceCurrency;
        const collection = bank.collectionAccount(currency, account.sourceRails ?? RAILS_OF_CURRENCY[currency][0]!);
        const reference = await simulator.bookCredit({
          account: collection.iban?.ibanNumber ?? collection.us!.accountNumber,
          amount: toFixedPlaces(parseAmount(data.amount, currency, '/amount'), SCALE[currency]),
          currency,
          creditorAccount: account.depositAccountNumber!,
        });
        for (const started = Date.now(); Date.now() - started < APPLIED_WITHIN_MS; await sleep(50)) {
          await readInbox(environment, bank, scope.em.fork());
          if (await entryApplied(scope.em.fork(), environment, reference)) return reference;
        }
        throw new Error(`the bank's credit ${reference} was not applied within ${APPLIED_WITHIN_MS} ms`);
      },
      work: async (em, reference) => {
        const entry = (await entryApplied(em, environment, reference))!;
        if (entry.outcome !== 'credited' || !entry.transferId) {
          // Refused between the dry run and the credit (the customer erased meanwhile): the credit is held for an operator.
          throw new Error(`the bank's credit ${reference} funded nothing (${entry.outcome}: ${entry.reason}); it is held for an operator`);
        }
        const transfer = await em.findOneOrFail(Transfer, { id: entry.transferId });
        return { transfer, quote: await em.findOneOrFail(Quote, { id: transfer.quoteId }) };
      },
    });
  };
}

/** Runs `work` in a transaction always rolled back: answers its result, or throws what refused it. */
async function dryRun<T>(scope: Scope, work: (em: EntityManager) => Promise<T>): Promise<T> {
  let result: T | undefined;
  try {
    await unitOfWork(scopeTo(scope.em.fork(), scope.actor), async (tx) => {
      result = await work(tx);
      throw new DryRun();
    });
  } catch (error) {
    if (!(error instanceof DryRun)) throw error;
  }
  return result as T;
}
