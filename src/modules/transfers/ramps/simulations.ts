import { assertSandbox } from '../../../domain/environment.js';
import { useCase } from '../../../platform/use-cases/use-case.js';
import { UnprocessableError, ValidationError, fieldError } from '../../../domain/errors.js';
import { type TransferDirection, assertTransition } from '../../../domain/transfer-status.js';
import { parseAmount } from '../../../domain/pricing.js';
import { normalizeTransactionHash, sandboxTransactionHash } from '../../../domain/identifiers/chain.js';
import { type FiatCurrency, type Network, type PaymentRails, SCALE, toFixedPlaces } from '../../../domain/money.js';
import { parseInput } from '../../../domain/validation.js';
import type { Scope } from '../../../platform/use-cases/scope.js';
import type { TransferDeps } from '../context.js';
import { virtualAccountDepositAccount } from '../accounts/deposit-instructions.js';
import { Quote, Transfer } from '../entities.js';
import { SimulatedCryptoDeposit, SimulatedFailure, SimulatedFiatDeposit, SimulatedStep, SimulatedVirtualAccountDeposit } from '../inputs.js';
import { baseUnits } from '../../../domain/token-units.js';
import { assertDepositWindowOpen, lockTransfer, moveTransfer } from './lifecycle.js';
import type { onramp } from './onramp.js';
import { payNow } from '../../custody/payouts/send.js';
import { type TreasuryReading, readTreasury } from '../../custody/payouts/sign.js';
import { payoutCalls, payoutRequestOf } from '../calls/payout.js';
import { afterCommit } from '../../../platform/db/unit-of-work.js';
import { isUuid } from '../../../domain/identifiers/uuid.js';
import type { BankAccountDetails } from '../../bank-accounts/records.js';
import { depositSplit } from '../../../domain/ledger.js';
import type { Iso20022Bank, LiveChain } from '../../../rails/port.js';
import { fiatPayoutOf, fiatPayouts } from '../fiat-payouts.js';
import type { Quoting } from './quotes.js';
import type { VirtualAccount } from '../../virtual-accounts/service.js';

type Moved = { transfer: Transfer; quote: Quote };

/** The external accounts a refund over each rails may go to: an IBAN for SEPA and UAEFTS, a US account for ACH and Fedwire. */
const REFUND_ACCOUNT_TYPES: Record<PaymentRails, readonly BankAccountDetails['account_type'][]> = {
  sepa: ['iban'],
  uaefts: ['iban'],
  ach: ['us'],
  wire: ['us'],
  swift: ['swift', 'iban'],
};

/** What settling a live-chain on-ramp read of its chain before its unit of work: the treasury. */
export interface SettlementReading {
  chain: LiveChain;
  treasury: TreasuryReading;
}
type Where = { customerId?: string; direction?: TransferDirection };

/**
 * Sandbox settlement: what the bank, the chain and the payout rail would do, on request.
 * Every simulation is refused with 403 in production and goes through the state machine
 * like real progress would (history, ledger, events).
 */
export function simulations(deps: TransferDeps, quoting: Quoting, onramps: ReturnType<typeof onramp>) {
  const { payOutFiat, orderBankPayment } = fiatPayouts(deps);
  /** One step's use case: `read` (the chain, before the transaction), then the transfer locked and moved. */
  async function move<R = undefined>(
    scope: Scope,
    transferId: string,
    where: Where,
    step: (moved: Moved, em: Scope['em'], read: R) => Promise<void>,
    read?: () => Promise<R>,
  ): Promise<Moved> {
    assertSandbox(scope.actor);
    return useCase(scope, {
      read,
      work: async (em, reading: R) => {
        const moved = await lockTransfer(em, { id: transferId, ...where });
        await step(moved, em, reading);
        return moved;
      },
    });
  }

  /**
   * The customer's fiat arrives for an on-ramp transfer, `amount` of it (the deposit amount when
   * omitted). The deposit amount or more: pending → processing, converting the deposit amount, the
   * excess sent straight back. Less: pending → failed `underpaid` (the quote priced the whole
   * amount), holding what arrived until it is refunded.
   */
  const fiatDeposit = (scope: Scope, transferId: string, deposit: SimulatedFiatDeposit = {}, where: Where = {}) => {
    assertSandbox(scope.actor);
    const data = parseInput(SimulatedFiatDeposit, deposit);
    const bank = deps.rails.bank(scope.actor.environment);
    const simulator = bank?.kind === 'iso20022' ? deps.rails.sandboxBankSimulator : null;
    return move(scope, transferId, where, async ({ transfer, quote }, em) => {
      if (transfer.direction !== 'onramp') {
        throw new UnprocessableError('not_an_onramp_transfer', 'Only on-ramp transfers receive fiat deposits; complete an off-ramp with its transaction hash');
      }
      assertTransition(transfer.status, 'processing', { fundsReceived: transfer.fundsReceivedAt != null });
      assertDepositWindowOpen(transfer, quoting.now());
      const received = data.amount === undefined ? quote.sourceAmount : parseAmount(data.amount, quote.sourceCurrency, '/amount');
      if (simulator && bank) {
        // Through the bank, as a real payer's money arrives: the simulator books a camt.054 credit naming the deposit
        // message, and the inbox reader applies it (bank-payments/credits.ts). The transfer stays pending until then.
        const currency = quote.sourceCurrency as FiatCurrency;
        const collection = bank.collectionAccount(currency, quote.sourceRails as PaymentRails);
        const account = collection.iban?.ibanNumber ?? collection.us?.accountNumber;
        if (!account) throw new Error(`the sandbox's ${currency} collection account has no number`);
        const credit = { account, amount: toFixedPlaces(received, SCALE[currency]), currency, remittance: transfer.depositMessage ?? '' };
        // Once this step committed: the payer's bank pays whatever Ramp's books say meanwhile.
        afterCommit(() => simulator.bookCredit(credit));
        return;
      }
      if (received.lt(quote.sourceAmount)) await moveTransfer(em, transfer, quote, 'failed', 'underpaid', { received });
      else await moveTransfer(em, transfer, quote, 'processing', 'fiat_deposit_received', { received });
    });
  };

  /**
   * An off-ramp's customer sends the tokens, `amount` of them (the deposit amount when omitted). On
   * a live chain it is a real token transfer from a faucet-funded customer wallet (one per deposit
   * address) to the deposit address: the transfer stays pending, and the watcher sees the deposit,
   * counts its confirmations and credits it. On a simulated network the deposit arrives at once
   * with a made-up hash: the deposit amount or more → processing, less → failed `underpaid`.
   */
  const cryptoDeposit = async (scope: Scope, transferId: string, deposit: SimulatedCryptoDeposit = {}, where: Where = {}): Promise<Moved> => {
    assertSandbox(scope.actor);
    const data = parseInput(SimulatedCryptoDeposit, deposit);
    return move(scope, transferId, where, async ({ transfer, quote }, em) => {
      if (transfer.direction !== 'offramp') {
        throw new UnprocessableError('not_an_offramp_transfer', 'Only off-ramp transfers receive token deposits; simulate an on-ramp with fiat_deposit');
      }
      assertTransition(transfer.status, 'processing', { fundsReceived: transfer.fundsReceivedAt != null });
      assertDepositWindowOpen(transfer, quoting.now());
      const received = data.amount === undefined ? quote.sourceAmount : parseAmount(data.amount, quote.sourceCurrency, '/amount');
      const network = quote.sourceNetwork as Network;
      const chain = deps.rails.chain(scope.actor.environment, network);
      if (chain?.mode === 'live') {
        const contract = chain.tokens.find((t) => t.token === quote.sourceCurrency)!;
        const tools = deps.rails.sandboxChain;
        if (!tools) throw new Error(`${network} is live but the sandbox has no chain of its own to send from`);
        // The customer's own payment, made once this step committed: Ramp's books wait for the watcher to see it.
        const index = transfer.depositAddressIndex!;
        const to = transfer.depositBlockchainAddress!;
        afterCommit(() => tools.sendFromCustomer(contract, index, to, baseUnits(received, contract.decimals)));
        return;
      }
      transfer.depositTransactionHash = normalizeTransactionHash(network, sandboxTransactionHash(network, transfer.id));
      if (received.lt(quote.sourceAmount)) await moveTransfer(em, transfer, quote, 'failed', 'underpaid', { received });
      else await moveTransfer(em, transfer, quote, 'processing', 'deposit_transaction_submitted', { received });
    });
  };

  /**
   * An on-ramp's held deposit sent back in fiat through an ISO 20022 bank: a refund order to the customer's newest
   * external account that takes the deposit's rails. The transfer fails now (`refund_requested`), so nothing settles it
   * meanwhile, and is refunded when the bank's pain.002 accepts the refund; a rejection leaves it failed, still held.
   */
  async function refundInFiat(em: Scope['em'], scope: Scope, bank: Iso20022Bank, transfer: Transfer, quote: Quote): Promise<void> {
    const currency = quote.sourceCurrency as FiatCurrency;
    const rails = quote.sourceRails!;
    const account = await deps.bankAccounts.openNewestForRefund({ ...scope, em }, transfer.customerId, REFUND_ACCOUNT_TYPES[rails]);
    if (!account) {
      throw new UnprocessableError(
        'refund_account_missing',
        `The customer has no external account that takes ${rails} (${REFUND_ACCOUNT_TYPES[rails].join(' or ')}) to send the deposit back to; add one first`,
      );
    }
    const { held } = depositSplit(transfer.depositReceivedAmount ?? quote.sourceAmount, quote.sourceAmount);
    if (transfer.status === 'processing') await moveTransfer(em, transfer, quote, 'failed', 'refund_requested');
    await orderBankPayment(em, bank, transfer, fiatPayoutOf(transfer.id, currency, rails, held, account), 'refund');
  }

  /**
   * What settling reads of the chain, before its unit of work opens: for an on-ramp paid on a live chain, the treasury
   * (its nonce, balances and the fees to sign at); null otherwise, or for a transfer not found (the step answers 404).
   */
  async function readSettlement(scope: Scope, transferId: string, where: Where = {}): Promise<SettlementReading | null> {
    assertSandbox(scope.actor);
    const transfer = isUuid(transferId) ? await scope.em.findOne(Transfer, { id: transferId, ...where }) : null;
    if (transfer?.direction !== 'onramp') return null;
    const quote = await scope.em.findOneOrFail(Quote, { id: transfer.quoteId });
    const chain = deps.rails.chain(transfer.environment, quote.destinationNetwork!);
    return chain?.mode === 'live' ? { chain, treasury: await readTreasury(chain) } : null;
  }

  /**
   * The payout leaves (tokens on chain, or fiat to the bank): processing → completed. An on-ramp to a
   * live chain is paid for real (the payout sender's own signing, payouts/send.ts): its payout is signed
   * and stored in this unit of work and broadcast once it committed; it answers still `processing`, with
   * its destination_transaction_hash, and completes once the payout has the chain's confirmations (or
   * fails `treasury_insufficient_funds` at once when the treasury is short).
   */
  const settle = (scope: Scope, transferId: string, where: Where = {}) =>
    move(
      scope,
      transferId,
      where,
      async ({ transfer, quote }, em, reading) => {
        if (transfer.direction === 'offramp') {
          assertTransition(transfer.status, 'completed', { fundsReceived: transfer.fundsReceivedAt != null });
          // Paid through an ISO 20022 bank, the off-ramp stays processing until the bank's pain.002 settles or rejects it.
          if ((await payOutFiat(em, transfer, quote)) === 'awaiting_bank') return;
        }
        const chain = transfer.direction === 'onramp' ? deps.rails.chain(transfer.environment, quote.destinationNetwork!) : null;
        if (chain?.mode !== 'live') return moveTransfer(em, transfer, quote, 'completed', 'settled');
        // Read before the transaction for another chain, or for none: a bug, since signing never asks the chain itself.
        if (reading?.chain.key !== chain.key) throw new Error(`settling an on-ramp on ${chain.key} needs its treasury read first (readSettlement)`);
        assertTransition(transfer.status, 'completed', { fundsReceived: transfer.fundsReceivedAt != null });
        await payNow(em, chain, reading.treasury, payoutRequestOf(transfer, quote), deps.payouts, payoutCalls);
      },
      () => readSettlement(scope, transferId, where),
    );

  /** The transfer fails (from pending or processing), for `reason` or `simulated_failure`. */
  const fail = (scope: Scope, transferId: string, reason?: string, where: Where = {}) => {
    const why = parseInput(SimulatedFailure, { reason }).reason ?? 'simulated_failure';
    return move(scope, transferId, where, ({ transfer, quote }, em) => moveTransfer(em, transfer, quote, 'failed', why));
  };

  /**
   * The deposit goes back to where it came from: processing or failed → refunded. An on-ramp's fiat through an ISO
   * 20022 bank goes back as a refund order, and is refunded once the bank accepts it (refundInFiat).
   */
  const refund = (scope: Scope, transferId: string, where: Where = {}) =>
    move(scope, transferId, where, async ({ transfer, quote }, em) => {
      const bank = deps.rails.bank(transfer.environment);
      if (transfer.direction !== 'onramp' || bank?.kind !== 'iso20022') return moveTransfer(em, transfer, quote, 'refunded', 'deposit_returned');
      assertTransition(transfer.status, 'refunded', { fundsReceived: transfer.fundsReceivedAt != null });
      await refundInFiat(em, scope, bank, transfer, quote);
    });

  return {
    fiatDeposit,
    cryptoDeposit,
    settle,

    fail,
    refund,

    /** REST extension `POST /v0/customers/{customer_id}/{direction}-transfer/simulate`. */
    async simulateByAction(scope: Scope, customerId: string, direction: TransferDirection, step: SimulatedStep): Promise<Moved> {
      assertSandbox(scope.actor);
      const data = parseInput(SimulatedStep, step);
      const customer = await deps.customers.get(scope, customerId);
      const where = { customerId: customer.id, direction };
      switch (data.action) {
        case 'fiat_deposit':
          if (direction !== 'onramp') {
            throw new ValidationError([fieldError('/action', 'not_allowed', 'fiat_deposit applies to on-ramp transfers')]);
          }
          return fiatDeposit(scope, data.transferId, { amount: data.amount }, where);
        case 'crypto_deposit':
          if (direction !== 'offramp') {
            throw new ValidationError([fieldError('/action', 'not_allowed', 'crypto_deposit applies to off-ramp transfers')]);
          }
          return cryptoDeposit(scope, data.transferId, { amount: data.amount }, where);
        case 'complete_transfer':
          return settle(scope, data.transferId, where);
        case 'fail_transfer':
          return fail(scope, data.transferId, data.reason, where);
        case 'refund_transfer':
          return refund(scope, data.transferId, where);
      }
    },

    /**
     * Fiat paid into an active virtual account becomes an on-ramp transfer to its destination:
     * priced now (the account's currency, token, network and developer fee), created, and
     * funded at once (pending → processing), all in one transaction.
     */
    async virtualAccountDeposit(scope: Scope, virtualAccountId: string, deposit: SimulatedVirtualAccountDeposit, customerId?: string): Promise<Moved> {
      assertSandbox(scope.actor);
      const data = parseInput(SimulatedVirtualAccountDeposit, deposit);
      return useCase(scope, async (em) => {
        // Two deposits to one account are two independent transfers: nothing to lock.
        const account =
          customerId === undefined
            ? await deps.virtualAccounts.get({ ...scope, em }, virtualAccountId)
            : await deps.virtualAccounts.getForCustomer({ ...scope, em }, customerId, virtualAccountId);
        return virtualAccountFunded({ ...scope, em }, account, data.amount);
      });
    },

    virtualAccountFunded,
  };

  /**
   * `amount` of fiat paid into `account`, in the caller's transaction (`scope.em`, of the account's tenant): the
   * simulated deposit's use case and a bank's credit's alike.
   */
  async function virtualAccountFunded(scope: Scope, account: VirtualAccount, amount: string): Promise<Moved> {
    const em = scope.em;
    if (account.status !== 'active') {
      throw new UnprocessableError('virtual_account_not_active', 'The virtual account is not active yet; it cannot receive deposits');
    }
    if (!account.destinationAddress) {
      throw new UnprocessableError('virtual_account_has_no_destination', 'The virtual account has no destination_address to forward deposits to');
    }
    // Checked here, against the input's own field: the quote below would name it /sourceAmount.
    parseAmount(amount, account.sourceCurrency, '/amount');
    const customer = await deps.customers.getForNewBusiness(scope, account.customerId);
    const rails = account.sourceRails ?? DEFAULT_RAILS[account.sourceCurrency];
    const quote = await quoting.createQuote(scope, customer, {
      direction: 'onramp',
      source: account.sourceCurrency,
      destination: account.destinationToken,
      network: account.destinationNetwork,
      fiat: account.sourceCurrency,
      rails,
      sourceAmount: amount,
      developerFeePercent: account.developerFeePercent?.toFixed(),
    });
    const transfer = await onramps.openTransfer(em, scope, quote, {
      destinationAddress: account.destinationAddress,
      // An active account always has its instructions: they are set when it is issued.
      virtualAccount: { id: account.id, depositAccount: virtualAccountDepositAccount(account.depositInstructions!, customer.type) },
      reason: 'virtual_account_deposit',
    });
    await moveTransfer(em, transfer, quote, 'processing', 'fiat_deposit_received');
    return { transfer, quote };
  }
}

/** The domestic rails a virtual account receives on when it names none (SWIFT is opt-in for USD). */
const DEFAULT_RAILS = { usd: 'ach', eur: 'sepa', aed: 'uaefts' } as const;
