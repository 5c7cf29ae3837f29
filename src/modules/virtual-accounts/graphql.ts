import { FIAT_CURRENCIES, NETWORKS, TOKENS } from '../../domain/money.js';
import { withoutNulls } from '../../graphql/arguments.js';
import { builder } from '../../graphql/builder.js';
import { scopeOf } from '../../graphql/context.js';
import { MUTATION_ERRORS, nullIfNotFound, withInputPaths } from '../../graphql/errors.js';
import { idempotentMutation } from '../../graphql/idempotency.js';
import { CustomerRef } from '../customers/graphql.js';
import type { VirtualAccount } from './entities.js';
import { VIRTUAL_ACCOUNT_SOURCE_RAILS, VIRTUAL_ACCOUNT_STATUSES } from './inputs.js';
import type { DepositInstructions } from './issuance.js';
import { developerFeePercentOf } from './presenters.js';

// Prefixed names: other modules define their own currency/token/network enums.
const StatusEnum = builder.enumType('VirtualAccountStatus', { values: VIRTUAL_ACCOUNT_STATUSES });
const SourceCurrencyEnum = builder.enumType('VirtualAccountSourceCurrency', { values: FIAT_CURRENCIES });
const SourceRailsEnum = builder.enumType('VirtualAccountSourceRails', { values: VIRTUAL_ACCOUNT_SOURCE_RAILS });
const TokenEnum = builder.enumType('VirtualAccountDestinationToken', { values: TOKENS });
const NetworkEnum = builder.enumType('VirtualAccountDestinationNetwork', { values: NETWORKS });

const ibanOf = (i: DepositInstructions) => ('iban' in i ? i.iban : null);
const usOf = (i: DepositInstructions) => ('us' in i ? i.us : null);
const swiftOf = (i: DepositInstructions) => ('swift' in i ? i.swift : null);

const DepositInstructionsRef = builder.objectRef<DepositInstructions>('DepositInstructions').implement({
  description: 'Where the customer sends fiat: a bank account of the sandbox banking partner, issued to this virtual account.',
  fields: (t) => ({
    currency: t.exposeString('currency'),
    paymentRails: t.stringList({ resolve: (i) => i.payment_rails }),
    bankName: t.exposeString('bank_name'),
    bankAddress: t.exposeString('bank_address'),
    accountHolderName: t.exposeString('account_holder_name'),
    ibanNumber: t.string({ nullable: true, resolve: (i) => ibanOf(i)?.iban_number ?? null }),
    bic: t.string({ nullable: true, resolve: (i) => (ibanOf(i) ?? swiftOf(i))?.bic ?? null }),
    routingNumber: t.string({ nullable: true, resolve: (i) => (usOf(i) ?? swiftOf(i))?.routing_number ?? null }),
    accountNumber: t.string({ nullable: true, resolve: (i) => (usOf(i) ?? swiftOf(i))?.account_number ?? null }),
  }),
});

export const VirtualAccountRef = builder.objectRef<VirtualAccount>('VirtualAccount').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    customer: t.field({ type: CustomerRef, resolve: (a) => a.customerId }),
    status: t.field({ type: StatusEnum, resolve: (a) => a.status }),
    sourceCurrency: t.field({ type: SourceCurrencyEnum, resolve: (a) => a.sourceCurrency }),
    sourceRails: t.field({ type: SourceRailsEnum, nullable: true, resolve: (a) => a.sourceRails ?? null }),
    destinationToken: t.field({ type: TokenEnum, resolve: (a) => a.destinationToken }),
    destinationNetwork: t.field({ type: NetworkEnum, resolve: (a) => a.destinationNetwork }),
    destinationAddress: t.exposeString('destinationAddress', { nullable: true }),
    developerFeePercent: t.field({ type: 'Decimal', nullable: true, resolve: developerFeePercentOf }),
    depositInstructions: t.field({
      type: DepositInstructionsRef,
      nullable: true,
      description: 'Null while the account is pending',
      resolve: (a) => a.depositInstructions ?? null,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const CreateVirtualAccountInputRef = builder.inputType('CreateVirtualAccountInput', {
  fields: (t) => ({
    sourceCurrency: t.field({ type: SourceCurrencyEnum, required: true }),
    sourceRails: t.field({ type: SourceRailsEnum, description: 'swift, only for usd' }),
    destinationToken: t.field({ type: TokenEnum, description: 'usdc when omitted' }),
    destinationNetwork: t.field({ type: NetworkEnum, required: true }),
    destinationAddress: t.string({ description: 'Validated for destinationNetwork' }),
    developerFeePercent: t.string({ description: 'A non-negative decimal string, e.g. "0.5" (at most 100)' }),
  }),
});

builder.objectFields(CustomerRef, (t) => ({
  virtualAccounts: t.loadableGroup({
    type: VirtualAccountRef,
    description: "The customer's virtual accounts, oldest first",
    load: (customerIds: string[], ctx) => ctx.services.virtualAccounts.loadForCustomers(scopeOf(ctx), customerIds),
    group: (account) => account.customerId,
    resolve: (customer) => customer.id,
  }),
}));

builder.queryFields((t) => ({
  virtualAccount: t.field({
    type: VirtualAccountRef,
    nullable: true,
    description: "One of the caller's virtual accounts; null when unknown (or another partner's).",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_, { id }, ctx) => nullIfNotFound(ctx.services.virtualAccounts.get(scopeOf(ctx), String(id))),
  }),
}));

builder.mutationFields((t) => ({
  createVirtualAccount: t.field({
    type: VirtualAccountRef,
    description: 'Opens a virtual account: active with deposit instructions (usd, eur) or pending (aed, usd over swift).',
    errors: { types: MUTATION_ERRORS },
    args: {
      customerId: t.arg.id({ required: true }),
      input: t.arg({ type: CreateVirtualAccountInputRef, required: true }),
      idempotencyKey: t.arg.string(),
    },
    // The input is the use case's own (NewVirtualAccount): it goes as it is, and its errors' paths are the input's.
    resolve: (_, args, ctx) =>
      idempotentMutation(
        ctx,
        'createVirtualAccount',
        args,
        (em) => withInputPaths(ctx.services.virtualAccounts.create({ ...scopeOf(ctx), em }, String(args.customerId), withoutNulls(args.input))),
        (id) => ctx.services.virtualAccounts.get(scopeOf(ctx), id),
      ),
  }),
  simulateVirtualAccountIssuance: t.field({
    type: VirtualAccountRef,
    description: 'Sandbox only: the banking partner issues a pending virtual account (ForbiddenError in production).',
    errors: { types: MUTATION_ERRORS },
    args: { customerId: t.arg.id({ required: true }), virtualAccountId: t.arg.id({ required: true }) },
    resolve: (_, args, ctx) =>
      withInputPaths(ctx.services.virtualAccounts.issuePending(scopeOf(ctx), String(args.customerId), { virtualAccountId: String(args.virtualAccountId) })),
  }),
}));
