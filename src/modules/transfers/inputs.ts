import { z } from 'zod';
import {
  type Asset,
  FEE_PERCENT_PATTERN,
  FIAT_CURRENCIES,
  NETWORKS,
  PAYMENT_RAILS,
  RAILS_OF_CURRENCY,
  SCALE,
  TOKENS,
  positiveAmountSchema,
} from '../../domain/money.js';
import { SEPA_COUNTRIES, ibanCountry } from '../../domain/identifiers/bank.js';
import { type AmountFields, amountProblem, developerFeePercentProblem, quoteSideProblems } from '../../domain/pricing.js';
import { TRANSFER_DIRECTIONS, TRANSFER_STATUSES } from '../../domain/transfer-status.js';
import { TRANSFER_PURPOSES } from '../../domain/transfer-purpose.js';
import { type JsonSchema, acrossFields, exactlyOne, isOneOf, refusing, when, whenOneOf } from '../../domain/validation.js';
import { BANK_ACCOUNT_TYPES, IBAN_CHECKS, IBAN_EXAMPLES, NewBankAccount } from '../bank-accounts/inputs.js';
import { ACCOUNT_TYPES_OF_RAILS, payoutProblem } from './accounts/payout-rails.js';

/**
 * The transfers' use cases take these inputs: camelCase, in the domain's words. REST maps the
 * spec's snake_case bodies to them (rest-bodies.ts); GraphQL passes its inputs as they are. The
 * rules across fields are written once here, each face naming the fields in its own spelling.
 */

// Amounts stay strings; the pricing domain checks their form, sign and scale per asset (quoteAmounts).
export const amount = z.string().max(40).meta(positiveAmountSchema());
export const feePercent = z
  .string()
  .superRefine(refusing(developerFeePercentProblem))
  .meta({ pattern: FEE_PERCENT_PATTERN, examples: ['0.5'] });
export const depositAddress = z.string().trim().min(1, 'must not be empty').max(128);
export const transactionHash = z.string().trim().min(1, 'must not be empty').max(128);
export const failureReason = z.string().trim().min(1, 'must not be empty').max(500);

const isAsset = (value: unknown): value is Asset => typeof value === 'string' && Object.hasOwn(SCALE, value);

/** How one face spells the fields of a quote that the rules across fields read. */
export interface QuoteFields {
  amounts: AmountFields;
  /** The fields naming the asset of each side (a fiat currency or a token). */
  sourceAsset: string;
  destinationAsset: string;
  /** The fiat side's currency and rails. */
  currency: string;
  rails: string;
}

/** Rails must be ones the currency moves on (usd: ach/wire/swift, eur: sepa/swift, aed: uaefts/swift). */
export const railsOfCurrency = (f: QuoteFields) =>
  acrossFields(
    (body, report) => {
      const currency = body[f.currency];
      const rails = body[f.rails];
      if (isOneOf(FIAT_CURRENCIES, currency) && isOneOf(PAYMENT_RAILS, rails) && !RAILS_OF_CURRENCY[currency].includes(rails)) {
        report(f.rails, 'unsupported_rails', `${currency} moves on ${RAILS_OF_CURRENCY[currency].join(', ')}`);
      }
    },
    () => ({ allOf: FIAT_CURRENCIES.map((c) => whenOneOf(f.currency, [c], { properties: { [f.rails]: { enum: [...RAILS_OF_CURRENCY[c]] } } })) }),
  );

/** A positive decimal string with at most `scale` places (amountProblem's rule, for the document). */
const ASSETS = Object.keys(SCALE) as Asset[];
const ASSETS_BY_SCALE = [...new Set(Object.values(SCALE))].map((scale) => [scale, ASSETS.filter((asset) => SCALE[asset] === scale)] as const);

/** Exactly one of the amounts, each right for its asset (the pricing domain's rules), whatever else failed. */
export const quoteAmounts = (f: QuoteFields) =>
  acrossFields(
    (body, report) => {
      const given = { source: body[f.amounts.source] !== undefined, destination: body[f.amounts.destination] !== undefined };
      for (const e of quoteSideProblems(given, f.amounts)) report(e.pointer.slice(1), e.code, e.detail);
      for (const side of ['source', 'destination'] as const) {
        const text = body[f.amounts[side]];
        const asset = body[side === 'source' ? f.sourceAsset : f.destinationAsset];
        const problem = typeof text === 'string' && text.length <= 40 ? amountProblem(text, isAsset(asset) ? asset : undefined) : null;
        if (problem) report(f.amounts[side], problem.code, problem.detail);
      }
    },
    () => ({
      allOf: [
        exactlyOne(f.amounts.source, f.amounts.destination),
        ...(['source', 'destination'] as const).flatMap((side) =>
          ASSETS_BY_SCALE.map(([scale, assets]) =>
            whenOneOf(side === 'source' ? f.sourceAsset : f.destinationAsset, assets, { properties: { [f.amounts[side]]: positiveAmountSchema(scale) } }),
          ),
        ),
      ],
    }),
  );

const ONRAMP_QUOTE: QuoteFields = {
  amounts: { source: 'sourceAmount', destination: 'destinationAmount' },
  sourceAsset: 'sourceCurrency',
  destinationAsset: 'destinationToken',
  currency: 'sourceCurrency',
  rails: 'sourcePaymentRails',
};

/** An on-ramp quote: fiat in on some rails, a token out on some network; exactly one of the amounts. */
export const OnrampQuoteRequest = z
  .strictObject({
    sourceAmount: amount.optional(),
    destinationAmount: amount.optional(),
    sourceCurrency: z.enum(FIAT_CURRENCIES),
    sourcePaymentRails: z.enum(PAYMENT_RAILS),
    destinationToken: z.enum(TOKENS),
    destinationNetwork: z.enum(NETWORKS),
    developerFeePercent: feePercent.optional(),
  })
  .check(railsOfCurrency(ONRAMP_QUOTE), quoteAmounts(ONRAMP_QUOTE));
export type OnrampQuoteRequest = z.input<typeof OnrampQuoteRequest>;

/** The on-ramp transfer of a quote: where the tokens go (checked against the quote's network). */
export const OnrampTransferRequest = z.strictObject({ destinationAddress: depositAddress });
export type OnrampTransferRequest = z.input<typeof OnrampTransferRequest>;

/** How one face spells an off-ramp's destination fields and the inline account's fields the rails check. */
export interface DestinationFields {
  externalAccountId: string;
  bankAccount: string;
  purpose: string;
  /** The quote's payout rails (absent from a bare destination). */
  rails: string;
  accountType: string;
  ibanNumber: string;
}

/** Exactly one of a registered account or an inline one; a purpose goes with a destination. */
export const exactlyOneDestination = (f: DestinationFields, required: boolean) =>
  acrossFields(
    (body, report) => {
      const byId = body[f.externalAccountId] !== undefined;
      const inline = body[f.bankAccount] !== undefined;
      if (byId && inline) report(f.bankAccount, 'mutually_exclusive', `give ${f.externalAccountId} or ${f.bankAccount}, not both`);
      const named = byId || inline;
      if ((required || body[f.purpose] !== undefined) && !named) report(f.externalAccountId, 'required', `is required (or ${f.bankAccount})`);
      if (named && body[f.purpose] === undefined) report(f.purpose, 'required', 'is required with a destination');
    },
    () => ({
      allOf: [
        required ? exactlyOne(f.externalAccountId, f.bankAccount) : { not: { required: [f.externalAccountId, f.bankAccount] } },
        { dependentRequired: { [f.externalAccountId]: [f.purpose], [f.bankAccount]: [f.purpose] } },
        when({ required: [f.purpose] }, { anyOf: [{ required: [f.externalAccountId] }, { required: [f.bankAccount] }] }),
      ],
    }),
  );

/** An inline account the quote's payout rails cannot reach, reported with the quote's other problems. */
export const railsReachInlineAccount = (f: DestinationFields) =>
  acrossFields(
    (body, report) => {
      const rails = body[f.rails];
      const account = body[f.bankAccount] as Record<string, unknown> | undefined;
      if (!isOneOf(PAYMENT_RAILS, rails) || typeof account !== 'object' || account === null) return;
      const accountType = account[f.accountType];
      if (!isOneOf(BANK_ACCOUNT_TYPES, accountType)) return;
      const ibanNumber = (account.iban as Record<string, unknown> | null | undefined)?.[f.ibanNumber];
      const problem = payoutProblem(rails, { accountType, ibanNumber: typeof ibanNumber === 'string' ? ibanNumber : undefined });
      if (!problem) return;
      report(problem.field === 'accountType' ? [f.bankAccount, f.accountType] : [f.bankAccount, 'iban', f.ibanNumber], problem.code, problem.detail);
    },
    () => ({
      allOf: PAYMENT_RAILS.map((rails) => {
        const ibanCountries = IBAN_COUNTRIES_OF_RAILS[rails];
        const account: JsonSchema = {
          properties: {
            [f.accountType]: { enum: [...ACCOUNT_TYPES_OF_RAILS[rails]] },
            ...(ibanCountries && { iban: ibanOfCountries(f, ibanCountries) }),
          },
        };
        return whenOneOf(f.rails, [rails], { properties: { [f.bankAccount]: account } });
      }),
    }),
  );

/** The IBAN countries domestic rails reach (payoutProblem's rule, for the document). */
const IBAN_COUNTRIES_OF_RAILS: Partial<Record<(typeof PAYMENT_RAILS)[number], readonly string[]>> = { sepa: SEPA_COUNTRIES, uaefts: ['AE'] };

/**
 * IBAN details of these countries, for the document: the IBAN starts with one of their codes as
 * the rails read it (normalizeIban drops whitespace and upper-cases, so `d e89…` is a DE IBAN).
 * Its check digits are still nothing JSON Schema states, so the narrowed details carry their own
 * valid examples, those of these countries (a client generating values draws them from there).
 */
function ibanOfCountries(f: DestinationFields, countries: readonly string[]): JsonSchema {
  // Grouped by first letter, either case: [Dd]\s*[EKek] for DE and DK.
  const either = (letters: string) => `[${letters}${letters.toLowerCase()}]`;
  const firsts = [...new Set(countries.map((country) => country[0]!))];
  const secondsAfter = (first: string) => countries.flatMap((country) => (country[0] === first ? [country[1]!] : [])).join('');
  const codes = firsts.map((first) => `${either(first)}\\s*${either(secondsAfter(first))}`);
  const examples = IBAN_EXAMPLES.filter((e) => countries.includes(ibanCountry(e.ibanNumber))).map((e) => ({ bic: e.bic, [f.ibanNumber]: e.ibanNumber }));
  if (!examples.length) throw new Error(`no IBAN example of ${countries.join(', ')} for the document`);
  // `bic` is named too, so the examples are of this subschema alone (as linters read them).
  const properties = { bic: { type: 'string' }, [f.ibanNumber]: { pattern: `^\\s*(?:${codes.join('|')})` } };
  return { properties, examples, 'x-ramp-checks': IBAN_CHECKS };
}

const DESTINATION: DestinationFields = {
  externalAccountId: 'destinationExternalAccountId',
  bankAccount: 'destinationBankAccount',
  purpose: 'transferPurpose',
  rails: 'destinationPaymentRails',
  accountType: 'accountType',
  ibanNumber: 'ibanNumber',
};

/**
 * Where an off-ramp pays out: a registered external account of the customer, or a bank account
 * given inline (the bank-accounts module's NewBankAccount). Never both.
 */
const destinationFields = {
  destinationExternalAccountId: z.string().max(64).optional(),
  destinationBankAccount: NewBankAccount.optional(),
  transferPurpose: z.enum(TRANSFER_PURPOSES).optional(),
};

const OFFRAMP_QUOTE: QuoteFields = {
  amounts: { source: 'sourceAmount', destination: 'destinationAmount' },
  sourceAsset: 'sourceToken',
  destinationAsset: 'destinationCurrency',
  currency: 'destinationCurrency',
  rails: 'destinationPaymentRails',
};

/** Align's BySourceAmount / ByDestinationAmount; with a destination and purpose it also creates the transfer. */
export const OfframpQuoteRequest = z
  .strictObject({
    sourceAmount: amount.optional(),
    destinationAmount: amount.optional(),
    sourceToken: z.enum(TOKENS),
    sourceNetwork: z.enum(NETWORKS),
    destinationCurrency: z.enum(FIAT_CURRENCIES),
    destinationPaymentRails: z.enum(PAYMENT_RAILS),
    developerFeePercent: feePercent.optional(),
    ...destinationFields,
  })
  .check(railsOfCurrency(OFFRAMP_QUOTE), quoteAmounts(OFFRAMP_QUOTE), exactlyOneDestination(DESTINATION, false), railsReachInlineAccount(DESTINATION));
export type OfframpQuoteRequest = z.input<typeof OfframpQuoteRequest>;

/** The destination of a bare quote's off-ramp transfer. */
export const OfframpDestination = z.strictObject(destinationFields).check(exactlyOneDestination(DESTINATION, true));
export type OfframpDestination = z.input<typeof OfframpDestination>;
export type ValidOfframpDestination = z.output<typeof OfframpDestination>;

/** The customer sent the tokens: the deposit's transaction hash. */
export const OfframpDeposit = z.strictObject({ depositTransactionHash: transactionHash });
export type OfframpDeposit = z.input<typeof OfframpDeposit>;

/** GraphQL `transfers` filters. */
export const TransferFilter = z.strictObject({
  customerId: z.string().optional(),
  direction: z.enum(TRANSFER_DIRECTIONS).optional(),
  status: z.enum(TRANSFER_STATUSES).optional(),
  createdAfter: z.date().optional(),
  createdBefore: z.date().optional(),
});
export type TransferFilter = z.input<typeof TransferFilter>;

/** A sandbox step, named by action (the REST simulate extension's use case). */
export const SIMULATE_ACTIONS = ['fiat_deposit', 'crypto_deposit', 'complete_transfer', 'fail_transfer', 'refund_transfer'] as const;
/** Only a deposit has an amount. */
export const amountOnlyWithDeposit = acrossFields(
  (body, report) => {
    if (body.amount !== undefined && body.action !== 'fiat_deposit' && body.action !== 'crypto_deposit') {
      report('amount', 'not_allowed', 'is only allowed with the fiat_deposit and crypto_deposit actions');
    }
  },
  () => when({ required: ['amount'] }, { properties: { action: { enum: ['fiat_deposit', 'crypto_deposit'] } } }),
);
export const SimulatedStep = z
  .strictObject({
    action: z.enum(SIMULATE_ACTIONS),
    transferId: z.string().max(64),
    reason: failureReason.optional(),
    amount: amount.optional(),
  })
  .check(amountOnlyWithDeposit);
export type SimulatedStep = z.input<typeof SimulatedStep>;

/**
 * Sandbox: an on-ramp's fiat arrives, `amount` of it in the source currency (the deposit amount
 * when omitted; more or less simulates an overpayment or an underpayment).
 */
export const SimulatedFiatDeposit = z.strictObject({ amount: amount.optional() });
export type SimulatedFiatDeposit = z.input<typeof SimulatedFiatDeposit>;

/**
 * Sandbox: an off-ramp's customer sends the tokens, `amount` of them (the deposit amount when
 * omitted; more or less simulates an overpayment or an underpayment).
 */
export const SimulatedCryptoDeposit = z.strictObject({ amount: amount.optional() });
export type SimulatedCryptoDeposit = z.input<typeof SimulatedCryptoDeposit>;

/** Why a simulated failure failed (stored as the status change's reason). */
export const SimulatedFailure = z.strictObject({ reason: failureReason.optional() });

/** Sandbox: fiat arrives on a virtual account. */
export const SimulatedVirtualAccountDeposit = z.strictObject({ amount });
export type SimulatedVirtualAccountDeposit = z.input<typeof SimulatedVirtualAccountDeposit>;
