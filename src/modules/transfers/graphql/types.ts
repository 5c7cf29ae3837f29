import { maskAccountNumber } from '../../../domain/identifiers/bank.js';
import { type Asset, type Decimal, formatAmount } from '../../../domain/money.js';
import { RATE_SCALE } from '../../../domain/pricing.js';
import { TRANSFER_DIRECTIONS, TRANSFER_STATUSES } from '../../../domain/transfer-status.js';
import { TRANSFER_PURPOSES } from '../../../domain/transfer-purpose.js';
import { builder } from '../../../graphql/builder.js';
import { BlockchainNetworkEnum, FiatCurrencyEnum, PaymentRailsEnum, StablecoinEnum } from '../../../graphql/enums.js';
import { type GraphQLContext, scopeOf } from '../../../graphql/context.js';
import type { BankAccountDetails } from '../../bank-accounts/records.js';
import { CustomerRef } from '../../customers/graphql.js';
import { PostingRef } from '../../ledger/graphql.js';
import type { DepositBankAccount } from '../deposit-instructions.js';
import type { Quote, Transfer, TransferStatusChange } from '../entities.js';
import { shownDepositMessage } from '../presenters.js';

export const TransferDirectionEnum = builder.enumType('TransferDirection', { values: TRANSFER_DIRECTIONS });
export const TransferStatusEnum = builder.enumType('TransferStatus', {
  description: 'pending → processing → completed; failed, refunded, canceled (from pending only), expired (pending past its deposit window)',
  values: TRANSFER_STATUSES,
});
export const TransferPurposeEnum = builder.enumType('TransferPurpose', { values: TRANSFER_PURPOSES });

const amount = (value: Decimal, asset: Asset) => formatAmount(value, asset);

const FeeBreakdownRef = builder.objectRef<Quote>('FeeBreakdown').implement({
  description: 'The parts of fee_amount, all in the source currency; they add up to it.',
  fields: (t) => ({
    currency: t.exposeString('sourceCurrency'),
    platformFee: t.field({ type: 'Decimal', resolve: (q) => amount(q.platformFee, q.sourceCurrency) }),
    developerFee: t.field({ type: 'Decimal', resolve: (q) => amount(q.developerFee, q.sourceCurrency) }),
    networkFee: t.field({ type: 'Decimal', resolve: (q) => amount(q.networkFee, q.sourceCurrency) }),
  }),
});

export const QuoteRef = builder.loadableObject('Quote', {
  description: 'A priced offer, valid until expiresAt; it makes at most one transfer.',
  load: (ids: string[], ctx) => ctx.services.transfers.loadQuotes(scopeOf(ctx), ids),
  sort: (quote) => quote.id,
  fields: (t) => ({
    id: t.exposeID('id'),
    direction: t.field({ type: TransferDirectionEnum, resolve: (q) => q.direction }),
    customer: t.field({ type: CustomerRef, resolve: (q) => q.customerId }),
    sourceCurrency: t.exposeString('sourceCurrency', { description: 'Fiat currency (on-ramp) or token (off-ramp)' }),
    sourcePaymentRails: t.field({ type: PaymentRailsEnum, nullable: true, resolve: (q) => q.sourceRails ?? null }),
    sourceNetwork: t.field({ type: BlockchainNetworkEnum, nullable: true, resolve: (q) => q.sourceNetwork ?? null }),
    sourceAmount: t.field({ type: 'Decimal', resolve: (q) => amount(q.sourceAmount, q.sourceCurrency) }),
    destinationCurrency: t.exposeString('destinationCurrency', { description: 'Token (on-ramp) or fiat currency (off-ramp)' }),
    destinationPaymentRails: t.field({ type: PaymentRailsEnum, nullable: true, resolve: (q) => q.destinationRails ?? null }),
    destinationNetwork: t.field({ type: BlockchainNetworkEnum, nullable: true, resolve: (q) => q.destinationNetwork ?? null }),
    destinationAmount: t.field({ type: 'Decimal', resolve: (q) => amount(q.destinationAmount, q.destinationCurrency) }),
    exchangeRate: t.field({ type: 'Decimal', resolve: (q) => q.exchangeRate.toFixed(RATE_SCALE) }),
    feeAmount: t.field({ type: 'Decimal', resolve: (q) => amount(q.feeAmount, q.sourceCurrency) }),
    fees: t.field({ type: FeeBreakdownRef, resolve: (q) => q }),
    developerFeePercent: t.field({ type: 'Decimal', resolve: (q) => q.developerFeePercent.toFixed() }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

/** A transfer's quote through the request's quote dataloader (one query for a whole page). */
const quoteOf = (transfer: Transfer, ctx: GraphQLContext) => QuoteRef.getDataloader(ctx).load(transfer.quoteId);

const StatusChangeRef = builder.objectRef<TransferStatusChange>('TransferStatusChange').implement({
  fields: (t) => ({
    from: t.field({ type: TransferStatusEnum, nullable: true, resolve: (c) => c.fromStatus ?? null }),
    to: t.field({ type: TransferStatusEnum, resolve: (c) => c.toStatus }),
    reason: t.exposeString('reason'),
    at: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

/** Fields every transfer has; the quote, customer, history and postings load in batches. */
export const TransferRef = builder.loadableInterface('Transfer', {
  load: (ids: string[], ctx) => ctx.services.transfers.loadTransfers(scopeOf(ctx), ids),
  sort: (transfer) => transfer.id,
  resolveType: (transfer) => (transfer.direction === 'onramp' ? 'OnrampTransfer' : 'OfframpTransfer'),
  fields: (t) => ({
    id: t.exposeID('id'),
    direction: t.field({ type: TransferDirectionEnum, resolve: (tr) => tr.direction }),
    status: t.field({ type: TransferStatusEnum, resolve: (tr) => tr.status }),
    customer: t.field({ type: CustomerRef, resolve: (tr) => tr.customerId }),
    quote: t.field({ type: QuoteRef, resolve: (tr) => tr.quoteId }),
    amount: t.field({
      type: 'Decimal',
      description: 'What the customer deposits (the source amount)',
      resolve: async (tr, _, ctx) => {
        const q = await quoteOf(tr, ctx);
        return amount(q.sourceAmount, q.sourceCurrency);
      },
    }),
    destinationAmount: t.field({
      type: 'Decimal',
      resolve: async (tr, _, ctx) => {
        const q = await quoteOf(tr, ctx);
        return amount(q.destinationAmount, q.destinationCurrency);
      },
    }),
    failureReason: t.exposeString('failureReason', { nullable: true }),
    depositExpiresAt: t.expose('depositExpiresAt', { type: 'DateTime', description: 'A pending transfer expires at this moment' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    statusHistory: t.loadableGroup({
      type: StatusChangeRef,
      description: 'Every status the transfer went through, oldest first, with when and why',
      load: (ids: string[], ctx) => ctx.services.transfers.loadHistories(scopeOf(ctx), ids),
      group: (change) => change.transferId,
      resolve: (tr) => tr.id,
    }),
    postings: t.loadableGroup({
      type: PostingRef,
      description: 'The ledger entries of this transfer: deposit, excess_return (an overpayment sent back), fees, conversion, payout or refund',
      load: (ids: string[], ctx) => ctx.services.ledger.entriesOf(scopeOf(ctx), ids),
      group: (entry) => entry.transferId,
      resolve: (tr) => tr.id,
    }),
  }),
});

const IbanDetailsRef = builder.objectRef<{ bic: string; iban_number: string }>('IbanDetails').implement({
  fields: (t) => ({ bic: t.exposeString('bic'), ibanNumber: t.exposeString('iban_number') }),
});
const UsDetailsRef = builder.objectRef<{ account_number: string; routing_number: string }>('UsAccountDetails').implement({
  fields: (t) => ({ accountNumber: t.exposeString('account_number'), routingNumber: t.exposeString('routing_number') }),
});

const SwiftDepositDetailsRef = builder.objectRef<{ bic: string; account_number: string; routing_number: string }>('SwiftDepositDetails').implement({
  description: 'A US bank receiving USD over SWIFT: its BIC, the account number and its ABA routing number',
  fields: (t) => ({ bic: t.exposeString('bic'), accountNumber: t.exposeString('account_number'), routingNumber: t.exposeString('routing_number') }),
});

const DepositBankAccountRef = builder.objectRef<DepositBankAccount>('DepositBankAccount').implement({
  description: "Where the customer pays the fiat in: Ramp's collection account, or the customer's virtual account the deposit arrived on",
  fields: (t) => ({
    bankName: t.exposeString('bank_name'),
    bankAddress: t.exposeString('bank_address'),
    accountBeneficiaryType: t.exposeString('account_beneficiary_type'),
    accountBeneficiaryName: t.exposeString('account_beneficiary_name'),
    accountType: t.exposeString('account_type'),
    iban: t.field({ type: IbanDetailsRef, nullable: true, resolve: (a) => a.iban ?? null }),
    us: t.field({ type: UsDetailsRef, nullable: true, resolve: (a) => a.us ?? null }),
    swift: t.field({ type: SwiftDepositDetailsRef, nullable: true, resolve: (a) => a.swift ?? null }),
  }),
});

export const OnrampTransferRef = builder.objectRef<Transfer>('OnrampTransfer').implement({
  description: 'Fiat to token (spec §2.4)',
  interfaces: [TransferRef],
  fields: (t) => ({
    sourceCurrency: t.field({ type: FiatCurrencyEnum, resolve: async (tr, _, ctx) => (await quoteOf(tr, ctx)).sourceCurrency as never }),
    sourceRails: t.field({ type: PaymentRailsEnum, resolve: async (tr, _, ctx) => (await quoteOf(tr, ctx)).sourceRails! }),
    destinationToken: t.field({ type: StablecoinEnum, resolve: async (tr, _, ctx) => (await quoteOf(tr, ctx)).destinationCurrency as never }),
    destinationNetwork: t.field({ type: BlockchainNetworkEnum, resolve: async (tr, _, ctx) => (await quoteOf(tr, ctx)).destinationNetwork! }),
    destinationAddress: t.string({ resolve: (tr) => tr.destinationAddress! }),
    destinationTransactionHash: t.exposeString('payoutTransactionHash', { nullable: true, description: 'The token delivery, once completed' }),
    virtualAccountId: t.exposeID('virtualAccountId', { nullable: true }),
    depositReceivedAmount: t.field({
      type: 'Decimal',
      nullable: true,
      description: 'The fiat that arrived: null until it does; less than the deposit amount fails the transfer (underpaid), the excess of more is returned',
      resolve: async (tr, _, ctx) => (tr.depositReceivedAmount ? amount(tr.depositReceivedAmount, (await quoteOf(tr, ctx)).sourceCurrency) : null),
    }),
    depositBankAccount: t.field({ type: DepositBankAccountRef, resolve: (tr) => tr.depositBankAccount! }),
    depositMessage: t.string({
      nullable: true,
      description: 'The reference the customer must put on the bank transfer; null for a deposit that arrived on a virtual account',
      resolve: shownDepositMessage,
    }),
  }),
});

/** An off-ramp's payout account; numbers masked, as everywhere but a creation response. */
const PayoutBankAccountRef = builder.objectRef<BankAccountDetails>('PayoutBankAccount').implement({
  fields: (t) => ({
    bankName: t.exposeString('bank_name'),
    accountType: t.exposeString('account_type'),
    accountHolderType: t.exposeString('account_holder_type'),
    accountHolderFirstName: t.exposeString('account_holder_first_name', { nullable: true }),
    accountHolderLastName: t.exposeString('account_holder_last_name', { nullable: true }),
    accountHolderBusinessName: t.exposeString('account_holder_business_name', { nullable: true }),
    accountHolderCountry: t.string({ resolve: (a) => a.account_holder_address.country }),
    accountNumberMasked: t.string({
      resolve: (a) =>
        maskAccountNumber(a.account_type === 'iban' ? a.iban.iban_number : a.account_type === 'us' ? a.us.account_number : a.swift.account_number),
    }),
    bic: t.string({ nullable: true, resolve: (a) => (a.account_type === 'iban' ? a.iban.bic : a.account_type === 'swift' ? a.swift.bic : null) }),
    routingNumber: t.string({
      nullable: true,
      resolve: (a) => (a.account_type === 'us' ? a.us.routing_number : a.account_type === 'swift' ? (a.swift.routing_number ?? null) : null),
    }),
  }),
});

export const OfframpTransferRef = builder.objectRef<Transfer>('OfframpTransfer').implement({
  description: 'Token to fiat (spec §2.5)',
  interfaces: [TransferRef],
  fields: (t) => ({
    sourceToken: t.field({ type: StablecoinEnum, resolve: async (tr, _, ctx) => (await quoteOf(tr, ctx)).sourceCurrency as never }),
    sourceNetwork: t.field({ type: BlockchainNetworkEnum, resolve: async (tr, _, ctx) => (await quoteOf(tr, ctx)).sourceNetwork! }),
    destinationCurrency: t.field({ type: FiatCurrencyEnum, resolve: async (tr, _, ctx) => (await quoteOf(tr, ctx)).destinationCurrency as never }),
    destinationPaymentRails: t.field({ type: PaymentRailsEnum, resolve: async (tr, _, ctx) => (await quoteOf(tr, ctx)).destinationRails! }),
    transferPurpose: t.field({ type: TransferPurposeEnum, resolve: (tr) => tr.transferPurpose! }),
    destinationExternalAccountId: t.exposeID('destinationExternalAccountId', { nullable: true }),
    destinationBankAccount: t.field({ type: PayoutBankAccountRef, resolve: (tr) => tr.destinationBankAccount! }),
    depositBlockchainAddress: t.string({ description: 'Where the customer sends the tokens', resolve: (tr) => tr.depositBlockchainAddress! }),
    depositTransactionHash: t.exposeString('depositTransactionHash', { nullable: true }),
  }),
});
