import { NotFoundError } from '../../domain/errors.js';
import { useCase } from '../../platform/use-cases/use-case.js';
import type { TransferDirection } from '../../domain/transfer-status.js';
import type { OffsetPage } from '../../platform/reads/pagination.js';
import type { Scope } from '../../platform/use-cases/scope.js';
import { isUuid } from '../../domain/identifiers/uuid.js';
import type { TransferDeps } from './context.js';
import { Quote, Transfer } from './entities.js';
import type {
  OfframpDeposit,
  OfframpDestination,
  OfframpQuoteRequest,
  OnrampQuoteRequest,
  OnrampTransferRequest,
  SimulatedCryptoDeposit,
  SimulatedFiatDeposit,
  SimulatedStep,
  SimulatedVirtualAccountDeposit,
} from './inputs.js';
import { lockTransfer, moveTransfer } from './ramps/lifecycle.js';
import { offramp } from './ramps/offramp.js';
import { onramp } from './ramps/onramp.js';
import { quoting } from './ramps/quotes.js';
import { type ShownTransferWithQuote, type StatusChangeRow, type TransferWithQuote, historiesOf, transferOfCustomer, transfersOfCustomer } from './queries.js';
import { simulations } from './ramps/simulations.js';
import { chainJobs } from './chain-jobs.js';
import { bankCreditCalls } from './calls/bank-credit.js';
import { bankPaymentCalls } from './calls/bank.js';
import { virtualAccountDepositThroughBank } from './bank-deposit-simulation.js';
import { bankInboxJob } from '../bank-payments/inbox.js';
import type { Job } from '../../platform/runtime/jobs.js';
import { type BankAccountDetails, numberOfDetails, personalValuesOfDetails, redactedDetails } from '../bank-accounts/records.js';
import { sealedNumbersOfCustomer } from './accounts/payout-account.js';

export type { Transfer, TransferWithQuote };
/** The transfer tables as typed reads see them: custody's jobs read a deposit's transfer (its deposit address index). */

/** Which transfer a REST path names: one of this customer's, in this direction. */
export interface TransferWithin {
  customerId?: string;
  direction?: TransferDirection;
}

/**
 * Quotes, on-ramp and off-ramp transfers, their lifecycle and sandbox settlement.
 * Inputs are the domain's (inputs.ts), validated here whichever face sent them; a ValidationError's
 * pointers name the input's fields (`/destinationBankAccount/iban/ibanNumber`). Every read and
 * move is the caller's own: another partner's id is unknown (404).
 */
export interface TransferService {
  /** Prices a quote for a KYC-approved customer: fiat in, a token out. */
  createOnrampQuote(scope: Scope, customerId: string, request: OnrampQuoteRequest): Promise<Quote>;
  /**
   * A pending on-ramp transfer of an unused, unexpired quote, with its deposit instructions. The
   * quote names its customer: `customerId`, when given (REST's path), must be that customer.
   */
  createOnrampTransfer(scope: Scope, customerId: string | undefined, quoteId: string, request: OnrampTransferRequest): Promise<TransferWithQuote>;
  /**
   * Prices an off-ramp quote; with a destination and a purpose, its pending transfer too. The payout account is
   * stored with its number sealed: `destination` is it in clear, for the creation answer only.
   */
  createOfframpQuote(
    scope: Scope,
    customerId: string,
    request: OfframpQuoteRequest,
  ): Promise<{ quote: Quote; transfer: Transfer | null; destination: BankAccountDetails | null }>;
  /** The off-ramp transfer of a bare quote, paying out to the destination given (`customerId` as above; `destination` as above). */
  createOfframpTransfer(
    scope: Scope,
    customerId: string | undefined,
    quoteId: string,
    destination: OfframpDestination,
  ): Promise<TransferWithQuote & { destination: BankAccountDetails }>;
  /**
   * The customer sent the tokens: the deposit's hash moves the transfer pending → processing (`customerId` as above). On a
   * live chain the deposit the hash names is read first, outside the transaction.
   */
  completeOfframpTransfer(scope: Scope, customerId: string | undefined, transferId: string, deposit: OfframpDeposit): Promise<TransferWithQuote>;
  /** The partner calls a pending transfer off: pending → canceled (409 from any other status). */
  cancel(scope: Scope, transferId: string, within?: TransferWithin): Promise<TransferWithQuote>;

  get(scope: Scope, id: string): Promise<Transfer>;
  /** One transfer of one customer in one direction, as the REST paths name it. */
  getForCustomer(scope: Scope, customerId: string, direction: TransferDirection, transferId: string): Promise<ShownTransferWithQuote>;
  getQuote(scope: Scope, id: string): Promise<Quote>;
  /** `GET …/{direction}-transfer`: newest first, by offset, as plain rows with their quotes. */
  listForCustomer(scope: Scope, customerId: string, direction: TransferDirection, page: OffsetPage): Promise<ShownTransferWithQuote[]>;

  // Sandbox settlement (403 in production), through the state machine like real progress.
  /** The fiat arrives, `deposit.amount` of it (the deposit amount when omitted): less fails the transfer `underpaid`. */
  simulateFiatDeposit(scope: Scope, transferId: string, deposit?: SimulatedFiatDeposit, within?: TransferWithin): Promise<TransferWithQuote>;
  /**
   * An off-ramp's tokens are sent, `deposit.amount` of them: on a live chain a real transfer to the deposit
   * address (the transfer stays pending for the watcher); on a simulated one it arrives at once.
   */
  simulateCryptoDeposit(scope: Scope, transferId: string, deposit?: SimulatedCryptoDeposit, within?: TransferWithin): Promise<TransferWithQuote>;
  /** The payout leaves: processing → completed (an on-ramp on a live chain reads its treasury first, outside the transaction). */
  simulateSettlement(scope: Scope, transferId: string, within?: TransferWithin): Promise<TransferWithQuote>;
  simulateFailure(scope: Scope, transferId: string, reason?: string, within?: TransferWithin): Promise<TransferWithQuote>;
  simulateRefund(scope: Scope, transferId: string, within?: TransferWithin): Promise<TransferWithQuote>;
  /** The REST simulate extension: one of the steps above, named by action. */
  simulateByAction(scope: Scope, customerId: string, direction: TransferDirection, step: SimulatedStep): Promise<TransferWithQuote>;
  /** Fiat paid into an active virtual account: a funded on-ramp transfer to its destination. */
  simulateVirtualAccountDeposit(
    scope: Scope,
    virtualAccountId: string,
    deposit: SimulatedVirtualAccountDeposit,
    customerId?: string,
  ): Promise<TransferWithQuote>;

  /** The jobs that follow this deployment's live chains: deposit watchers and payout senders (rails/port.ts). */
  chainJobs(): readonly Job[];

  // Batch loads for GraphQL dataloaders: one query per kind per request, only the caller's.
  loadTransfers(scope: Scope, ids: readonly string[]): Promise<Transfer[]>;
  loadQuotes(scope: Scope, ids: readonly string[]): Promise<Quote[]>;
  /** The transfer made from each quote (none while unused). */
  loadTransfersOfQuotes(scope: Scope, quoteIds: readonly string[]): Promise<Transfer[]>;
  /** Status histories, oldest change first. */
  loadHistories(scope: Scope, transferIds: readonly string[]): Promise<StatusChangeRow[]>;

  /** Whether a transfer of the customer is still moving money (pending or processing): erasure waits for it. */
  hasInFlight(scope: Scope, customerId: string): Promise<boolean>;
  /**
   * Erasure, in the caller's transaction: the inline destination bank accounts of the customer's off-ramps
   * read `[redacted]` (bank and routing codes kept); amounts, statuses and the ledger are untouched.
   * Returns the erased values, for finding their copies.
   */
  redactDestinations(scope: Scope, customerId: string): Promise<string[]>;
}

export function createTransferService(deps: TransferDeps): TransferService {
  const quotes = quoting(deps);
  const onramps = onramp(deps, quotes);
  const offramps = offramp(deps, quotes);
  const sandbox = simulations(deps, quotes, onramps);
  const credits = bankCreditCalls(deps, sandbox, quotes.now);

  /** One transfer of one customer in one direction, as the REST paths name it; else 404. */
  function getForCustomer(scope: Scope, customerId: string, direction: TransferDirection, transferId: string): Promise<ShownTransferWithQuote> {
    return transferOfCustomer(scope, customerId, direction, transferId);
  }

  async function get(scope: Scope, id: string): Promise<Transfer> {
    const transfer = isUuid(id) ? await scope.em.findOne(Transfer, { id }) : null;
    if (!transfer) throw new NotFoundError('Transfer');
    return transfer;
  }

  return {
    async hasInFlight({ em }: Scope, customerId: string): Promise<boolean> {
      return (await em.count(Transfer, { customerId, status: { $in: ['pending', 'processing'] } })) > 0;
    },

    async redactDestinations({ em }: Scope, customerId: string): Promise<string[]> {
      const transfers = await em.find(Transfer, { customerId, destinationBankAccount: { $ne: null } });
      // Opened before the customer's data key is destroyed: the copies (a stored creation answer) are found by them.
      const sealed = await sealedNumbersOfCustomer(em, customerId);
      const erased: string[] = [];
      for (const transfer of transfers) {
        const stored = sealed.get(transfer.id);
        const number = stored === undefined ? numberOfDetails(transfer.destinationBankAccount!) : await deps.dataKeys.open(em, customerId, stored);
        erased.push(...personalValuesOfDetails(transfer.destinationBankAccount!, number));
        transfer.destinationBankAccount = redactedDetails(transfer.destinationBankAccount!);
      }
      await em.flush();
      // The sealed numbers too (a lazy column no entity here loaded): with the key gone they could not open anyway.
      if (sealed.size)
        await em.execute('update transfers set destination_number = null where customer_id = ? and destination_number is not null', [customerId]);
      return erased;
    },

    getForCustomer,
    get,

    createOnrampQuote: onramps.createQuote,
    createOnrampTransfer: onramps.createTransfer,
    createOfframpQuote: offramps.createQuote,
    createOfframpTransfer: offramps.createTransfer,
    completeOfframpTransfer: offramps.complete,

    simulateFiatDeposit: sandbox.fiatDeposit,
    simulateCryptoDeposit: sandbox.cryptoDeposit,
    simulateSettlement: sandbox.settle,
    simulateFailure: sandbox.fail,
    simulateRefund: sandbox.refund,
    simulateByAction: sandbox.simulateByAction,
    simulateVirtualAccountDeposit: virtualAccountDepositThroughBank(deps, sandbox, (environment, bank, em) =>
      bankInboxJob(environment, bank, bankPaymentCalls, credits, deps.dataKeys).run(em),
    ),
    chainJobs: () => chainJobs(deps, credits),

    async cancel(scope: Scope, transferId: string, within: TransferWithin = {}): Promise<TransferWithQuote> {
      return useCase(scope, async (em) => {
        const moved = await lockTransfer(em, { id: transferId, ...within });
        await moveTransfer(em, moved.transfer, moved.quote, 'canceled', 'canceled_by_partner');
        return moved;
      });
    },

    /** `GET …/{direction}-transfer?limit&skip`: newest first; limit 1–100 (20), skip 0–10000. */
    async listForCustomer(scope: Scope, customerId: string, direction: TransferDirection, { limit, skip }: OffsetPage): Promise<ShownTransferWithQuote[]> {
      const customer = await deps.customers.get(scope, customerId);
      return transfersOfCustomer(scope, customer.id, direction, { limit, skip });
    },

    async getQuote(scope: Scope, id: string): Promise<Quote> {
      const quote = isUuid(id) ? await scope.em.findOne(Quote, { id }) : null;
      if (!quote) throw new NotFoundError('Quote');
      return quote;
    },

    // Batch loads for GraphQL dataloaders: one query per kind per request, scoped to the caller.
    loadTransfers: ({ em }: Scope, ids: readonly string[]) => em.find(Transfer, { id: { $in: ids.filter(isUuid) } }),
    loadQuotes: ({ em }: Scope, ids: readonly string[]) => em.find(Quote, { id: { $in: ids.filter(isUuid) } }),
    /** The transfer made from each quote (null while unused). */
    loadTransfersOfQuotes: ({ em }: Scope, quoteIds: readonly string[]) => em.find(Transfer, { quoteId: { $in: quoteIds.filter(isUuid) } }),
    /** Status history of many transfers: only those of the caller's own transfers come back. */
    loadHistories(scope: Scope, transferIds: readonly string[]): Promise<StatusChangeRow[]> {
      const ids = transferIds.filter(isUuid);
      return ids.length ? historiesOf(scope, ids) : Promise.resolve([]);
    },
  };
}
