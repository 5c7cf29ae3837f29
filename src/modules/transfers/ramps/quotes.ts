import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import { randomUUID } from 'node:crypto';
import { NotFoundError, UnprocessableError } from '../../../domain/errors.js';
import { isKycApprovedFor } from '../../../domain/kyc.js';
import type { Asset, FiatCurrency, Network, PaymentRails, Token } from '../../../domain/money.js';
import { assertTokenOffered } from '../../../domain/network-tokens.js';
import { parseAmounts, parseDeveloperFeePercent, priceQuote } from '../../../domain/pricing.js';
import type { TransferDirection } from '../../../domain/transfer-status.js';
import type { Scope } from '../../../platform/use-cases/scope.js';
import { isUuid } from '../../../domain/identifiers/uuid.js';
import type { HeldCustomer } from '../../customers/service.js';
import type { TransferDeps } from '../context.js';
import { Quote, Transfer } from '../entities.js';

const quoteUsed = () => new UnprocessableError('quote_used', 'This quote was already used for a transfer; request a new one');

/** What a quote is for, whichever direction: the fiat side names rails, the token side a network. */
export interface QuoteTerms {
  direction: TransferDirection;
  source: Asset;
  destination: Asset;
  network: Network;
  fiat: FiatCurrency;
  rails: PaymentRails;
  sourceAmount?: string | undefined;
  destinationAmount?: string | undefined;
  developerFeePercent?: string | undefined;
}

/** Transfers need the customer verified for the rails the fiat moves on. */
export function assertKycApproved(customer: HeldCustomer, currency: FiatCurrency, rails: PaymentRails): void {
  if (!isKycApprovedFor(customer.kycStatusBreakdown, currency, rails)) {
    throw new UnprocessableError('kyc_not_approved', `The customer is not KYC-approved for ${currency} over ${rails}`);
  }
}

export function quoting(deps: TransferDeps) {
  const now = () => new Date();

  /**
   * Prices and stores a quote for one of the caller's KYC-approved customers, in the caller's
   * transaction. The partner's platform fee is read now and kept on the quote.
   */
  async function createQuote(scope: Scope, customer: HeldCustomer, terms: QuoteTerms): Promise<Quote> {
    const { side, amount } = parseAmounts(terms, terms);
    const developerFeePercent = parseDeveloperFeePercent(terms.developerFeePercent);
    assertTokenOffered(deps.rails.networkTokens, terms.network, (terms.direction === 'onramp' ? terms.destination : terms.source) as Token);
    assertKycApproved(customer, terms.fiat, terms.rails);
    const partner = await deps.partners.get(scope);
    const priced = priceQuote(
      {
        source: terms.source,
        destination: terms.destination,
        network: terms.network,
        side,
        amount,
        platformFeeBps: partner.platformFeeBps,
        developerFeePercent,
      },
      deps.rates,
      deps.policy,
    );
    const createdAt = now();
    const onramp = terms.direction === 'onramp';
    const quote = scope.em.create(Quote, {
      id: randomUUID(),
      customerId: customer.id,
      direction: terms.direction,
      sourceCurrency: terms.source,
      sourceRails: onramp ? terms.rails : null,
      sourceNetwork: onramp ? null : terms.network,
      destinationCurrency: terms.destination,
      destinationRails: onramp ? null : terms.rails,
      destinationNetwork: onramp ? terms.network : null,
      requestedSide: side,
      sourceAmount: priced.sourceAmount,
      destinationAmount: priced.destinationAmount,
      exchangeRate: priced.exchangeRate,
      platformFee: priced.fees.platform,
      developerFee: priced.fees.developer,
      networkFee: priced.fees.network,
      feeAmount: priced.feeAmount,
      developerFeePercent,
      platformFeeBps: partner.platformFeeBps,
      expiresAt: new Date(createdAt.getTime() + deps.quoteTtlSeconds * 1000),
      createdAt,
    });
    await scope.em.flush();
    return quote;
  }

  /**
   * Locks the quote a transfer is being made from, so concurrent attempts queue behind each
   * other, and checks it can still be used: unknown (or another customer's when `customerId` is given, or the other
   * direction's) → 404, used → 422 `quote_used`, expired → 422 `quote_expired`. "Used" is not read
   * here: the one-transfer-per-quote unique constraint enforces it when the transfer is inserted (see
   * `insertTransfer`), so a usable quote costs no extra statement. Only an expired quote is checked
   * for a transfer, so that a used one still answers `quote_used`.
   */
  async function lockUsableQuote(em: EntityManager, where: { id: string; customerId?: string; direction: TransferDirection }): Promise<Quote> {
    const quote = isUuid(where.id) ? await em.findOne(Quote, { ...where }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true }) : null;
    if (!quote) throw new NotFoundError('Quote');
    if (quote.expiresAt <= now()) {
      if ((await em.count(Transfer, { quoteId: quote.id })) > 0) throw quoteUsed();
      throw new UnprocessableError('quote_expired', 'This quote has expired; request a new one');
    }
    return quote;
  }

  /** Inserts a new transfer; a second transfer of the same quote fails on the unique constraint → 422. */
  async function insertTransfer(em: EntityManager): Promise<void> {
    try {
      await em.flush();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException && String(error.message).includes('transfers_one_per_quote')) throw quoteUsed();
      throw error;
    }
  }

  return { createQuote, lockUsableQuote, insertTransfer, now };
}
export type Quoting = ReturnType<typeof quoting>;
