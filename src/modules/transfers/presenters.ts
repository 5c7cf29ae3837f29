import { type Asset, type StoredAmount, formatAmount, plainAmount, toFixedPlaces } from '../../domain/money.js';
import { RATE_SCALE } from '../../domain/pricing.js';
import { presentBankAccountDetails } from '../bank-accounts/presenters.js';
import type { BankAccountDetails } from '../bank-accounts/records.js';
import type { FEE_COLUMNS, LIFECYCLE_COLUMNS, QuoteRow, ShownTransferWithQuote, TransferRow } from './queries.js';

type ShownTransfer = ShownTransferWithQuote['transfer'];
type ShownQuote = ShownTransferWithQuote['quote'];

/** numeric(38,18) holds more digits than an asset has; the wire shows the asset's own scale. */
const amountOf = (value: StoredAmount, asset: Asset) => formatAmount(value, asset);
const rateOf = (value: StoredAmount) => toFixedPlaces(value, RATE_SCALE);

/** Fee parts, all in the source asset: they add up to `fee_amount`. */
function feeBreakdown(quote: Pick<QuoteRow, (typeof FEE_COLUMNS)[number]>) {
  const asset = quote.sourceCurrency;
  return {
    currency: asset,
    platform_fee: amountOf(quote.platformFee, asset),
    developer_fee: amountOf(quote.developerFee, asset),
    network_fee: amountOf(quote.networkFee, asset),
  };
}

/**
 * A quote as its creation answers it (either direction). The spec shows none of it; we return
 * every field a partner needs to show the customer the offer, named as Align names them.
 */
export function presentQuote(quote: QuoteRow, transferId: string | null) {
  const common = {
    quote_id: quote.id,
    customer_id: quote.customerId,
    source_amount: amountOf(quote.sourceAmount, quote.sourceCurrency),
    destination_amount: amountOf(quote.destinationAmount, quote.destinationCurrency),
    exchange_rate: rateOf(quote.exchangeRate),
    fee_amount: amountOf(quote.feeAmount, quote.sourceCurrency),
    fee_breakdown: feeBreakdown(quote),
    developer_fee_percent: plainAmount(quote.developerFeePercent),
    expire_at: quote.expiresAt.toISOString(),
    created_at: quote.createdAt.toISOString(),
    transfer_id: transferId,
  };
  return quote.direction === 'onramp'
    ? {
        ...common,
        source_currency: quote.sourceCurrency,
        source_payment_rails: quote.sourceRails,
        destination_token: quote.destinationCurrency,
        destination_network: quote.destinationNetwork,
      }
    : {
        ...common,
        source_token: quote.sourceCurrency,
        source_network: quote.sourceNetwork,
        destination_currency: quote.destinationCurrency,
        destination_payment_rails: quote.destinationRails,
      };
}
export type QuoteView = ReturnType<typeof presentQuote>;

/**
 * The reference the customer must quote on the bank transfer; null for a deposit that already
 * arrived on a virtual account (it was matched by the account's own number).
 */
export const shownDepositMessage = (transfer: Pick<TransferRow, 'virtualAccountId' | 'depositMessage'>): string | null =>
  transfer.virtualAccountId ? null : (transfer.depositMessage ?? null);

/** Fields every transfer shows beyond the spec's (documented in docs/api/transfers.md, "Beyond the partner APIs: Ramp's choices"). */
function lifecycle(transfer: Pick<TransferRow, (typeof LIFECYCLE_COLUMNS)[number]>) {
  return {
    customer_id: transfer.customerId,
    failure_reason: transfer.failureReason ?? null,
    deposit_expire_at: transfer.depositExpiresAt.toISOString(),
    // The chain leg's progress on a live network (the off-ramp's deposit, the on-ramp's payout); null until seen, and on simulated ones.
    confirmations: transfer.confirmations ?? null,
    required_confirmations: transfer.requiredConfirmations ?? null,
    created_at: transfer.createdAt.toISOString(),
    updated_at: transfer.updatedAt.toISOString(),
  };
}

/** An on-ramp transfer as the partner API shows it (list item and single read alike); also its events' payload. */
export function presentOnrampTransfer(transfer: ShownTransfer, quote: ShownQuote) {
  const source = quote.sourceCurrency;
  return {
    id: transfer.id,
    status: transfer.status,
    amount: amountOf(quote.sourceAmount, source),
    source_currency: source,
    source_rails: quote.sourceRails,
    destination_network: quote.destinationNetwork,
    destination_token: quote.destinationCurrency,
    destination_address: transfer.destinationAddress,
    destination_amount: amountOf(quote.destinationAmount, quote.destinationCurrency),
    destination_transaction_hash: transfer.payoutTransactionHash ?? null,
    virtual_account_id: transfer.virtualAccountId ?? null,
    // What arrived: null until the fiat does; less or more than quote.deposit_amount in an under- or overpayment.
    deposit_received_amount: transfer.depositReceivedAmount ? amountOf(transfer.depositReceivedAmount, source) : null,
    quote: {
      quote_id: quote.id,
      deposit_rails: quote.sourceRails,
      deposit_currency: source,
      deposit_bank_account: transfer.depositBankAccount,
      deposit_amount: amountOf(quote.sourceAmount, source),
      deposit_message: shownDepositMessage(transfer),
      source_amount: amountOf(quote.sourceAmount, source),
      destination_amount: amountOf(quote.destinationAmount, quote.destinationCurrency),
      exchange_rate: rateOf(quote.exchangeRate),
      fee_amount: amountOf(quote.feeAmount, source),
      fee_breakdown: feeBreakdown(quote),
    },
    ...lifecycle(transfer),
  };
}

/**
 * An off-ramp transfer as the partner API shows it. The destination account's numbers are masked, from the hidden copy the row
 * keeps (nothing is opened), except in the response that created it, which passes the account in clear as
 * `destination` (as for external accounts).
 */
export function presentOfframpTransfer(transfer: ShownTransfer, quote: ShownQuote, destination?: BankAccountDetails | null) {
  const source = quote.sourceCurrency;
  const account = destination
    ? presentBankAccountDetails(destination, { masked: false })
    : transfer.destinationBankAccount
      ? presentBankAccountDetails(transfer.destinationBankAccount, { masked: true })
      : null;
  return {
    id: transfer.id,
    status: transfer.status,
    amount: amountOf(quote.sourceAmount, source),
    source_token: source,
    source_network: quote.sourceNetwork,
    destination_currency: quote.destinationCurrency,
    destination_payment_rails: quote.destinationRails,
    destination_amount: amountOf(quote.destinationAmount, quote.destinationCurrency),
    transfer_purpose: transfer.transferPurpose,
    destination_external_account_id: transfer.destinationExternalAccountId ?? null,
    destination_bank_account: account,
    quote: {
      quote_id: quote.id,
      deposit_network: quote.sourceNetwork,
      deposit_token: source,
      deposit_blockchain_address: transfer.depositBlockchainAddress,
      deposit_amount: amountOf(quote.sourceAmount, source),
      source_amount: amountOf(quote.sourceAmount, source),
      destination_amount: amountOf(quote.destinationAmount, quote.destinationCurrency),
      exchange_rate: rateOf(quote.exchangeRate),
      fee_amount: amountOf(quote.feeAmount, source),
      fee_breakdown: feeBreakdown(quote),
      deposit_transaction_hash: transfer.depositTransactionHash ?? null,
    },
    // Ramp's extension: the payout's UETR once an ISO 20022 bank was asked to pay it (docs/api/transfers.md).
    uetr: transfer.uetr ?? null,
    ...lifecycle(transfer),
  };
}

export function presentTransfer(transfer: ShownTransfer, quote: ShownQuote) {
  return transfer.direction === 'onramp' ? presentOnrampTransfer(transfer, quote) : presentOfframpTransfer(transfer, quote);
}

/**
 * The off-ramp quote response: the quote, and the transfer it created when it named a destination
 * (as `POST …/offramp-transfer/quote/{quote_id}` answers it: the response that creates the
 * transfer is the one that shows the payout account in full), else `transfer: null`.
 */
export function presentOfframpQuote(quote: QuoteRow, transfer: TransferRow | null, destination: BankAccountDetails | null) {
  return { ...presentQuote(quote, transfer?.id ?? null), transfer: transfer ? presentOfframpTransfer(transfer, quote, destination) : null };
}
