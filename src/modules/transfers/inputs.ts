import { z } from 'zod';
import { FIAT_CURRENCIES, NETWORKS, PAYMENT_RAILS, RAILS_OF_CURRENCY, TOKENS } from '../../domain/money.js';
import { TRANSFER_DIRECTIONS, TRANSFER_STATUSES } from '../../domain/transfer-status.js';
import { TRANSFER_PURPOSES } from '../../domain/transfer-purpose.js';

// Amounts stay strings here; the pricing domain checks their form, sign and scale per asset.
const amount = z.string().max(40);
const feePercent = z.string().max(20);

/** Rails must be ones the currency moves on (usd: ach/wire/swift, eur: sepa/swift, aed: uaefts/swift). */
function railsOfCurrency(currencyField: string, railsField: string) {
  return (value: Record<string, unknown>, ctx: z.RefinementCtx) => {
    const currency = value[currencyField] as keyof typeof RAILS_OF_CURRENCY;
    const rails = value[railsField] as (typeof PAYMENT_RAILS)[number];
    if (RAILS_OF_CURRENCY[currency] && !RAILS_OF_CURRENCY[currency].includes(rails)) {
      ctx.addIssue({
        code: 'custom',
        path: [railsField],
        message: `${currency} moves on ${RAILS_OF_CURRENCY[currency].join(', ')}`,
        params: { code: 'unsupported_rails' },
      });
    }
  };
}

/** Spec §4.4 Create Quote: exactly one of the amounts (checked by the pricing domain). */
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
  .superRefine(railsOfCurrency('source_currency', 'source_payment_rails'));
export type OnrampQuoteRequest = z.infer<typeof OnrampQuoteInput>;

export const OnrampTransferInput = z.strictObject({
  destination_address: z.string().trim().min(1).max(128),
});

/**
 * Where an off-ramp pays out: a registered external account, or the account inline (the shape
 * of spec §2.2, validated by the bank-accounts module). Never both.
 */
const destinationFields = {
  destination_external_account_id: z.string().max(64).optional(),
  destination_bank_account: z.record(z.string(), z.unknown()).optional(),
  transfer_purpose: z.enum(TRANSFER_PURPOSES).optional(),
};

function exactlyOneDestination(required: boolean) {
  return (value: { destination_external_account_id?: string; destination_bank_account?: object; transfer_purpose?: string }, ctx: z.RefinementCtx) => {
    const issue = (path: string, message: string, code: string) => ctx.addIssue({ code: 'custom', path: [path], message, params: { code } });
    const byId = value.destination_external_account_id !== undefined;
    const inline = value.destination_bank_account !== undefined;
    if (byId && inline) {
      issue('destination_bank_account', 'give destination_external_account_id or destination_bank_account, not both', 'mutually_exclusive');
    }
    const named = byId || inline;
    if ((required || value.transfer_purpose !== undefined) && !named) {
      issue('destination_external_account_id', 'is required (or destination_bank_account)', 'required');
    }
    if (named && value.transfer_purpose === undefined) issue('transfer_purpose', 'is required with a destination', 'required');
  };
}

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
  .superRefine(railsOfCurrency('destination_currency', 'destination_payment_rails'))
  .superRefine(exactlyOneDestination(false));
export type OfframpQuoteRequest = z.infer<typeof OfframpQuoteInput>;

export const OfframpTransferInput = z.strictObject(destinationFields).superRefine(exactlyOneDestination(true));
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
