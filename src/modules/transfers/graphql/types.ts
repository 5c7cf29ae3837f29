import { maskAccountNumber } from '../../../domain/identifiers/bank.js';
import {
  type Asset,
  type FiatCurrency,
  type Network,
  type PaymentRails,
  type StoredAmount,
  type Token,
  formatAmount,
  plainAmount,
  toFixedPlaces,
} from '../../../domain/money.js';
import { RATE_SCALE } from '../../../domain/pricing.js';
import { TRANSFER_DIRECTIONS, TRANSFER_STATUSES, type TransferDirection, type TransferStatus } from '../../../domain/transfer-status.js';
import { TRANSFER_PURPOSES } from '../../../domain/transfer-purpose.js';
import { builder } from '../../../graphql/builder.js';
import { snapshotRef, snapshotTypeOf } from '../../events/snapshots.js';
import { reads } from '../../../graphql/types/columns.js';
import { nodeConnection } from '../../../graphql/types/connection.js';
import { type GraphQLContext, scopeOf } from '../../../graphql/context.js';
import { BlockchainNetworkEnum, FiatCurrencyEnum, PaymentRailsEnum, StablecoinEnum, domainEnum } from '../../../graphql/types/enums.js';
import { BankAccountRef } from '../../bank-accounts/graphql.js';
import { AccountHolderTypeEnum, BankAccountTypeEnum } from '../../bank-accounts/graphql.js';
import type { BankAccountDetails } from '../../bank-accounts/records.js';
import { CustomerRef } from '../../customers/graphql.js';
import { AssetEnum, PostingRef } from '../../ledger/graphql.js';
import { VirtualAccountRef } from '../../virtual-accounts/graphql.js';
import type { DepositBankAccount } from '../accounts/deposit-instructions.js';
import type { CustomerRow } from '../../customers/service.js';
import type { OfframpTransferRow, OnrampTransferRow, QuoteRow, StatusChangeRow, TransferRow } from '../queries.js';
import { shownDepositMessage } from '../presenters.js';

export const TransferDirectionEnum = domainEnum('TransferDirection', TRANSFER_DIRECTIONS, {
  description: 'Which way money moves: fiat to stablecoin (on-ramp) or stablecoin to fiat (off-ramp)',
  describe: { onramp: 'Fiat in, a stablecoin out', offramp: 'A stablecoin in, fiat out' },
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
  describe: STATUS_MEANINGS,
});
const PURPOSE_MEANINGS: Record<(typeof TRANSFER_PURPOSES)[number], string> = {
  charity: 'A donation to a charity',
  commercial_investment: 'A commercial investment',
  corporate_card: 'Paying a corporate card bill',
  credit_card: 'Paying a credit card bill',
  dividend: 'A dividend',
  family: 'Support for family',
  financial_services: 'Paying for financial services',
  good_sold: 'Proceeds of goods sold (Align spells it good_sold)',
  goods_bought: 'Paying for goods bought',
  government: 'A payment to or from a government',
  insurance: 'An insurance premium or claim',
  intergroup_transfer: 'A transfer between companies of one group',
  intra_group_dividends: 'A dividend within a group of companies',
  information_technology: 'Paying for IT services',
  leasing: 'A lease payment',
  loan_charges: 'Loan repayment or charges',
  merchant_settlement: "Settling a merchant's takings",
  mobile_wallet: 'Funding a mobile wallet',
  none: 'No purpose stated',
  non_resident_transfer_between_accounts: "A non-resident's transfer between their own accounts",
  pension: 'A pension payment',
  personal_expenses: 'Personal expenses',
  prepaid_cards: 'Loading prepaid cards',
  professional: 'Paying for professional services',
  rental: 'Rent',
  resident_transfer_between_accounts: "A resident's transfer between their own accounts",
  salaries: 'Salaries',
  telecommunications: 'Paying for telecommunications',
  travel: 'Travel',
  utility_bill: 'A utility bill',
};
export const TransferPurposeEnum = domainEnum('TransferPurpose', TRANSFER_PURPOSES, {
  description: 'Why an off-ramp pays out (Align’s purpose codes; REST spells them in lower case)',
  describe: PURPOSE_MEANINGS,
});

const amount = (value: StoredAmount, asset: Asset) => formatAmount(value, asset);

const FeeBreakdownRef = builder.objectRef<QuoteRow>('FeeBreakdown').implement({
  description: 'The parts of feeAmount, all in the source currency; they add up to it.',
  fields: (t) => ({
    currency: t.field({ type: AssetEnum, description: 'The currency of every fee: the source currency of the quote', resolve: (q) => q.sourceCurrency }),
    platformFee: t.field({
      type: 'Decimal',
      description: "The partner's platform fee: its basis points of the source amount, rounded up",
      resolve: (q) => amount(q.platformFee, q.sourceCurrency),
    }),
    developerFee: t.field({
      type: 'Decimal',
      description: 'developerFeePercent of the source amount, rounded up',
      resolve: (q) => amount(q.developerFee, q.sourceCurrency),
    }),
    networkFee: t.field({
      type: 'Decimal',
      description: "The chain leg's cost (set in US dollars per network) converted to the source currency, rounded up",
      resolve: (q) => amount(q.networkFee, q.sourceCurrency),
    }),
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
    direction: t.field({
      type: TransferDirectionEnum,
      description: 'On-ramp or off-ramp quote',
      extensions: reads(['direction']),
      resolve: (q) => q.direction,
    }),
    customer: t.field({ type: CustomerRef, description: 'The customer the quote is for', extensions: reads(['customerId']), resolve: (q) => q.customerId }),
    sourceCurrency: t.field({
      type: AssetEnum,
      description: 'A fiat currency (on-ramp) or a stablecoin (off-ramp)',
      extensions: reads(['sourceCurrency']),
      resolve: (q) => q.sourceCurrency,
    }),
    sourcePaymentRails: t.field({
      type: PaymentRailsEnum,
      nullable: true,
      description: 'The rail the fiat comes in on (on-ramp); null for an off-ramp',
      extensions: reads(['sourceRails']),
      resolve: (q) => q.sourceRails ?? null,
    }),
    sourceNetwork: t.field({
      type: BlockchainNetworkEnum,
      nullable: true,
      description: 'The chain the tokens come in on (off-ramp); null for an on-ramp',
      extensions: reads(['sourceNetwork']),
      resolve: (q) => q.sourceNetwork ?? null,
    }),
    sourceAmount: t.field({
      type: 'Decimal',
      description: 'What the customer pays in, fees included, in sourceCurrency (2 decimals for fiat, 6 for tokens)',
      extensions: reads(['sourceAmount', 'sourceCurrency']),
      resolve: (q) => amount(q.sourceAmount, q.sourceCurrency),
    }),
    destinationCurrency: t.field({
      type: AssetEnum,
      description: 'A stablecoin (on-ramp) or a fiat currency (off-ramp)',
      extensions: reads(['destinationCurrency']),
      resolve: (q) => q.destinationCurrency,
    }),
    destinationPaymentRails: t.field({
      type: PaymentRailsEnum,
      nullable: true,
      description: 'The rail the fiat is paid out on (off-ramp); null for an on-ramp',
      extensions: reads(['destinationRails']),
      resolve: (q) => q.destinationRails ?? null,
    }),
    destinationNetwork: t.field({
      type: BlockchainNetworkEnum,
      nullable: true,
      description: 'The chain the tokens are delivered on (on-ramp); null for an off-ramp',
      extensions: reads(['destinationNetwork']),
      resolve: (q) => q.destinationNetwork ?? null,
    }),
    destinationAmount: t.field({
      type: 'Decimal',
      description: 'What the customer receives, in destinationCurrency: (sourceAmount − feeAmount) × exchangeRate, rounded down',
      extensions: reads(['destinationAmount', 'destinationCurrency']),
      resolve: (q) => amount(q.destinationAmount, q.destinationCurrency),
    }),
    exchangeRate: t.field({
      type: 'Decimal',
      description: 'Units of the destination per unit of the source, rounded half-even to 8 decimal places; exactly the rate applied',
      extensions: reads(['exchangeRate']),
      resolve: (q) => toFixedPlaces(q.exchangeRate, RATE_SCALE),
    }),
    feeAmount: t.field({
      type: 'Decimal',
      description: 'All fees, in the source currency, taken out of the source amount (the sum of fees)',
      extensions: reads(['feeAmount', 'sourceCurrency']),
      resolve: (q) => amount(q.feeAmount, q.sourceCurrency),
    }),
    fees: t.field({
      type: FeeBreakdownRef,
      description: 'feeAmount in its parts: platform, developer, network (REST: fee_breakdown)',
      extensions: reads(['sourceCurrency', 'platformFee', 'developerFee', 'networkFee']),
      resolve: (q) => q,
    }),
    developerFeePercent: t.field({
      type: 'Decimal',
      description: 'The developer fee the quote was asked with, in percent of the source amount (e.g. "1" is 1 %)',
      extensions: reads(['developerFeePercent']),
      resolve: (q) => plainAmount(q.developerFeePercent),
    }),
    expiresAt: t.expose('expiresAt', {
      type: 'DateTime',
      description: 'After this the quote makes no transfer (UnprocessableError quote_expired); 15 minutes after creation by default (REST: expire_at)',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the quote was made' }),
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

const StatusChangeRef = builder.objectRef<StatusChangeRow>('TransferStatusChange').implement({
  description: "One step of a transfer's status history",
  fields: (t) => ({
    from: t.field({
      type: TransferStatusEnum,
      nullable: true,
      description: 'The status before; null for the first entry (the transfer created)',
      resolve: (c) => c.fromStatus ?? null,
    }),
    to: t.field({ type: TransferStatusEnum, description: 'The status after', resolve: (c) => c.toStatus }),
    reason: t.exposeString('reason', { description: 'Why it changed, e.g. transfer_created, fiat_deposit_received, deposit_window_elapsed' }),
    at: t.expose('createdAt', { type: 'DateTime', description: 'When it changed' }),
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
    direction: t.field({ type: TransferDirectionEnum, description: 'On-ramp or off-ramp', ...column('direction') }),
    status: t.field({ type: TransferStatusEnum, description: 'Where the transfer is now; statusHistory has how it got there', ...column('status') }),
    customer: t.field({
      type: CustomerRef,
      description: 'The customer the transfer is for',
      extensions: reads(['customerId']),
      resolve: (n) => n.customer ?? n.transfer.customerId,
    }),
    quote: t.field({
      type: QuoteRef,
      description: 'The quote the transfer was made from: its amounts, rate and fees',
      extensions: reads(['quoteId']),
      resolve: (n) => n.quote ?? n.transfer.quoteId,
    }),
    amount: t.field({
      type: 'Decimal',
      description: 'What the customer deposits (the source amount)',
      extensions: readsQuote('sourceAmount', 'sourceCurrency'),
      resolve: (n, _, ctx) => fromQuote(n, ctx, (q) => amount(q.sourceAmount, q.sourceCurrency)),
    }),
    destinationAmount: t.field({
      type: 'Decimal',
      description: "What the customer receives, in the destination currency (the quote's destination amount)",
      extensions: readsQuote('destinationAmount', 'destinationCurrency'),
      resolve: (n, _, ctx) => fromQuote(n, ctx, (q) => amount(q.destinationAmount, q.destinationCurrency)),
    }),
    failureReason: t.string({ description: 'Why the transfer failed, e.g. underpaid; null unless FAILED', ...nullableColumn('failureReason') }),
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
    createdAt: t.field({ type: 'DateTime', description: 'When the transfer was created', ...column('createdAt') }),
    updatedAt: t.field({ type: 'DateTime', description: 'When the transfer last changed', ...column('updatedAt') }),
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
  description: 'An account reached by IBAN (SEPA, UAEFTS, SWIFT)',
  fields: (t) => ({
    bic: t.exposeString('bic', { description: "The bank's BIC (SWIFT code), 8 or 11 characters" }),
    ibanNumber: t.exposeString('iban_number', { description: 'The IBAN, without spaces' }),
  }),
});
const UsDetailsRef = builder.objectRef<{ account_number: string; routing_number: string }>('UsAccountDetails').implement({
  description: 'A US account reached by ACH or wire',
  fields: (t) => ({
    accountNumber: t.exposeString('account_number', { description: 'The account number' }),
    routingNumber: t.exposeString('routing_number', { description: "The bank's 9-digit ABA routing number" }),
  }),
});

const SwiftDepositDetailsRef = builder.objectRef<{ bic: string; account_number: string; routing_number: string }>('SwiftDepositDetails').implement({
  description: 'A US bank receiving USD over SWIFT: its BIC, the account number and its ABA routing number',
  fields: (t) => ({
    bic: t.exposeString('bic', { description: "The receiving bank's BIC (SWIFT code)" }),
    accountNumber: t.exposeString('account_number', { description: 'The account number' }),
    routingNumber: t.exposeString('routing_number', { description: "The bank's 9-digit ABA routing number" }),
  }),
});

const DepositBankAccountRef = builder.objectRef<DepositBankAccount>('DepositBankAccount').implement({
  description: "Where the customer pays the fiat in: Ramp's collection account, or the customer's virtual account the deposit arrived on",
  fields: (t) => ({
    bankName: t.exposeString('bank_name', { description: 'The name of the bank to pay into' }),
    bankAddress: t.exposeString('bank_address', { description: "The bank's postal address" }),
    accountBeneficiaryType: t.field({
      type: AccountHolderTypeEnum,
      description: "Who holds the account: BUSINESS for Ramp's collection account or a corporate customer's virtual account",
      resolve: (a) => a.account_beneficiary_type,
    }),
    accountBeneficiaryName: t.exposeString('account_beneficiary_name', { description: 'The name to pay to' }),
    accountType: t.field({ type: BankAccountTypeEnum, description: 'Which of iban, us or swift holds the numbers', resolve: (a) => a.account_type }),
    iban: t.field({
      type: IbanDetailsRef,
      nullable: true,
      description: 'The IBAN and BIC when accountType is IBAN; else null',
      resolve: (a) => a.iban ?? null,
    }),
    us: t.field({
      type: UsDetailsRef,
      nullable: true,
      description: 'Account and routing number when accountType is US; else null',
      resolve: (a) => a.us ?? null,
    }),
    swift: t.field({
      type: SwiftDepositDetailsRef,
      nullable: true,
      description: 'BIC, account and routing number when accountType is SWIFT; else null',
      resolve: (a) => a.swift ?? null,
    }),
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
    sourceCurrency: t.field({
      type: FiatCurrencyEnum,
      description: 'The fiat currency the customer pays in',
      ...quoteProperty<FiatCurrency>('sourceCurrency'),
    }),
    sourceRails: t.field({ type: PaymentRailsEnum, description: 'The rail the fiat comes in on', ...quoteProperty<PaymentRails>('sourceRails') }),
    destinationToken: t.field({ type: StablecoinEnum, description: 'The stablecoin delivered', ...quoteProperty<Token>('destinationCurrency') }),
    destinationNetwork: t.field({
      type: BlockchainNetworkEnum,
      description: 'The chain the stablecoin is delivered on',
      ...quoteProperty<Network>('destinationNetwork'),
    }),
    destinationAddress: t.string({
      description: 'The wallet address the stablecoin is delivered to (valid for destinationNetwork)',
      extensions: reads(['destinationAddress']),
      resolve: (n) => n.transfer.destinationAddress,
    }),
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
    depositBankAccount: t.field({
      type: DepositBankAccountRef,
      description: "Where the customer pays the fiat in: Ramp's collection account, or the virtual account the deposit arrived on",
      extensions: reads(['depositBankAccount']),
      resolve: (n) => n.transfer.depositBankAccount,
    }),
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
  description: 'The bank account an off-ramp pays out to, its numbers masked (registered or given inline)',
  fields: (t) => ({
    bankName: t.exposeString('bank_name', { description: 'The name of the bank' }),
    accountType: t.field({ type: BankAccountTypeEnum, description: 'How the account is reached: IBAN, US or SWIFT', resolve: (a) => a.account_type }),
    accountHolderType: t.field({ type: AccountHolderTypeEnum, description: 'A person or a business holds the account', resolve: (a) => a.account_holder_type }),
    accountHolderFirstName: t.exposeString('account_holder_first_name', {
      nullable: true,
      description: "An individual holder's first name; null for a business",
    }),
    accountHolderLastName: t.exposeString('account_holder_last_name', { nullable: true, description: "An individual holder's last name; null for a business" }),
    accountHolderBusinessName: t.exposeString('account_holder_business_name', {
      nullable: true,
      description: "A business holder's name; null for an individual",
    }),
    accountHolderCountry: t.string({ description: "The holder's country, ISO 3166-1 alpha-2", resolve: (a) => a.account_holder_address.country }),
    accountNumberMasked: t.string({
      description: 'The IBAN or account number masked: an ellipsis and its last 4 characters (fewer for a short number), e.g. "…3000"',
      resolve: (a) =>
        maskAccountNumber(a.account_type === 'iban' ? a.iban.iban_number : a.account_type === 'us' ? a.us.account_number : a.swift.account_number),
    }),
    bic: t.string({
      nullable: true,
      description: "The bank's BIC for an IBAN or SWIFT account; null for a US account",
      resolve: (a) => (a.account_type === 'iban' ? a.iban.bic : a.account_type === 'swift' ? a.swift.bic : null),
    }),
    routingNumber: t.string({
      nullable: true,
      description: 'The ABA routing number of a US account (or a SWIFT account that has one); else null',
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
    sourceToken: t.field({ type: StablecoinEnum, description: 'The stablecoin the customer sends', ...quoteProperty<Token>('sourceCurrency') }),
    sourceNetwork: t.field({ type: BlockchainNetworkEnum, description: 'The chain the customer sends it on', ...quoteProperty<Network>('sourceNetwork') }),
    destinationCurrency: t.field({ type: FiatCurrencyEnum, description: 'The fiat currency paid out', ...quoteProperty<FiatCurrency>('destinationCurrency') }),
    destinationPaymentRails: t.field({
      type: PaymentRailsEnum,
      description: 'The rail the fiat is paid out on',
      ...quoteProperty<PaymentRails>('destinationRails'),
    }),
    transferPurpose: t.field({
      type: TransferPurposeEnum,
      description: 'Why the payout is made',
      extensions: reads(['transferPurpose']),
      resolve: (n) => n.transfer.transferPurpose,
    }),
    destinationExternalAccount: t.field({
      type: BankAccountRef,
      nullable: true,
      description: 'The registered bank account paid out to; null for an account given inline (destinationBankAccount shows either)',
      extensions: reads(['destinationExternalAccountId']),
      resolve: (n) => n.transfer.destinationExternalAccountId,
    }),
    destinationBankAccount: t.field({
      type: PayoutBankAccountRef,
      description: 'The bank account paid out to, registered or inline, its numbers masked',
      extensions: reads(['destinationBankAccount']),
      resolve: (n) => n.transfer.destinationBankAccount,
    }),
    depositBlockchainAddress: t.string({
      description: 'Where the customer sends the tokens',
      extensions: reads(['depositBlockchainAddress']),
      resolve: (n) => n.transfer.depositBlockchainAddress,
    }),
    uetr: t.string({
      description:
        "The payout's UETR (a UUID v4): the id every bank on its way tracks it by (SWIFT gpi, Fedwire, SEPA). Set once the payout is sent through an ISO 20022 bank; null before, and with the in-process sandbox bank",
      ...nullableColumn('uetr'),
    }),
    depositTransactionHash: t.string({
      description: "The customer's deposit transaction on sourceNetwork, once seen by the watcher or named by completeOfframpTransfer; else null",
      ...nullableColumn('depositTransactionHash'),
    }),
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
