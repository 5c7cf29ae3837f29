import { z } from 'zod';
import { FIAT_CURRENCIES, NETWORKS, PAYMENT_RAILS, SCALE, TOKENS, positiveAmountSchema } from '../../domain/money.js';
import { TRANSACTION_HASH_SCHEMA } from '../../domain/identifiers/chain.js';

/** Decimal places of every fiat currency (all three have 2). */
const FIAT_SCALE = Math.max(...FIAT_CURRENCIES.map((c) => SCALE[c]));
import { TRANSFER_PURPOSES } from '../../domain/transfer-purpose.js';
import { TRANSFER_STATUSES } from '../../domain/transfer-status.js';
import { amountAnswer, named, timestampAnswer, uuidAnswer } from '../../rest/openapi/schemas.js';
import { BankAccountBody, BankAccountDetailsAnswer } from '../bank-accounts/rest-bodies.js';
import {
  type DestinationFields,
  type OfframpDeposit,
  type OfframpDestination,
  type OfframpQuoteRequest,
  type OnrampQuoteRequest,
  type OnrampTransferRequest,
  type QuoteFields,
  SIMULATE_ACTIONS,
  type SimulatedStep,
  type SimulatedVirtualAccountDeposit,
  amount,
  amountOnlyWithDeposit,
  depositAddress,
  exactlyOneDestination,
  failureReason,
  feePercent,
  quoteAmounts,
  railsOfCurrency,
  railsReachInlineAccount,
  transactionHash,
} from './inputs.js';

/**
 * The REST transfer bodies (on-ramp, off-ramp and the sandbox extensions), snake_case, with the
 * domain's rules in the body's spelling, and their mappings to the use cases' inputs. Every body
 * field is the domain's snake-cased, so a use case's pointers come back through withRestPointers
 * with no renames (`/destinationBankAccount/iban/ibanNumber` → `/destination_bank_account/iban/iban_number`).
 */

const amounts = { source: 'source_amount', destination: 'destination_amount' };
const ONRAMP_QUOTE: QuoteFields = {
  amounts,
  sourceAsset: 'source_currency',
  destinationAsset: 'destination_token',
  currency: 'source_currency',
  rails: 'source_payment_rails',
};
const OFFRAMP_QUOTE: QuoteFields = {
  amounts,
  sourceAsset: 'source_token',
  destinationAsset: 'destination_currency',
  currency: 'destination_currency',
  rails: 'destination_payment_rails',
};
const DESTINATION: DestinationFields = {
  externalAccountId: 'destination_external_account_id',
  bankAccount: 'destination_bank_account',
  purpose: 'transfer_purpose',
  rails: 'destination_payment_rails',
  accountType: 'account_type',
  ibanNumber: 'iban_number',
};

export const OnrampQuoteBody = z
  .strictObject({
    source_amount: amount.optional(),
    destination_amount: amount.optional(),
    source_currency: z.enum(FIAT_CURRENCIES),
    source_payment_rails: z.enum(PAYMENT_RAILS),
    destination_token: z.enum(TOKENS),
    destination_network: z.enum(NETWORKS),
    developer_fee_percent: feePercent.optional(),
  })
  .check(railsOfCurrency(ONRAMP_QUOTE), quoteAmounts(ONRAMP_QUOTE))
  .transform(
    (b): OnrampQuoteRequest => ({
      sourceAmount: b.source_amount,
      destinationAmount: b.destination_amount,
      sourceCurrency: b.source_currency,
      sourcePaymentRails: b.source_payment_rails,
      destinationToken: b.destination_token,
      destinationNetwork: b.destination_network,
      developerFeePercent: b.developer_fee_percent,
    }),
  );

export const OnrampTransferBody = z
  .strictObject({
    destination_address: depositAddress.meta({
      examples: ['0x70997970c51812dc3a010c7d01b50e0d17dc79c8'],
      'x-ramp-checks': "an address of the quote's network (pattern and checksum per network: see the faucet's and virtual accounts' schemas)",
    }),
  })
  .transform((b): OnrampTransferRequest => ({ destinationAddress: b.destination_address }));

const destinationFields = {
  destination_external_account_id: z.string().max(64).optional().meta({
    'x-ramp-checks':
      "one of the customer's external accounts, of a type the payout rails pay into and, for sepa and uaefts, in their countries (account_type_not_supported, account_not_reachable_by_rails)",
  }),
  destination_bank_account: BankAccountBody.optional(),
  transfer_purpose: z.enum(TRANSFER_PURPOSES).optional(),
};

const destinationOf = (b: Partial<z.output<z.ZodObject<typeof destinationFields>>>): OfframpDestination => ({
  destinationExternalAccountId: b.destination_external_account_id,
  destinationBankAccount: b.destination_bank_account,
  transferPurpose: b.transfer_purpose,
});

export const OfframpQuoteBody = z
  .strictObject({
    source_amount: amount.optional(),
    destination_amount: amount.optional(),
    source_token: z.enum(TOKENS),
    source_network: z.enum(NETWORKS),
    destination_currency: z.enum(FIAT_CURRENCIES),
    destination_payment_rails: z.enum(PAYMENT_RAILS),
    developer_fee_percent: feePercent.optional(),
    ...destinationFields,
  })
  .check(railsOfCurrency(OFFRAMP_QUOTE), quoteAmounts(OFFRAMP_QUOTE), exactlyOneDestination(DESTINATION, false), railsReachInlineAccount(DESTINATION))
  .transform(
    (b): OfframpQuoteRequest => ({
      sourceAmount: b.source_amount,
      destinationAmount: b.destination_amount,
      sourceToken: b.source_token,
      sourceNetwork: b.source_network,
      destinationCurrency: b.destination_currency,
      destinationPaymentRails: b.destination_payment_rails,
      developerFeePercent: b.developer_fee_percent,
      ...destinationOf(b),
    }),
  );

/**
 * The quote's transfer: its rails are the stored quote's, so which accounts they pay into (the rule the quote's body states
 * with if/then on destination_payment_rails) is declared here in words.
 */
export const OfframpTransferBody = z
  .strictObject({
    ...destinationFields,
    destination_bank_account: BankAccountBody.optional().meta({
      'x-ramp-checks':
        "an account the quote's rails pay into: ach and wire → us; sepa → iban of a SEPA country; uaefts → iban of AE; swift → iban or swift (account_type_not_supported, account_not_reachable_by_rails)",
    }),
  })
  .check(exactlyOneDestination(DESTINATION, true))
  .transform(destinationOf);

export const OfframpDepositBody = z
  .strictObject({ deposit_transaction_hash: transactionHash.meta(TRANSACTION_HASH_SCHEMA) })
  .transform((b): OfframpDeposit => ({ depositTransactionHash: b.deposit_transaction_hash }));

/**
 * Sandbox REST extension: `POST …/{direction}-transfer/simulate`. Each route offers only the deposit of its direction
 * (the document shows only what the route takes): an on-ramp's is fiat (`fiat_deposit`), an off-ramp's tokens on chain
 * (`crypto_deposit`); `amount` is that deposit's, in its currency or token.
 */
const simulateTransferBody = (otherDirectionsDeposit: 'fiat_deposit' | 'crypto_deposit') =>
  z
    .strictObject({
      action: z.enum(SIMULATE_ACTIONS).exclude([otherDirectionsDeposit]),
      transfer_id: z.string().max(64),
      reason: failureReason.optional(),
      amount: amount.optional(),
    })
    .check(amountOnlyWithDeposit)
    .transform((b): SimulatedStep => ({ action: b.action, transferId: b.transfer_id, reason: b.reason, amount: b.amount }));
export const SimulateOnrampTransferBody = simulateTransferBody('crypto_deposit');
export const SimulateOfframpTransferBody = simulateTransferBody('fiat_deposit');

/** Sandbox REST extension: `POST …/virtual-account/{virtual_account_id}/simulate` (fiat arrives on it). */
export const SimulateVirtualAccountDepositBody = z
  // Every virtual account holds a 2-decimal currency (USD, EUR, AED), so the deposit's decimals are stated here.
  .strictObject({ action: z.literal('fiat_deposit'), amount: amount.meta(positiveAmountSchema(FIAT_SCALE)) })
  .transform((b): SimulatedVirtualAccountDeposit => ({ amount: b.amount }));

// ——— Answers (the OpenAPI document's response schemas; presenters.ts builds them) ———

const money = amountAnswer;
const FeeBreakdownAnswer = named('FeeBreakdown', z.strictObject({ currency: z.string(), platform_fee: money(), developer_fee: money(), network_fee: money() }));
const priced = {
  source_amount: money(),
  destination_amount: money(),
  exchange_rate: z.string(),
  fee_amount: money(),
  fee_breakdown: FeeBreakdownAnswer,
};
const quoteCommon = {
  quote_id: uuidAnswer(),
  customer_id: uuidAnswer(),
  ...priced,
  developer_fee_percent: z.string(),
  expire_at: timestampAnswer(),
  created_at: timestampAnswer(),
  transfer_id: uuidAnswer().nullable(),
};

export const OnrampQuoteAnswer = named(
  'OnrampQuote',
  z.strictObject({
    ...quoteCommon,
    source_currency: z.enum(FIAT_CURRENCIES),
    source_payment_rails: z.enum(PAYMENT_RAILS).nullable(),
    destination_token: z.enum(TOKENS),
    destination_network: z.enum(NETWORKS).nullable(),
  }),
);

const OfframpQuoteFields = {
  ...quoteCommon,
  source_token: z.enum(TOKENS),
  source_network: z.enum(NETWORKS).nullable(),
  destination_currency: z.enum(FIAT_CURRENCIES),
  destination_payment_rails: z.enum(PAYMENT_RAILS).nullable(),
};

/** Ramp's collection account, or the customer's own virtual account, that the fiat goes to. */
const DepositBankAccountAnswer = named(
  'DepositBankAccount',
  z.strictObject({
    bank_name: z.string(),
    bank_address: z.string(),
    account_beneficiary_type: z.enum(['individual', 'business']),
    account_beneficiary_name: z.string(),
    account_type: z.enum(['iban', 'us', 'swift']),
    iban: z.strictObject({ bic: z.string(), iban_number: z.string() }).optional(),
    us: z.strictObject({ account_number: z.string(), routing_number: z.string() }).optional(),
    swift: z.strictObject({ bic: z.string(), account_number: z.string(), routing_number: z.string() }).optional(),
  }),
);

const lifecycle = {
  customer_id: uuidAnswer(),
  failure_reason: z.string().nullable(),
  deposit_expire_at: timestampAnswer(),
  confirmations: z.number().int().nullable().meta({
    description:
      "Ramp extension: blocks on top of the chain transaction (an off-ramp's deposit, an on-ramp's payout); null until seen, and on simulated networks",
  }),
  required_confirmations: z
    .number()
    .int()
    .nullable()
    .meta({ description: 'Ramp extension: what confirmations must reach before the deposit counts or the payout completes' }),
  created_at: timestampAnswer(),
  updated_at: timestampAnswer(),
};

/** An on-ramp transfer as the partner API shows it. */
export const OnrampTransferAnswer = named(
  'OnrampTransfer',
  z.strictObject({
    id: uuidAnswer(),
    status: z.enum(TRANSFER_STATUSES),
    amount: money(),
    source_currency: z.enum(FIAT_CURRENCIES),
    source_rails: z.enum(PAYMENT_RAILS).nullable(),
    destination_network: z.enum(NETWORKS).nullable(),
    destination_token: z.enum(TOKENS),
    destination_address: z.string().nullable(),
    destination_amount: money(),
    destination_transaction_hash: z.string().nullable(),
    virtual_account_id: uuidAnswer().nullable(),
    deposit_received_amount: money().nullable(),
    quote: z.strictObject({
      quote_id: uuidAnswer(),
      deposit_rails: z.enum(PAYMENT_RAILS).nullable(),
      deposit_currency: z.enum(FIAT_CURRENCIES),
      deposit_bank_account: DepositBankAccountAnswer.nullable(),
      deposit_amount: money(),
      deposit_message: z.string().nullable(),
      ...priced,
    }),
    ...lifecycle,
  }),
);

/** An off-ramp transfer: the payout account is masked except in the answer that creates the transfer. */
export const OfframpTransferAnswer = named(
  'OfframpTransfer',
  z.strictObject({
    id: uuidAnswer(),
    status: z.enum(TRANSFER_STATUSES),
    amount: money(),
    source_token: z.enum(TOKENS),
    source_network: z.enum(NETWORKS).nullable(),
    destination_currency: z.enum(FIAT_CURRENCIES),
    destination_payment_rails: z.enum(PAYMENT_RAILS).nullable(),
    destination_amount: money(),
    transfer_purpose: z.enum(TRANSFER_PURPOSES).nullable(),
    destination_external_account_id: uuidAnswer().nullable(),
    destination_bank_account: BankAccountDetailsAnswer.nullable(),
    quote: z.strictObject({
      quote_id: uuidAnswer(),
      deposit_network: z.enum(NETWORKS).nullable(),
      deposit_token: z.enum(TOKENS),
      deposit_blockchain_address: z.string().nullable(),
      deposit_amount: money(),
      ...priced,
      deposit_transaction_hash: z.string().nullable(),
    }),
    uetr: uuidAnswer().nullable(),
    ...lifecycle,
  }),
);

export const TransferAnswer = z.union([OnrampTransferAnswer, OfframpTransferAnswer]);

/** The off-ramp quote, and the transfer it made when it named a destination (else `transfer: null`). */
export const OfframpQuoteAnswer = named('OfframpQuote', z.strictObject({ ...OfframpQuoteFields, transfer: OfframpTransferAnswer.nullable() }));
