import { undefinedIfNull, withoutNulls } from '../../../graphql/arguments.js';
import { builder } from '../../../graphql/builder.js';
import { type GraphQLContext, scopeOf } from '../../../graphql/context.js';
import { MUTATION_ERRORS, withInputPaths } from '../../../graphql/errors.js';
import { idempotentMutation } from '../../../graphql/idempotency.js';
import type { TransferPurpose } from '../../../domain/transfer-purpose.js';
import { checkIdempotencyKey } from '../../../platform/idempotency.js';
import { BankAccountInputRef } from '../../bank-accounts/graphql.js';
import { BlockchainNetworkEnum, FiatCurrencyEnum, PaymentRailsEnum, StablecoinEnum } from '../../../graphql/enums.js';
import { QuoteRef, TransferPurposeEnum, TransferRef } from './types.js';

/**
 * The inputs are the use cases' own (transfers/inputs.ts), so they go as they are: validated by the
 * same rules as REST bodies, failing with the same codes, their field errors' paths the input's.
 */

const OnrampQuoteInputRef = builder.inputType('OnrampQuoteInput', {
  description: 'Exactly one of sourceAmount and destinationAmount',
  fields: (t) => ({
    sourceAmount: t.field({ type: 'Decimal' }),
    destinationAmount: t.field({ type: 'Decimal' }),
    sourceCurrency: t.field({ type: FiatCurrencyEnum, required: true }),
    sourcePaymentRails: t.field({ type: PaymentRailsEnum, required: true }),
    destinationToken: t.field({ type: StablecoinEnum, required: true }),
    destinationNetwork: t.field({ type: BlockchainNetworkEnum, required: true }),
    developerFeePercent: t.field({ type: 'Decimal' }),
  }),
});

const OfframpQuoteInputRef = builder.inputType('OfframpQuoteInput', {
  description: 'Exactly one of sourceAmount and destinationAmount; with a destination and a purpose the transfer is created too',
  fields: (t) => ({
    sourceAmount: t.field({ type: 'Decimal' }),
    destinationAmount: t.field({ type: 'Decimal' }),
    sourceToken: t.field({ type: StablecoinEnum, required: true }),
    sourceNetwork: t.field({ type: BlockchainNetworkEnum, required: true }),
    destinationCurrency: t.field({ type: FiatCurrencyEnum, required: true }),
    destinationPaymentRails: t.field({ type: PaymentRailsEnum, required: true }),
    developerFeePercent: t.field({ type: 'Decimal' }),
    destinationExternalAccountId: t.id(),
    destinationBankAccount: t.field({ type: BankAccountInputRef }),
    transferPurpose: t.field({ type: TransferPurposeEnum }),
  }),
});

const OfframpDestinationInputRef = builder.inputType('OfframpDestinationInput', {
  description: 'A registered external account or an inline one (not both), and the purpose',
  fields: (t) => ({
    destinationExternalAccountId: t.id(),
    destinationBankAccount: t.field({ type: BankAccountInputRef }),
    transferPurpose: t.field({ type: TransferPurposeEnum, required: true }),
  }),
});

/** An off-ramp destination as the use case takes it (an ID may arrive as a number). */
function destinationOf(input: {
  destinationExternalAccountId?: string | number | null;
  destinationBankAccount?: typeof BankAccountInputRef.$inferInput | null;
  transferPurpose?: TransferPurpose | null;
}) {
  const { destinationExternalAccountId: id, ...rest } = withoutNulls(input);
  return { ...rest, destinationExternalAccountId: id === undefined ? undefined : String(id) };
}

/** A mutation whose REST twin requires Idempotency-Key requires `idempotencyKey` too. */
const required = (key: string) => {
  checkIdempotencyKey(key, true);
  return key;
};

const loadTransfer = (ctx: GraphQLContext) => (id: string) => ctx.services.transfers.get(scopeOf(ctx), id);

builder.mutationFields((t) => ({
  createOnrampQuote: t.field({
    type: QuoteRef,
    errors: { types: MUTATION_ERRORS },
    args: { customerId: t.arg.id({ required: true }), input: t.arg({ type: OnrampQuoteInputRef, required: true }), idempotencyKey: t.arg.string() },
    resolve: (_, args, ctx) =>
      idempotentMutation(
        ctx,
        'createOnrampQuote',
        args,
        (em) => withInputPaths(ctx.services.transfers.createOnrampQuote({ ...scopeOf(ctx), em }, String(args.customerId), withoutNulls(args.input))),
        (id) => ctx.services.transfers.getQuote(scopeOf(ctx), id),
      ),
  }),

  createOnrampTransfer: t.field({
    type: TransferRef,
    description: 'A pending on-ramp transfer from a quote, with deposit instructions (the quote is used once).',
    errors: { types: MUTATION_ERRORS },
    args: {
      customerId: t.arg.id({ required: true }),
      quoteId: t.arg.id({ required: true }),
      destinationAddress: t.arg.string({ required: true }),
      idempotencyKey: t.arg.string(),
    },
    resolve: (_, args, ctx) =>
      idempotentMutation(
        ctx,
        'createOnrampTransfer',
        args,
        async (em) =>
          (
            await withInputPaths(
              ctx.services.transfers.createOnrampTransfer({ ...scopeOf(ctx), em }, String(args.customerId), String(args.quoteId), {
                destinationAddress: args.destinationAddress,
              }),
            )
          ).transfer,
        loadTransfer(ctx),
      ),
  }),

  createOfframpQuote: t.field({
    type: QuoteRef,
    description:
      'An off-ramp quote; with a destination and transferPurpose its transfer is created too (Quote.transfer). idempotencyKey is required, as in REST.',
    errors: { types: MUTATION_ERRORS },
    args: {
      customerId: t.arg.id({ required: true }),
      input: t.arg({ type: OfframpQuoteInputRef, required: true }),
      idempotencyKey: t.arg.string({ required: true }),
    },
    resolve: (_, args, ctx) => {
      required(args.idempotencyKey);
      const request = { ...withoutNulls(args.input), ...destinationOf(args.input) };
      return idempotentMutation(
        ctx,
        'createOfframpQuote',
        args,
        async (em) => (await withInputPaths(ctx.services.transfers.createOfframpQuote({ ...scopeOf(ctx), em }, String(args.customerId), request))).quote,
        (id) => ctx.services.transfers.getQuote(scopeOf(ctx), id),
      );
    },
  }),

  createOfframpTransfer: t.field({
    type: TransferRef,
    description: 'The off-ramp transfer of a bare quote (Align’s POST …/offramp-transfer/quote/{quote_id}).',
    errors: { types: MUTATION_ERRORS },
    args: {
      customerId: t.arg.id({ required: true }),
      quoteId: t.arg.id({ required: true }),
      input: t.arg({ type: OfframpDestinationInputRef, required: true }),
      idempotencyKey: t.arg.string(),
    },
    resolve: (_, args, ctx) =>
      idempotentMutation(
        ctx,
        'createOfframpTransfer',
        args,
        async (em) =>
          (
            await withInputPaths(
              ctx.services.transfers.createOfframpTransfer({ ...scopeOf(ctx), em }, String(args.customerId), String(args.quoteId), destinationOf(args.input)),
            )
          ).transfer,
        loadTransfer(ctx),
      ),
  }),

  completeOfframpTransfer: t.field({
    type: TransferRef,
    description: 'The customer sent the tokens: pending → processing. idempotencyKey is required, as in REST.',
    errors: { types: MUTATION_ERRORS },
    args: {
      customerId: t.arg.id({ required: true }),
      transferId: t.arg.id({ required: true }),
      depositTransactionHash: t.arg.string({ required: true }),
      idempotencyKey: t.arg.string({ required: true }),
    },
    resolve: (_, args, ctx) => {
      required(args.idempotencyKey);
      return idempotentMutation(
        ctx,
        'completeOfframpTransfer',
        args,
        async (em) =>
          (
            await withInputPaths(
              ctx.services.transfers.completeOfframpTransfer({ ...scopeOf(ctx), em }, String(args.customerId), String(args.transferId), {
                depositTransactionHash: args.depositTransactionHash,
              }),
            )
          ).transfer,
        loadTransfer(ctx),
      );
    },
  }),

  cancelTransfer: t.field({
    type: TransferRef,
    description: 'Calls off a pending transfer (ConflictError from any other status).',
    errors: { types: MUTATION_ERRORS },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_, { id }, ctx) => (await ctx.services.transfers.cancel(scopeOf(ctx), String(id))).transfer,
  }),

  // ——— Sandbox settlement (ForbiddenError in production) ———
  simulateFiatDeposit: t.field({
    type: TransferRef,
    description:
      'Sandbox: the fiat of an on-ramp transfer arrives, amount of it (the deposit amount when omitted). The deposit amount or more: pending → processing, any excess returned at once; less: pending → failed (underpaid), holding what arrived until refunded.',
    errors: { types: MUTATION_ERRORS },
    args: { transferId: t.arg.id({ required: true }), amount: t.arg({ type: 'Decimal' }) },
    resolve: async (_, { transferId, amount }, ctx) =>
      (await withInputPaths(ctx.services.transfers.simulateFiatDeposit(scopeOf(ctx), String(transferId), { amount: undefinedIfNull(amount) }))).transfer,
  }),
  simulateVirtualAccountDeposit: t.field({
    type: TransferRef,
    description: 'Sandbox: fiat arrives on an active virtual account, creating a funded on-ramp transfer to its destination.',
    errors: { types: MUTATION_ERRORS },
    args: { virtualAccountId: t.arg.id({ required: true }), amount: t.arg({ type: 'Decimal', required: true }) },
    resolve: async (_, { virtualAccountId, amount }, ctx) =>
      (await withInputPaths(ctx.services.transfers.simulateVirtualAccountDeposit(scopeOf(ctx), String(virtualAccountId), { amount }))).transfer,
  }),
  simulateTransferSettlement: t.field({
    type: TransferRef,
    description: 'Sandbox: the payout leaves (processing → completed).',
    errors: { types: MUTATION_ERRORS },
    args: { transferId: t.arg.id({ required: true }) },
    resolve: async (_, { transferId }, ctx) => (await ctx.services.transfers.simulateSettlement(scopeOf(ctx), String(transferId))).transfer,
  }),
  simulateTransferFailure: t.field({
    type: TransferRef,
    description: 'Sandbox: the transfer fails (from pending or processing); deposited funds stay held until refunded.',
    errors: { types: MUTATION_ERRORS },
    args: { transferId: t.arg.id({ required: true }), reason: t.arg.string({ required: true }) },
    resolve: async (_, { transferId, reason }, ctx) =>
      (await withInputPaths(ctx.services.transfers.simulateFailure(scopeOf(ctx), String(transferId), reason))).transfer,
  }),
  simulateTransferRefund: t.field({
    type: TransferRef,
    description: 'Sandbox: the deposit goes back to the customer (processing or failed → refunded).',
    errors: { types: MUTATION_ERRORS },
    args: { transferId: t.arg.id({ required: true }) },
    resolve: async (_, { transferId }, ctx) => (await ctx.services.transfers.simulateRefund(scopeOf(ctx), String(transferId))).transfer,
  }),
}));
