import type { EntityManager } from '@mikro-orm/sql';
import { useCase } from '../../../platform/use-cases/use-case.js';
import { railsNotConnected } from '../../../domain/environment.js';
import { randomUUID } from 'node:crypto';
import { ValidationError, fieldError } from '../../../domain/errors.js';
import { isValidAddress } from '../../../domain/identifiers/chain.js';
import type { FiatCurrency, Network, PaymentRails } from '../../../domain/money.js';
import { parseInput } from '../../../domain/validation.js';
import type { Scope } from '../../../platform/use-cases/scope.js';
import type { TransferDeps } from '../context.js';
import { type DepositBankAccount, collectionDepositAccount, depositReference } from '../accounts/deposit-instructions.js';
import { type Quote, Transfer } from '../entities.js';
import { OnrampQuoteRequest, OnrampTransferRequest } from '../inputs.js';
import { recordCreation } from './lifecycle.js';
import { type Quoting, assertKycApproved } from './quotes.js';

/** Fiat to token: quote, then a transfer from the quote with the destination address. */
export function onramp(deps: TransferDeps, quoting: Quoting) {
  /**
   * A pending on-ramp transfer of a quote, with its deposit instructions: Ramp's collection
   * account for the quote's currency and rails, and a reference to put on the bank transfer.
   * A deposit that already arrived on a virtual account instead records that account's numbers,
   * and its deposit window closes at once: the money is there, nothing is awaited.
   */
  async function openTransfer(
    em: EntityManager,
    scope: Scope,
    quote: Quote,
    details: { destinationAddress: string; reason: string; virtualAccount?: { id: string; depositAccount: DepositBankAccount } },
  ) {
    const bank = deps.rails.bank(scope.actor.environment);
    const currency = quote.sourceCurrency as FiatCurrency;
    if (!bank?.serves(currency, quote.sourceRails!)) throw railsNotConnected('bank');
    const createdAt = quoting.now();
    const { virtualAccount } = details;
    const transfer = em.create(Transfer, {
      id: randomUUID(),
      customerId: quote.customerId,
      quoteId: quote.id,
      direction: 'onramp',
      status: 'pending',
      destinationAddress: details.destinationAddress,
      depositBankAccount: virtualAccount?.depositAccount ?? collectionDepositAccount(bank.collectionAccount(currency, quote.sourceRails!)),
      // Every on-ramp row carries a reference (the transfers_direction_shape constraint). One from a
      // virtual account was matched by the account's own number, so its reference is never shown.
      depositMessage: depositReference(),
      virtualAccountId: virtualAccount?.id ?? null,
      depositExpiresAt: virtualAccount ? createdAt : new Date(createdAt.getTime() + deps.depositWindowSeconds * 1000),
      createdAt,
      updatedAt: createdAt,
    });
    await quoting.insertTransfer(em);
    await recordCreation(em, transfer, quote, details.reason);
    return transfer;
  }

  return {
    openTransfer,

    async createQuote(scope: Scope, customerId: string, request: OnrampQuoteRequest): Promise<Quote> {
      const data = parseInput(OnrampQuoteRequest, request);
      return useCase(scope, async (em) => {
        // Held (FOR SHARE) until commit: an erasure of the customer waits, or ran first and is refused here.
        const customer = await deps.customers.holdForNewBusiness({ ...scope, em }, customerId);
        return quoting.createQuote({ ...scope, em }, customer, {
          ...data,
          direction: 'onramp',
          source: data.sourceCurrency,
          destination: data.destinationToken,
          network: data.destinationNetwork,
          fiat: data.sourceCurrency,
          rails: data.sourcePaymentRails,
        });
      });
    },

    /**
     * `POST …/onramp-transfer/quote/{quote_id}`: 201 with the transfer and its deposit instructions.
     * Without `customerId` (GraphQL names only the quote) the quote's own customer.
     */
    async createTransfer(
      scope: Scope,
      customerId: string | undefined,
      quoteId: string,
      request: OnrampTransferRequest,
    ): Promise<{ transfer: Transfer; quote: Quote }> {
      const data = parseInput(OnrampTransferRequest, request);
      return useCase(scope, async (em) => {
        // Held (FOR SHARE) until commit: an erasure waits for this transfer (and then sees it in flight), or ran first and
        // refuses it here. The customer the path names is read once, under that lock; else the quote's, once it is known.
        const named = customerId === undefined ? undefined : await deps.customers.holdForNewBusiness({ ...scope, em }, customerId);
        const quote = await quoting.lockUsableQuote(em, { id: quoteId, direction: 'onramp', ...(named && { customerId: named.id }) });
        const customer = named ?? (await deps.customers.holdForNewBusiness({ ...scope, em }, quote.customerId));
        const network = quote.destinationNetwork as Network;
        if (!isValidAddress(network, data.destinationAddress)) {
          throw new ValidationError([fieldError('/destinationAddress', 'invalid_address', `is not a valid ${network} address`)]);
        }
        assertKycApproved(customer, quote.sourceCurrency as FiatCurrency, quote.sourceRails as PaymentRails);
        const transfer = await openTransfer(em, scope, quote, { destinationAddress: data.destinationAddress, reason: 'transfer_created' });
        return { transfer, quote };
      });
    },
  };
}
