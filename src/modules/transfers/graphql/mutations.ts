import { ConflictError, ForbiddenError, NotFoundError, UnprocessableError, ValidationError } from '../../../domain/errors.js';
import type { TransferPurpose } from '../../../domain/transfer-purpose.js';
import type { TransferRow } from '../queries.js';
import { undefinedIfNull, withoutNulls } from '../../../graphql/types/arguments.js';
import { builder } from '../../../graphql/builder.js';
import { type GraphQLContext, scopeOf } from '../../../graphql/context.js';
import { BlockchainNetworkEnum, FiatCurrencyEnum, PaymentRailsEnum, StablecoinEnum } from '../../../graphql/types/enums.js';
import { withInputPaths } from '../../../graphql/types/errors.js';
import { creatingMutation } from '../../../graphql/types/idempotency.js';
import { databaseIdOf, optionalDatabaseIdOf } from '../../../graphql/types/node.js';
import { idempotencyKeyField, payloadOf } from '../../../graphql/types/payload.js';
import { BankAccountInputRef } from '../../bank-accounts/graphql.js';
import type { Scope } from '../../../platform/use-cases/scope.js';
import { quoteIdOf, transferIdOf } from './ids.js';
import { QuoteRef, TransferPurposeEnum, TransferRef, transferNode } from './types.js';

/**
 * Each mutation takes one `input`. Apart from the ids (global ids or databaseIds, mapped here)
 * and idempotencyKey, the inputs are the use cases' own (transfers/inputs.ts), so they go as they
 * are: validated by the same rules as REST bodies, failing with the same codes, their field
 * errors' paths pointing into `input`.
 */

type InputFields = Parameters<Parameters<typeof builder.inputType>[1]['fields']>[0];

/** What both quotes ask first: whose quote, and by which end it is priced. */
const quotedFields = (t: InputFields) => ({
  customerId: t.id({ required: true, description: 'The KYC-approved customer the quote is for (global id or databaseId)' }),
  sourceAmount: t.field({ type: 'Decimal', description: 'Quote by source: what the customer pays in, fees included (2 decimals for fiat, 6 for tokens)' }),
  destinationAmount: t.field({
    type: 'Decimal',
    description: 'Quote by destination: what the customer must receive; the quote finds the smallest source amount that delivers it',
  }),
});

const developerFeeField = (t: InputFields) =>
  t.field({
    type: 'Decimal',
    description: 'Your developer fee in percent of the source amount, e.g. "1" for 1 % (0 to 100, at most 8 decimal places); 0 when omitted',
  });

const CreateOnrampQuoteInputRef = builder.inputType('CreateOnrampQuoteInput', {
  description: 'Exactly one of sourceAmount and destinationAmount',
  fields: (t) => ({
    ...quotedFields(t),
    sourceCurrency: t.field({ type: FiatCurrencyEnum, required: true, description: 'The fiat currency the customer pays in' }),
    sourcePaymentRails: t.field({
      type: PaymentRailsEnum,
      required: true,
      description: 'The rail the fiat comes in on; it must belong to the currency (USD: ACH, WIRE, SWIFT; EUR: SEPA, SWIFT; AED: UAEFTS, SWIFT)',
    }),
    destinationToken: t.field({ type: StablecoinEnum, required: true, description: 'The stablecoin to deliver' }),
    destinationNetwork: t.field({ type: BlockchainNetworkEnum, required: true, description: 'The chain to deliver it on' }),
    developerFeePercent: developerFeeField(t),
    idempotencyKey: idempotencyKeyField(t),
  }),
});

const CreateOfframpQuoteInputRef = builder.inputType('CreateOfframpQuoteInput', {
  description: 'Exactly one of sourceAmount and destinationAmount; with a destination and a transferPurpose the transfer is created too (Quote.transfer)',
  fields: (t) => ({
    ...quotedFields(t),
    sourceToken: t.field({ type: StablecoinEnum, required: true, description: 'The stablecoin the customer sends' }),
    sourceNetwork: t.field({ type: BlockchainNetworkEnum, required: true, description: 'The chain the customer sends it on' }),
    destinationCurrency: t.field({ type: FiatCurrencyEnum, required: true, description: 'The fiat currency to pay out' }),
    destinationPaymentRails: t.field({
      type: PaymentRailsEnum,
      required: true,
      description:
        'The rail to pay out on; it must belong to the currency and reach the payout account (ACH/WIRE: US accounts; SEPA, UAEFTS: IBANs; SWIFT: either)',
    }),
    developerFeePercent: developerFeeField(t),
    destinationExternalAccountId: t.id({ description: "One of the customer's registered bank accounts (global id or databaseId)" }),
    destinationBankAccount: t.field({ type: BankAccountInputRef, description: 'A bank account given inline (not with destinationExternalAccountId)' }),
    transferPurpose: t.field({ type: TransferPurposeEnum, description: 'Why the payout is made; with a destination it creates the transfer at once' }),
    idempotencyKey: idempotencyKeyField(t),
  }),
});

const CreateOnrampTransferInputRef = builder.inputType('CreateOnrampTransferInput', {
  description: 'An on-ramp transfer from a quote: where the tokens go',
  fields: (t) => ({
    quoteId: t.id({ required: true, description: 'An unused, unexpired on-ramp quote (global id or databaseId); it names the customer' }),
    destinationAddress: t.string({ required: true, description: "Where the tokens go: an address on the quote's destinationNetwork" }),
    idempotencyKey: idempotencyKeyField(t),
  }),
});

const CreateOfframpTransferInputRef = builder.inputType('CreateOfframpTransferInput', {
  description: 'A registered external account or an inline one (not both), and the purpose',
  fields: (t) => ({
    quoteId: t.id({ required: true, description: 'An unused, unexpired off-ramp quote (global id or databaseId); it names the customer' }),
    destinationExternalAccountId: t.id({ description: "One of the customer's registered bank accounts (global id or databaseId)" }),
    destinationBankAccount: t.field({ type: BankAccountInputRef, description: 'A bank account given inline (not with destinationExternalAccountId)' }),
    transferPurpose: t.field({ type: TransferPurposeEnum, required: true, description: 'Why the payout is made' }),
    idempotencyKey: idempotencyKeyField(t),
  }),
});

const CompleteOfframpTransferInputRef = builder.inputType('CompleteOfframpTransferInput', {
  description: "The customer's deposit transaction for a pending off-ramp: Ramp verifies it on chain",
  fields: (t) => ({
    transferId: t.id({ required: true, description: 'A pending off-ramp transfer (global id or databaseId)' }),
    depositTransactionHash: t.string({ required: true, description: "The customer's token deposit, on the quote's sourceNetwork" }),
    idempotencyKey: idempotencyKeyField(t),
  }),
});

/** A transfer named by global id (either type) or databaseId. */
const TransferIdInput = (name: string, description?: string) =>
  builder.inputType(name, {
    description: 'The transfer the mutation acts on',
    fields: (t) => ({ transferId: t.id({ required: true, description: description ?? 'The transfer (global id or databaseId)' }) }),
  });

const CancelTransferInputRef = TransferIdInput('CancelTransferInput', 'A pending transfer (global id or databaseId)');
const SimulateTransferSettlementInputRef = TransferIdInput('SimulateTransferSettlementInput', 'A processing transfer (global id or databaseId)');
const SimulateTransferRefundInputRef = TransferIdInput('SimulateTransferRefundInput', 'A processing or failed transfer that received funds');

const SimulateFiatDepositInputRef = builder.inputType('SimulateFiatDepositInput', {
  description: 'A sandbox fiat deposit to a pending on-ramp transfer',
  fields: (t) => ({
    transferId: t.id({ required: true, description: 'A pending on-ramp transfer (global id or databaseId)' }),
    amount: t.field({ type: 'Decimal', description: 'What arrives, in the source currency; the deposit amount when omitted' }),
  }),
});

const SimulateCryptoDepositInputRef = builder.inputType('SimulateCryptoDepositInput', {
  description: 'A sandbox token deposit to a pending off-ramp transfer',
  fields: (t) => ({
    transferId: t.id({ required: true, description: 'A pending off-ramp transfer (global id or databaseId)' }),
    amount: t.field({ type: 'Decimal', description: 'What the customer sends, in the source token; the deposit amount when omitted' }),
  }),
});

const SimulateTransferFailureInputRef = builder.inputType('SimulateTransferFailureInput', {
  description: 'A sandbox failure of a transfer',
  fields: (t) => ({
    transferId: t.id({ required: true, description: 'A pending or processing transfer (global id or databaseId)' }),
    reason: t.string({ description: 'Recorded as failureReason; simulated_failure when omitted' }),
  }),
});

const SimulateVirtualAccountDepositInputRef = builder.inputType('SimulateVirtualAccountDepositInput', {
  description: 'A sandbox fiat deposit to a virtual account (it becomes an on-ramp transfer)',
  fields: (t) => ({
    virtualAccountId: t.id({ required: true, description: 'An active virtual account with a destination (global id or databaseId)' }),
    amount: t.field({ type: 'Decimal', required: true, description: "What arrives, in the account's currency" }),
  }),
});

/** An off-ramp destination as the use case takes it: the registered account's id as its databaseId. */
function destinationOf(input: {
  destinationExternalAccountId?: string | number | null;
  destinationBankAccount?: typeof BankAccountInputRef.$inferInput | null;
  transferPurpose?: TransferPurpose | null;
}) {
  return {
    destinationExternalAccountId: optionalDatabaseIdOf(input.destinationExternalAccountId, 'BankAccount'),
    destinationBankAccount: withoutNulls(input.destinationBankAccount ?? undefined),
    transferPurpose: undefinedIfNull(input.transferPurpose),
  };
}

const customerIdOf = (id: string | number) => databaseIdOf(id, 'Customer');
const loadQuote = (id: string, scope: Scope, { services }: GraphQLContext) => services.transfers.getQuote(scope, id);
const loadTransfer = (id: string, scope: Scope, { services }: GraphQLContext) => services.transfers.get(scope, id);

/** A mutation that makes or moves a transfer answers the transfer's node (its GraphQL types resolve from one), a replay's too. */
const answeredAsNode =
  <A extends unknown[]>(resolve: (...args: A) => Promise<TransferRow>) =>
  async (...args: A) =>
    transferNode({ transfer: await resolve(...args) });

/** What a creating mutation can always return: bad input, and idempotency's in-use (409) and reused (422). */
const CREATING = [ValidationError, ConflictError, UnprocessableError] as const;
/** What a sandbox step on a transfer can return: unknown transfer, production key, a move the state machine refuses. */
const SANDBOX_STEP = [NotFoundError, ForbiddenError, ConflictError] as const;

builder.mutationFields((t) => ({
  createOnrampQuote: t.field({
    keyScope: 'write',
    type: QuoteRef,
    description:
      'Prices fiat in, a stablecoin out for a KYC-approved customer (UnprocessableError kyc_not_approved, amount_out_of_range, token_not_offered_on_network when the network does not offer the token: see networks). The quote is valid until expiresAt.',
    errors: payloadOf('CreateOnrampQuote', 'quote', [...CREATING, NotFoundError]),
    args: {
      input: t.arg({ type: CreateOnrampQuoteInputRef, required: true, description: 'What to do, as one input object (ValidationError paths point into it)' }),
    },
    resolve: creatingMutation({
      run: ({ customerId, ...request }, scope, { services }) => services.transfers.createOnrampQuote(scope, customerIdOf(customerId), withoutNulls(request)),
      load: loadQuote,
    }),
  }),

  createOnrampTransfer: t.field({
    keyScope: 'write',
    type: TransferRef,
    description:
      "A pending on-ramp transfer from a quote, with deposit instructions; the quote's customer is the transfer's, and the quote is used once (UnprocessableError quote_used, quote_expired). ForbiddenError rails_not_connected in production, where no bank is connected yet.",
    errors: payloadOf('CreateOnrampTransfer', 'transfer', [...CREATING, NotFoundError, ForbiddenError]),
    args: {
      input: t.arg({
        type: CreateOnrampTransferInputRef,
        required: true,
        description: 'What to do, as one input object (ValidationError paths point into it)',
      }),
    },
    resolve: answeredAsNode(
      creatingMutation({
        run: ({ quoteId, ...request }, scope, { services }) => services.transfers.createOnrampTransfer(scope, undefined, quoteIdOf(quoteId), request),
        answer: ({ transfer }) => transfer,
        load: loadTransfer,
      }),
    ),
  }),

  createOfframpQuote: t.field({
    keyScope: 'write',
    type: QuoteRef,
    description:
      'Prices a stablecoin in, fiat out; with a destination and transferPurpose its pending transfer is created too (Quote.transfer; ForbiddenError rails_not_connected in production on a network that is not LIVE there; UnprocessableError token_not_offered_on_network on a pair the network does not offer, see networks).',
    errors: payloadOf('CreateOfframpQuote', 'quote', [...CREATING, NotFoundError, ForbiddenError]),
    args: {
      input: t.arg({ type: CreateOfframpQuoteInputRef, required: true, description: 'What to do, as one input object (ValidationError paths point into it)' }),
    },
    resolve: creatingMutation({
      run: ({ customerId, ...request }, scope, { services }) =>
        services.transfers.createOfframpQuote(scope, customerIdOf(customerId), { ...withoutNulls(request), ...destinationOf(request) }),
      answer: ({ quote }) => quote,
      load: loadQuote,
    }),
  }),

  createOfframpTransfer: t.field({
    keyScope: 'write',
    type: TransferRef,
    description:
      "The off-ramp transfer of a bare quote (Align's POST …/offramp-transfer/quote/{quote_id}); the quote's customer is the transfer's. ForbiddenError rails_not_connected in production on a network that is not LIVE there (see networks).",
    errors: payloadOf('CreateOfframpTransfer', 'transfer', [...CREATING, NotFoundError, ForbiddenError]),
    args: {
      input: t.arg({
        type: CreateOfframpTransferInputRef,
        required: true,
        description: 'What to do, as one input object (ValidationError paths point into it)',
      }),
    },
    resolve: answeredAsNode(
      creatingMutation({
        run: ({ quoteId, ...destination }, scope, { services }) =>
          services.transfers.createOfframpTransfer(scope, undefined, quoteIdOf(quoteId), destinationOf(destination)),
        answer: ({ transfer }) => transfer,
        load: loadTransfer,
      }),
    ),
  }),

  completeOfframpTransfer: t.field({
    keyScope: 'write',
    type: TransferRef,
    description:
      "The customer sent the tokens. On a live chain the hash is looked up: it must be a successful transaction paying at least the deposit amount of the quoted token to the deposit address (UnprocessableError deposit_transaction_not_found, deposit_transaction_failed, deposit_wrong_recipient, deposit_wrong_token, deposit_underpaid; the transfer stays PENDING). Confirmed: PENDING → PROCESSING; not yet: accepted, the transfer stays PENDING showing its confirmations until the network's count. On a simulated network only the form of the hash is checked (PENDING → PROCESSING). ConflictError transfer_transition_not_allowed from any other status, deposit_transaction_hash_used for a hash that funded another transfer; UnprocessableError transfer_expired.",
    errors: payloadOf('CompleteOfframpTransfer', 'transfer', [...CREATING, NotFoundError]),
    args: {
      input: t.arg({
        type: CompleteOfframpTransferInputRef,
        required: true,
        description: 'What to do, as one input object (ValidationError paths point into it)',
      }),
    },
    resolve: answeredAsNode(
      creatingMutation({
        run: ({ transferId, ...deposit }, scope, { services }) =>
          services.transfers.completeOfframpTransfer(scope, undefined, databaseIdOf(transferId, 'OfframpTransfer'), deposit),
        answer: ({ transfer }) => transfer,
        load: loadTransfer,
      }),
    ),
  }),

  cancelTransfer: t.field({
    keyScope: 'write',
    type: TransferRef,
    description: 'Calls off a pending transfer (ConflictError transfer_transition_not_allowed from any other status).',
    errors: payloadOf('CancelTransfer', 'transfer', [NotFoundError, ConflictError]),
    args: {
      input: t.arg({ type: CancelTransferInputRef, required: true, description: 'What to do, as one input object (ValidationError paths point into it)' }),
    },
    resolve: async (_, { input }, ctx) => {
      const { id, within } = transferIdOf(input.transferId);
      return transferNode(await ctx.services.transfers.cancel(scopeOf(ctx), id, within));
    },
  }),

  // ——— Sandbox settlement (ForbiddenError sandbox_only in production) ———
  simulateFiatDeposit: t.field({
    keyScope: 'simulate',
    type: TransferRef,
    description:
      'Sandbox: the fiat of an on-ramp transfer arrives, amount of it (the deposit amount when omitted). The deposit amount or more: PENDING → PROCESSING, any excess returned at once; less: PENDING → FAILED (underpaid), holding what arrived until refunded. UnprocessableError not_an_onramp_transfer, transfer_expired.',
    errors: payloadOf('SimulateFiatDeposit', 'transfer', [ValidationError, ...SANDBOX_STEP, UnprocessableError]),
    args: {
      input: t.arg({ type: SimulateFiatDepositInputRef, required: true, description: 'What to do, as one input object (ValidationError paths point into it)' }),
    },
    resolve: async (_, { input }, ctx) => {
      const { id, within } = transferIdOf(input.transferId);
      const deposit = { amount: undefinedIfNull(input.amount) };
      return transferNode(await withInputPaths(ctx.services.transfers.simulateFiatDeposit(scopeOf(ctx), id, deposit, within)));
    },
  }),
  simulateCryptoDeposit: t.field({
    keyScope: 'simulate',
    type: TransferRef,
    description:
      "Sandbox: an off-ramp's customer sends the tokens, amount of them (the deposit amount when omitted). On a live chain: a real token transfer from a faucet-funded wallet to the deposit address; the transfer stays PENDING until the watcher has seen the deposit confirmed. On a simulated network: at once, with a made-up hash (PENDING → PROCESSING; less than the deposit amount: PENDING → FAILED underpaid). UnprocessableError not_an_offramp_transfer, transfer_expired.",
    errors: payloadOf('SimulateCryptoDeposit', 'transfer', [ValidationError, ...SANDBOX_STEP, UnprocessableError]),
    args: {
      input: t.arg({
        type: SimulateCryptoDepositInputRef,
        required: true,
        description: 'What to do, as one input object (ValidationError paths point into it)',
      }),
    },
    resolve: async (_, { input }, ctx) => {
      const { id, within } = transferIdOf(input.transferId);
      const deposit = { amount: undefinedIfNull(input.amount) };
      return transferNode(await withInputPaths(ctx.services.transfers.simulateCryptoDeposit(scopeOf(ctx), id, deposit, within)));
    },
  }),
  simulateVirtualAccountDeposit: t.field({
    keyScope: 'simulate',
    type: TransferRef,
    description:
      'Sandbox: fiat arrives on an active virtual account, creating a funded on-ramp transfer to its destination (UnprocessableError virtual_account_not_active, virtual_account_has_no_destination, kyc_not_approved, token_not_offered_on_network).',
    errors: payloadOf('SimulateVirtualAccountDeposit', 'transfer', [ValidationError, NotFoundError, ForbiddenError, UnprocessableError]),
    args: {
      input: t.arg({
        type: SimulateVirtualAccountDepositInputRef,
        required: true,
        description: 'What to do, as one input object (ValidationError paths point into it)',
      }),
    },
    resolve: async (_, { input }, ctx) => {
      const virtualAccountId = databaseIdOf(input.virtualAccountId, 'VirtualAccount');
      return transferNode(await withInputPaths(ctx.services.transfers.simulateVirtualAccountDeposit(scopeOf(ctx), virtualAccountId, { amount: input.amount })));
    },
  }),
  simulateTransferSettlement: t.field({
    keyScope: 'simulate',
    type: TransferRef,
    description:
      "Sandbox: the payout leaves (PROCESSING → COMPLETED). On a live network the on-ramp's real payout is signed and stored with the settlement and sent right after it commits: the transfer stays PROCESSING with its destinationTransactionHash and completes once the payout has the confirmations (FAILED treasury_insufficient_funds when the treasury is short).",
    errors: payloadOf('SimulateTransferSettlement', 'transfer', SANDBOX_STEP),
    args: {
      input: t.arg({
        type: SimulateTransferSettlementInputRef,
        required: true,
        description: 'What to do, as one input object (ValidationError paths point into it)',
      }),
    },
    resolve: async (_, { input }, ctx) => {
      const { id, within } = transferIdOf(input.transferId);
      return transferNode(await ctx.services.transfers.simulateSettlement(scopeOf(ctx), id, within));
    },
  }),
  simulateTransferFailure: t.field({
    keyScope: 'simulate',
    type: TransferRef,
    description: 'Sandbox: the transfer fails (from PENDING or PROCESSING); deposited funds stay held until refunded.',
    errors: payloadOf('SimulateTransferFailure', 'transfer', [ValidationError, ...SANDBOX_STEP]),
    args: {
      input: t.arg({
        type: SimulateTransferFailureInputRef,
        required: true,
        description: 'What to do, as one input object (ValidationError paths point into it)',
      }),
    },
    resolve: async (_, { input }, ctx) => {
      const { id, within } = transferIdOf(input.transferId);
      return transferNode(await withInputPaths(ctx.services.transfers.simulateFailure(scopeOf(ctx), id, undefinedIfNull(input.reason), within)));
    },
  }),
  simulateTransferRefund: t.field({
    keyScope: 'simulate',
    type: TransferRef,
    description:
      "Sandbox: the deposit goes back to the customer (PROCESSING or FAILED → REFUNDED). Under SANDBOX_BANK=iso20022 an on-ramp's fiat goes back as a pain.001 to the customer's newest external account that takes its rails: the transfer is FAILED (refund_requested) until the bank's pain.002 accepts the refund, then REFUNDED; UnprocessableError refund_account_missing when the customer has no such account.",
    errors: payloadOf('SimulateTransferRefund', 'transfer', [...SANDBOX_STEP, UnprocessableError]),
    args: {
      input: t.arg({
        type: SimulateTransferRefundInputRef,
        required: true,
        description: 'What to do, as one input object (ValidationError paths point into it)',
      }),
    },
    resolve: async (_, { input }, ctx) => {
      const { id, within } = transferIdOf(input.transferId);
      return transferNode(await ctx.services.transfers.simulateRefund(scopeOf(ctx), id, within));
    },
  }),
}));
