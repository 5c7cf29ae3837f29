import { z } from 'zod';
import { type Asset, FIAT_CURRENCIES, NETWORKS, PAYMENT_RAILS, RAILS_OF_CURRENCY, SCALE, TOKENS } from '../../domain/money.js';
import { amountProblem, developerFeePercentProblem, quoteSideProblems } from '../../domain/pricing.js';
import { TRANSFER_DIRECTIONS, TRANSFER_STATUSES } from '../../domain/transfer-status.js';
import { TRANSFER_PURPOSES } from '../../domain/transfer-purpose.js';
import { acrossFields, isOneOf, refusing } from '../../domain/validation.js';
import { BANK_ACCOUNT_TYPES } from '../bank-accounts/inputs.js';
import { BankAccountBody } from '../bank-accounts/rest-bodies.js';
import { payoutProblem } from './payout-rails.js';

// Amounts stay strings; the pricing domain checks their form, sign and scale per asset (quoteAmounts).
const amount = z.string().max(40);
const feePercent = z.string().superRefine(refusing(developerFeePercentProblem));

const isAsset = (value: unknown): value is Asset => typeof value === 'string' && Object.hasOwn(SCALE, value);

/** Rails must be ones the currency moves on (usd: ach/wire/swift, eur: sepa/swift, aed: uaefts/swift). */
const railsOfCurrency = (currencyField: string, railsField: string) =>
  acrossFields((body, report) => {
    const currency = body[currencyField];
    const rails = body[railsField];
    if (isOneOf(FIAT_CURRENCIES, currency) && isOneOf(PAYMENT_RAILS, rails) && !RAILS_OF_CURRENCY[currency].includes(rails)) {
      report(railsField, 'unsupported_rails', `${currency} moves on ${RAILS_OF_CURRENCY[currency].join(', ')}`);
    }
  });

/** Exactly one of the amounts, each right for its asset (the pricing domain's rules), whatever else failed. */
const quoteAmounts = (assetFields: { source: string; destination: string }) =>
  acrossFields((body, report) => {
    const given = { source: body.source_amount !== undefined, destination: body.destination_amount !== undefined };
    for (const e of quoteSideProblems(given)) report(e.pointer.slice(1), e.code, e.detail);
    for (const side of ['source', 'destination'] as const) {
      const text = body[`${side}_amount`];
      const asset = body[assetFields[side]];
      const problem = typeof text === 'string' && text.length <= 40 ? amountProblem(text, isAsset(asset) ? asset : undefined) : null;
      if (problem) report(`${side}_amount`, problem.code, problem.detail);
    }
  });

/** Spec §4.4 Create Quote: exactly one of the amounts. */
export const OnrampQuoteInput = z
  .strictObject({
    source_amount: amount.optional(),
    destination_amount: amount.optional(),
    source_currency: z.enum(FIAT_CURRENCIES),
    source_payment_rails: z.enum(PAYMENT_RAILS),
    destination_token: z.enum(TOKENS),
    destination_network: z.enum(NETWORKS),
    developer_fee_percent: feePercent.optional(),
  })
  .check(railsOfCurrency('source_currency', 'source_payment_rails'), quoteAmounts({ source: 'source_currency', destination: 'destination_token' }));

export const OnrampTransferInput = z.strictObject({
  destination_address: z.string().trim().min(1).max(128),
});

/**
 * Where an off-ramp pays out: a registered external account, or the account inline (the shape
 * of spec §2.2, the bank-accounts module's). Never both.
 */
const destinationFields = {
  destination_external_account_id: z.string().max(64).optional(),
  destination_bank_account: BankAccountBody.optional(),
  transfer_purpose: z.enum(TRANSFER_PURPOSES).optional(),
};

const exactlyOneDestination = (required: boolean) =>
  acrossFields((body, report) => {
    const byId = body.destination_external_account_id !== undefined;
    const inline = body.destination_bank_account !== undefined;
    if (byId && inline) {
      report('destination_bank_account', 'mutually_exclusive', 'give destination_external_account_id or destination_bank_account, not both');
    }
    const named = byId || inline;
    if ((required || body.transfer_purpose !== undefined) && !named) {
      report('destination_external_account_id', 'required', 'is required (or destination_bank_account)');
    }
    if (named && body.transfer_purpose === undefined) report('transfer_purpose', 'required', 'is required with a destination');
  });

/** An inline account the quote's payout rails cannot reach, reported with the quote's other problems. */
const railsReachInlineAccount = acrossFields((body, report) => {
  const rails = body.destination_payment_rails;
  const account = body.destination_bank_account as { account_type?: unknown; iban?: { iban_number?: unknown } | null } | undefined;
  if (!isOneOf(PAYMENT_RAILS, rails) || typeof account !== 'object' || account === null || !isOneOf(BANK_ACCOUNT_TYPES, account.account_type)) return;
  const ibanNumber = account.iban?.iban_number;
  const problem = payoutProblem(rails, { accountType: account.account_type, ibanNumber: typeof ibanNumber === 'string' ? ibanNumber : undefined });
  if (problem) {
    const path = problem.field === 'account_type' ? ['destination_bank_account', 'account_type'] : ['destination_bank_account', 'iban', 'iban_number'];
    report(path, problem.code, problem.detail);
  }
});

/** Align's BySourceAmount / ByDestinationAmount; with a destination and purpose it also creates the transfer. */
export const OfframpQuoteInput = z
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
  .check(
    railsOfCurrency('destination_currency', 'destination_payment_rails'),
    quoteAmounts({ source: 'source_token', destination: 'destination_currency' }),
    exactlyOneDestination(false),
    railsReachInlineAccount,
  );

export const OfframpTransferInput = z.strictObject(destinationFields).check(exactlyOneDestination(true));
export type OfframpDestination = z.infer<typeof OfframpTransferInput>;

export const CompleteOfframpInput = z.strictObject({
  deposit_transaction_hash: z.string().trim().min(1).max(128),
});

/** GraphQL `transfers` filters. */
export const TransferFilterInput = z.strictObject({
  customerId: z.string().optional(),
  direction: z.enum(TRANSFER_DIRECTIONS).optional(),
  status: z.enum(TRANSFER_STATUSES).optional(),
  createdAfter: z.date().optional(),
  createdBefore: z.date().optional(),
});
export type TransferFilter = z.infer<typeof TransferFilterInput>;

/** Sandbox REST extension: `POST …/{onramp|offramp}-transfer/simulate`. */
export const SIMULATE_ACTIONS = ['fiat_deposit', 'complete_transfer', 'fail_transfer', 'refund_transfer'] as const;
export const SimulateTransferInput = z.strictObject({
  action: z.enum(SIMULATE_ACTIONS),
  transfer_id: z.string().max(64),
  reason: z.string().trim().min(1).max(500).optional(),
});

/** Sandbox REST extension: `POST …/virtual-account/{virtual_account_id}/simulate` (fiat arrives on it). */
export const SimulateVirtualAccountDepositInput = z.strictObject({
  action: z.literal('fiat_deposit'),
  amount: amount,
});

export const FailureReasonInput = z.string().trim().min(1, 'must not be empty').max(500);
