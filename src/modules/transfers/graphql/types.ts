import { maskAccountNumber } from '../../../domain/identifiers/bank.js';
import {
  type Asset,
  type Decimal,
  type FiatCurrency,
  type Network,
  type PaymentRails,
  type Token,
  formatAmount,
  toFixedPlaces,
} from '../../../domain/money.js';
import { RATE_SCALE } from '../../../domain/pricing.js';
import { TRANSFER_DIRECTIONS, TRANSFER_STATUSES, type TransferDirection, type TransferStatus } from '../../../domain/transfer-status.js';
import { TRANSFER_PURPOSES } from '../../../domain/transfer-purpose.js';
import { builder } from '../../../graphql/builder.js';
import { snapshotRef, snapshotTypeOf } from '../../events/snapshots.js';
import { reads } from '../../../graphql/columns.js';
import { nodeConnection } from '../../../graphql/connection.js';
import { type GraphQLContext, scopeOf } from '../../../graphql/context.js';
import { BlockchainNetworkEnum, FiatCurrencyEnum, PaymentRailsEnum, StablecoinEnum, domainEnum } from '../../../graphql/enums.js';
import { BankAccountRef } from '../../bank-accounts/graphql.js';
import { AccountHolderTypeEnum, BankAccountTypeEnum } from '../../bank-accounts/graphql.js';
import type { BankAccountDetails } from '../../bank-accounts/records.js';
import { CustomerRef } from '../../customers/graphql.js';
import { AssetEnum, PostingRef } from '../../ledger/graphql.js';
import { VirtualAccountRef } from '../../virtual-accounts/graphql.js';
import type { DepositBankAccount } from '../deposit-instructions.js';
import type { TransferStatusChange } from '../entities.js';
import type { CustomerRow } from '../../customers/service.js';
import type { OfframpTransferRow, OnrampTransferRow, QuoteRow, TransferRow } from '../queries.js';
import { shownDepositMessage } from '../presenters.js';

export const TransferDirectionEnum = domainEnum('TransferDirection', TRANSFER_DIRECTIONS, {
  describe: (d) => (d === 'onramp' ? 'Fiat in, a stablecoin out' : 'A stablecoin in, fiat out'),
});

const STATUS_MEANINGS: Record<TransferStatus, string> = {
  pending: 'Waiting for the customer’s deposit (until depositExpiresAt)',
  processing: 'The deposit arrived; the payout is on its way',
  completed: 'Paid out',
  failed: 'Failed (failureReason says why); a deposit that arrived is held until refunded',
  refunded: 'The deposit went back to the customer',
  canceled: 'Called off by the partner while pending',
  expired: 'No deposit arrived within the deposit window',
};
export const TransferStatusEnum = domainEnum('TransferStatus', TRANSFER_STATUSES, {
  description: 'PENDING → PROCESSING → COMPLETED; FAILED, REFUNDED, CANCELED (from PENDING only), EXPIRED (PENDING past its deposit window)',
  describe: (status) => STATUS_MEANINGS[status],
});
export const TransferPurposeEnum = domainEnum('TransferPurpose', TRANSFER_PURPOSES, {
  description: 'Why an off-ramp pays out (Align’s purpose codes; REST spells them in lower case)',
});

const amount = (value: Decimal, asset: Asset) => formatAmount(value, asset);

const FeeBreakdownRef = builder.objectRef<QuoteRow>('FeeBreakdown').implement({
  description: 'The parts of feeAmount, all in the source currency; they add up to it.',
  fields: (t) => ({
    currency: t.field({ type: AssetEnum, resolve: (q) => q.sourceCurrency }),
    platformFee: t.field({ type: 'Decimal', resolve: (q) => amount(q.platformFee, q.sourceCurrency) }),
    developerFee: t.field({ type: 'Decimal', resolve: (q) => amount(q.developerFee, q.sourceCurrency) }),
    networkFee: t.field({ type: 'Decimal', resolve: (q) => amount(q.networkFee, q.sourceCurrency) }),
  }),
});

export const QuoteRef = builder.loadableNodeRef<QuoteRow>('Quote', {
  id: { resolve: (q) => q.id },
  // Batches every quote looked up in one request into one query, scoped to the caller.
  load: (ids: string[], ctx) => ctx.services.transfers.loadQuotes(scopeOf(ctx), ids),
  sort: (quote) => quote.id,
});

QuoteRef.implement({
  description: 'A priced offer, valid until expiresAt; it makes at most one transfer.',
  fields: (t) => ({
    databaseId: t.expose('id', { type: 'UUID', description: 'The id REST shows for this quote (quote_id)' }),
    direction: t.field({ type: TransferDirectionEnum, extensions: reads(['direction']), resolve: (q) => q.direction }),
    customer: t.field({ type: CustomerRef, extensions: reads(['customerId']), resolve: (q) => q.customerId }),
    sourceCurrency: t.field({
      type: AssetEnum,
      description: 'A fiat currency (on-ramp) or a stablecoin (off-ramp)',
      extensions: reads(['sourceCurrency']),
      resolve: (q) => q.sourceCurrency,
    }),
    sourcePaymentRails: t.field({ type: PaymentRailsEnum, nullable: true, extensions: reads(['sourceRails']), resolve: (q) => q.sourceRails ?? null }),
    sourceNetwork: t.field({ type: BlockchainNetworkEnum, nullable: true, extensions: reads(['sourceNetwork']), resolve: (q) => q.sourceNetwork ?? null }),
    sourceAmount: t.field({ type: 'Decimal', extensions: reads(['sourceAmount', 'sourceCurrency']), resolve: (q) => amount(q.sourceAmount, q.sourceCurrency) }),
    destinationCurrency: t.field({
      type: AssetEnum,
      description: 'A stablecoin (on-ramp) or a fiat currency (off-ramp)',
      extensions: reads(['destinationCurrency']),
      resolve: (q) => q.destinationCurrency,
    }),
    destinationPaymentRails: t.field({
      type: PaymentRailsEnum,
      nullable: true,
      extensions: reads(['destinationRails']),
      resolve: (q) => q.destinationRails ?? null,
    }),
    destinationNetwork: t.field({
      type: BlockchainNetworkEnum,
      nullable: true,
      extensions: reads(['destinationNetwork']),
      resolve: (q) => q.destinationNetwork ?? null,
    }),
    destinationAmount: t.field({
      type: 'Decimal',
      extensions: reads(['destinationAmount', 'destinationCurrency']),
      resolve: (q) => amount(q.destinationAmount, q.destinationCurrency),
    }),
    exchangeRate: t.field({ type: 'Decimal', extensions: reads(['exchangeRate']), resolve: (q) => toFixedPlaces(q.exchangeRate, RATE_SCALE) }),
    feeAmount: t.field({ type: 'Decimal', extensions: reads(['feeAmount', 'sourceCurrency']), resolve: (q) => amount(q.feeAmount, q.sourceCurrency) }),
    fees: t.field({
      type: FeeBreakdownRef,
      extensions: reads(['sourceCurrency', 'platformFee', 'developerFee', 'networkFee']),
      resolve: (q) => q,
    }),
    developerFeePercent: t.field({ type: 'Decimal', extensions: reads(['developerFeePercent']), resolve: (q) => q.developerFeePercent.toFixed() }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

/**
 * What every transfer type resolves from (its parent shape): the transfer's row, of its direction,
 * and the quote and customer a read joined to it, with only the columns its selection reads (null
 * when not joined). The transfer's fields take them from here, never from a dataloader, which other
 * fields of the same request may expect to hold whole records.
 */
export interface TransferNodeOf<T extends TransferRow> {
  transfer: T;
  quote?: QuoteRow | null;
  customer?: CustomerRow | null;
}
export type OnrampTransferNode = TransferNodeOf<OnrampTransferRow>;
export type OfframpTransferNode = TransferNodeOf<OfframpTransferRow>;
export type TransferNode = OnrampTransferNode | OfframpTransferNode;

/**
 * A transfer row (with what was joined to it) as the node of its direction. The one place a row is
 * taken as an on-ramp's or an off-ramp's: their writes (onramp.ts, offramp.ts) set the fields of
 * their direction, so the direction's fields need no `!`.
 */
export const transferNode = (read: { transfer: TransferRow; quote?: QuoteRow | null; customer?: CustomerRow | null }): TransferNode => read as TransferNode;

/** What `read` makes of a transfer's quote: the one joined with it, else through the request's dataloader (one query a page). */
function fromQuote<T>(node: TransferNode, ctx: GraphQLContext, read: (quote: QuoteRow) => T): T | Promise<T> {
  return node.quote ? read(node.quote) : QuoteRef.getDataloader(ctx).load(node.transfer.quoteId).then(read);
}

/** A transfer field that shows one column of the transfer's row: it says so (`reads`), so a page selects that column. */
const column = <K extends keyof TransferRow>(property: K) => ({
  extensions: reads([property]),
  resolve: (n: TransferNode) => n.transfer[property] as NonNullable<TransferRow[K]>,
});
const nullableColumn = <K extends keyof TransferRow>(property: K) => ({
  nullable: true as const,
  extensions: reads([property]),
  resolve: (n: TransferNode) => n.transfer[property] ?? null,
});

/** The `reads()` of a transfer field that shows these properties of its quote. */
const readsQuote = (...properties: (keyof QuoteRow)[]) => reads(['quoteId'], { quote: properties });

/** A transfer field that shows one property of its quote, as the field's type `T` (a fiat currency or a token of the direction). */
const quoteProperty = <T>(property: keyof QuoteRow) => ({
  extensions: readsQuote(property),
  resolve: (n: TransferNode, _: unknown, ctx: GraphQLContext) => fromQuote(n, ctx, (q) => q[property] as T),
});

const StatusChangeRef = builder.objectRef<TransferStatusChange>('TransferStatusChange').implement({
  fields: (t) => ({
    from: t.field({ type: TransferStatusEnum, nullable: true, resolve: (c) => c.fromStatus ?? null }),
    to: t.field({ type: TransferStatusEnum, resolve: (c) => c.toStatus }),
    reason: t.exposeString('reason'),
    at: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

/** The object type of each direction: a transfer's global id names it, and resolveType picks it. */
export const TRANSFER_TYPENAMES = { onramp: 'OnrampTransfer', offramp: 'OfframpTransfer' } as const satisfies Record<TransferDirection, string>;

/** Fields every transfer has; the quote, customer, history and postings load in batches. */
export const TransferRef = builder.interfaceRef<TransferNode>('Transfer').implement({
  description: 'An on-ramp or an off-ramp transfer: a Node whose global id names its type (OnrampTransfer or OfframpTransfer)',
  interfaces: [builder.nodeInterfaceRef()],
  // A snapshot (an event's view of a transfer) is a Transfer too, of its own type and id.
  resolveType: (n) => snapshotTypeOf.get(n) ?? TRANSFER_TYPENAMES[n.transfer.direction],
  fields: (t) => ({
    databaseId: t.field({ type: 'UUID', description: 'The id REST shows for this transfer (id of …/onramp-transfer or …/offramp-transfer)', ...column('id') }),
    direction: t.field({ type: TransferDirectionEnum, ...column('direction') }),
    status: t.field({ type: TransferStatusEnum, ...column('status') }),
    customer: t.field({ type: CustomerRef, extensions: reads(['customerId']), resolve: (n) => n.customer ?? n.transfer.customerId }),
    quote: t.field({ type: QuoteRef, extensions: reads(['quoteId']), resolve: (n) => n.quote ?? n.transfer.quoteId }),
    amount: t.field({
      type: 'Decimal',
      description: 'What the customer deposits (the source amount)',
      extensions: readsQuote('sourceAmount', 'sourceCurrency'),
      resolve: (n, _, ctx) => fromQuote(n, ctx, (q) => amount(q.sourceAmount, q.sourceCurrency)),
    }),
    destinationAmount: t.field({
      type: 'Decimal',
      extensions: readsQuote('destinationAmount', 'destinationCurrency'),
      resolve: (n, _, ctx) => fromQuote(n, ctx, (q) => amount(q.destinationAmount, q.destinationCurrency)),
    }),
    failureReason: t.string(nullableColumn('failureReason')),
    depositExpiresAt: t.field({ type: 'DateTime', description: 'A pending transfer expires at this moment', ...column('depositExpiresAt') }),
    confirmations: t.int({
      description:
        "Blocks on top of the transfer's chain transaction (an off-ramp's deposit, an on-ramp's payout) on a LIVE network; null until it is seen, and on SIMULATED networks",
      ...nullableColumn('confirmations'),
    }),
    requiredConfirmations: t.int({
      description:
        'What confirmations must reach before the deposit counts or the payout completes (the network’s count when the transaction was seen); null with confirmations',
      ...nullableColumn('requiredConfirmations'),
    }),
    createdAt: t.field({ type: 'DateTime', ...column('createdAt') }),
    updatedAt: t.field({ type: 'DateTime', ...column('updatedAt') }),
    statusHistory: t.loadableGroup({
      type: StatusChangeRef,
      description: 'Every status the transfer went through, oldest first, with when and why',
      load: (ids: string[], ctx) => ctx.services.transfers.loadHistories(scopeOf(ctx), ids),
      group: (change) => change.transferId,
      extensions: reads(['id']),
      resolve: (n) => n.transfer.id,
    }),
    postings: t.loadableGroup({
      type: PostingRef,
      description: 'The ledger entries of this transfer, oldest first: DEPOSIT, EXCESS_RETURN (an overpayment sent back), FEES, CONVERSION, PAYOUT or REFUND',
      load: (ids: string[], ctx) => ctx.services.ledger.entriesOf(scopeOf(ctx), ids),
      group: (entry) => entry.transferId,
      extensions: reads(['id']),
      resolve: (n) => n.transfer.id,
    }),
  }),
});

/** One connection type wherever transfers are listed (Query.transfers, Customer.transfers). */
export const TransferConnection = nodeConnection(TransferRef, 'Transfer');

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
    accountBeneficiaryType: t.field({ type: AccountHolderTypeEnum, resolve: (a) => a.account_beneficiary_type }),
    accountBeneficiaryName: t.exposeString('account_beneficiary_name'),
    accountType: t.field({ type: BankAccountTypeEnum, resolve: (a) => a.account_type }),
    iban: t.field({ type: IbanDetailsRef, nullable: true, resolve: (a) => a.iban ?? null }),
    us: t.field({ type: UsDetailsRef, nullable: true, resolve: (a) => a.us ?? null }),
    swift: t.field({ type: SwiftDepositDetailsRef, nullable: true, resolve: (a) => a.swift ?? null }),
  }),
});

/** The transfers of one direction, by id, for node(id:): a global id of the other type reads as null. */
const transfersIn =
  <N extends TransferNode>(direction: TransferDirection) =>
  async (ids: string[], ctx: GraphQLContext): Promise<N[]> =>
    (await ctx.services.transfers.loadTransfers(scopeOf(ctx), ids))
      .filter((transfer) => transfer.direction === direction)
      .map((transfer) => transferNode({ transfer }) as N);

export const OnrampTransferRef = builder.loadableNodeRef<OnrampTransferNode>('OnrampTransfer', {
  id: { resolve: (n) => n.transfer.id },
  load: transfersIn<OnrampTransferNode>('onramp'),
  sort: (n) => n.transfer.id,
});

/** The fields of its direction (and of a snapshot of one, as an event kept it). */
function onrampFields(t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, OnrampTransferNode>) {
  return {
    sourceCurrency: t.field({ type: FiatCurrencyEnum, ...quoteProperty<FiatCurrency>('sourceCurrency') }),
    sourceRails: t.field({ type: PaymentRailsEnum, ...quoteProperty<PaymentRails>('sourceRails') }),
    destinationToken: t.field({ type: StablecoinEnum, ...quoteProperty<Token>('destinationCurrency') }),
    destinationNetwork: t.field({ type: BlockchainNetworkEnum, ...quoteProperty<Network>('destinationNetwork') }),
    destinationAddress: t.string({ extensions: reads(['destinationAddress']), resolve: (n) => n.transfer.destinationAddress }),
    destinationTransactionHash: t.string({ description: 'The token delivery, once completed', ...nullableColumn('payoutTransactionHash') }),
    virtualAccount: t.field({
      type: VirtualAccountRef,
      nullable: true,
      description: 'The virtual account the deposit arrived on; null for a deposit to the collection account',
      extensions: reads(['virtualAccountId']),
      resolve: (n) => n.transfer.virtualAccountId,
    }),
    depositReceivedAmount: t.field({
      type: 'Decimal',
      nullable: true,
      description: 'The fiat that arrived: null until it does; less than the deposit amount fails the transfer (underpaid), the excess of more is returned',
      extensions: reads(['depositReceivedAmount', 'quoteId'], { quote: ['sourceCurrency'] }),
      resolve: (n, _, ctx) => {
        const received = n.transfer.depositReceivedAmount;
        return received ? fromQuote(n, ctx, (q) => amount(received, q.sourceCurrency)) : null;
      },
    }),
    depositBankAccount: t.field({ type: DepositBankAccountRef, extensions: reads(['depositBankAccount']), resolve: (n) => n.transfer.depositBankAccount }),
    depositMessage: t.string({
      nullable: true,
      description: 'The reference the customer must put on the bank transfer; null for a deposit that arrived on a virtual account',
      extensions: reads(['virtualAccountId', 'depositMessage']),
      resolve: (n) => shownDepositMessage(n.transfer),
    }),
  };
}

OnrampTransferRef.implement({
  description: 'Fiat to token: an on-ramp transfer',
  interfaces: [TransferRef],
  fields: (t) => onrampFields(t),
});

export const OnrampTransferSnapshotRef = snapshotRef(OnrampTransferRef, {
  description: "An on-ramp transfer as an event kept it: an id of its own (the event's), the fields as they were, `live` for the transfer now",
  interfaces: [TransferRef],
  fields: (t) => onrampFields(t as never),
});

/** An off-ramp's payout account; numbers masked, as everywhere but a creation response. */
const PayoutBankAccountRef = builder.objectRef<BankAccountDetails>('PayoutBankAccount').implement({
  fields: (t) => ({
    bankName: t.exposeString('bank_name'),
    accountType: t.field({ type: BankAccountTypeEnum, resolve: (a) => a.account_type }),
    accountHolderType: t.field({ type: AccountHolderTypeEnum, resolve: (a) => a.account_holder_type }),
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

export const OfframpTransferRef = builder.loadableNodeRef<OfframpTransferNode>('OfframpTransfer', {
  id: { resolve: (n) => n.transfer.id },
  load: transfersIn<OfframpTransferNode>('offramp'),
  sort: (n) => n.transfer.id,
});

/** The fields of its direction (and of a snapshot of one, as an event kept it). */
function offrampFields(t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, OfframpTransferNode>) {
  return {
    sourceToken: t.field({ type: StablecoinEnum, ...quoteProperty<Token>('sourceCurrency') }),
    sourceNetwork: t.field({ type: BlockchainNetworkEnum, ...quoteProperty<Network>('sourceNetwork') }),
    destinationCurrency: t.field({ type: FiatCurrencyEnum, ...quoteProperty<FiatCurrency>('destinationCurrency') }),
    destinationPaymentRails: t.field({ type: PaymentRailsEnum, ...quoteProperty<PaymentRails>('destinationRails') }),
    transferPurpose: t.field({ type: TransferPurposeEnum, extensions: reads(['transferPurpose']), resolve: (n) => n.transfer.transferPurpose }),
    destinationExternalAccount: t.field({
      type: BankAccountRef,
      nullable: true,
      description: 'The registered bank account paid out to; null for an account given inline (destinationBankAccount shows either)',
      extensions: reads(['destinationExternalAccountId']),
      resolve: (n) => n.transfer.destinationExternalAccountId,
    }),
    destinationBankAccount: t.field({
      type: PayoutBankAccountRef,
      extensions: reads(['destinationBankAccount']),
      resolve: (n) => n.transfer.destinationBankAccount,
    }),
    depositBlockchainAddress: t.string({
      description: 'Where the customer sends the tokens',
      extensions: reads(['depositBlockchainAddress']),
      resolve: (n) => n.transfer.depositBlockchainAddress,
    }),
    depositTransactionHash: t.string(nullableColumn('depositTransactionHash')),
  };
}

OfframpTransferRef.implement({
  description: 'Token to fiat: an off-ramp transfer',
  interfaces: [TransferRef],
  fields: (t) => offrampFields(t),
});

export const OfframpTransferSnapshotRef = snapshotRef(OfframpTransferRef, {
  description: "An off-ramp transfer as an event kept it: an id of its own (the event's), the fields as they were, `live` for the transfer now",
  interfaces: [TransferRef],
  fields: (t) => offrampFields(t as never),
});

/** A transfer as one of its events left it (either direction). */
export const TransferSnapshotUnion = builder.unionType('TransferSnapshot', {
  description: "A transfer as one of its events left it: OnrampTransferSnapshot or OfframpTransferSnapshot, each with an id of its own (the event's)",
  types: [OnrampTransferSnapshotRef, OfframpTransferSnapshotRef],
  resolveType: (n) => snapshotTypeOf.get(n) ?? null,
});
