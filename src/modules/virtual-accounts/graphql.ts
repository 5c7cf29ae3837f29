import { assertSandbox } from '../../domain/environment.js';
import { ConflictError, ForbiddenError, NotFoundError, UnprocessableError, ValidationError } from '../../domain/errors.js';
import { withoutNulls } from '../../graphql/types/arguments.js';
import { builder } from '../../graphql/builder.js';
import { snapshotRef } from '../events/snapshots.js';
import { connectionFieldOptions, nodeConnection, ownPosition, resolveKeysetPage } from '../../graphql/types/connection.js';
import { scopeOf } from '../../graphql/context.js';
import { BlockchainNetworkEnum, domainEnum, FiatCurrencyEnum, PaymentRailsEnum, StablecoinEnum } from '../../graphql/types/enums.js';
import { nullIfNotFound, withInputPaths } from '../../graphql/types/errors.js';
import { creatingMutation } from '../../graphql/types/idempotency.js';
import { databaseIdOf } from '../../graphql/types/node.js';
import { idempotencyKeyField, payloadOf } from '../../graphql/types/payload.js';
import { CustomerRef } from '../customers/graphql.js';
import type { VirtualAccountRow } from './queries.js';
import { VIRTUAL_ACCOUNT_SOURCE_RAILS, VIRTUAL_ACCOUNT_STATUSES } from './inputs.js';
import type { DepositInstructions } from './issuance.js';
import { developerFeePercentOf } from './presenters.js';

const StatusEnum = domainEnum('VirtualAccountStatus', VIRTUAL_ACCOUNT_STATUSES, {
  description: 'Whether a virtual account can receive fiat yet',
  describe: { pending: 'Waiting for the banking partner: no deposit instructions yet', active: 'Deposit instructions issued: fiat can arrive' },
});
// Not PaymentRails: a partner names only SWIFT here (no rails means the currency's domestic ones).
const SourceRailsEnum = domainEnum('VirtualAccountSourceRails', VIRTUAL_ACCOUNT_SOURCE_RAILS, {
  description: "The rails a virtual account takes when they are not the currency's domestic ones",
  describe: { swift: 'USD over SWIFT (international wires) instead of ACH and wire' },
});

const ibanOf = (i: DepositInstructions) => ('iban' in i ? i.iban : null);
const usOf = (i: DepositInstructions) => ('us' in i ? i.us : null);
const swiftOf = (i: DepositInstructions) => ('swift' in i ? i.swift : null);

const DepositInstructionsRef = builder.objectRef<DepositInstructions>('DepositInstructions').implement({
  description: 'Where the customer sends fiat: a bank account of the sandbox banking partner, issued to this virtual account.',
  fields: (t) => ({
    currency: t.field({ type: FiatCurrencyEnum, description: 'The currency to send', resolve: (i) => i.currency }),
    paymentRails: t.field({
      type: [PaymentRailsEnum],
      description: 'The rails the account receives on: ACH and WIRE (USD), SEPA (EUR), UAEFTS (AED) or SWIFT (USD over SWIFT)',
      resolve: (i) => i.payment_rails,
    }),
    bankName: t.exposeString('bank_name', { description: 'The name of the bank to pay into' }),
    bankAddress: t.exposeString('bank_address', { description: "The bank's postal address" }),
    accountHolderName: t.exposeString('account_holder_name', { description: "The beneficiary to pay to: the customer's name" }),
    ibanNumber: t.string({ nullable: true, description: 'The IBAN for EUR and AED accounts; else null', resolve: (i) => ibanOf(i)?.iban_number ?? null }),
    bic: t.string({
      nullable: true,
      description: "The bank's BIC for IBAN and SWIFT accounts; null for USD ACH/wire",
      resolve: (i) => (ibanOf(i) ?? swiftOf(i))?.bic ?? null,
    }),
    routingNumber: t.string({
      nullable: true,
      description: 'The ABA routing number for USD accounts (ACH/wire and SWIFT); null for IBAN accounts',
      resolve: (i) => (usOf(i) ?? swiftOf(i))?.routing_number ?? null,
    }),
    accountNumber: t.string({
      nullable: true,
      description: 'The account number for USD accounts (ACH/wire and SWIFT); null for IBAN accounts',
      resolve: (i) => (usOf(i) ?? swiftOf(i))?.account_number ?? null,
    }),
  }),
});

export const VirtualAccountRef = builder.loadableNodeRef<VirtualAccountRow>('VirtualAccount', {
  id: { resolve: (a) => a.id },
  // Batches every account looked up in one request into one query, scoped to the caller.
  load: (ids: string[], ctx) => ctx.services.virtualAccounts.loadMany(scopeOf(ctx), ids),
  sort: (account) => account.id,
});

/** The fields of a VirtualAccount (and of a snapshot of one, as an event kept it). */
function fieldsOfVirtualAccount(t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, VirtualAccountRow>) {
  return {
    databaseId: t.expose('id', { type: 'UUID', description: 'The id REST shows for this virtual account (virtual_account_id)' }),
    customer: t.field({ type: CustomerRef, description: 'The customer the account is issued to', resolve: (a) => a.customerId }),
    status: t.field({ type: StatusEnum, description: 'PENDING until the banking partner issues it, then ACTIVE', resolve: (a) => a.status }),
    sourceCurrency: t.field({ type: FiatCurrencyEnum, description: 'The fiat currency the account receives', resolve: (a) => a.sourceCurrency }),
    sourceRails: t.field({
      type: SourceRailsEnum,
      nullable: true,
      description: "SWIFT for a USD account over SWIFT; null for the currency's domestic rails",
      resolve: (a) => a.sourceRails ?? null,
    }),
    destinationToken: t.field({ type: StablecoinEnum, description: 'The stablecoin deposits are converted to', resolve: (a) => a.destinationToken }),
    destinationNetwork: t.field({ type: BlockchainNetworkEnum, description: 'The chain it is delivered on', resolve: (a) => a.destinationNetwork }),
    destinationAddress: t.exposeString('destinationAddress', {
      nullable: true,
      description: 'The wallet address deposits are delivered to; null when none was given (deposits then cannot be forwarded)',
    }),
    developerFeePercent: t.field({
      type: 'Decimal',
      nullable: true,
      description: 'Your developer fee on each deposit, in percent, normalised ("0.50" shows as "0.5"); null when none was set',
      resolve: developerFeePercentOf,
    }),
    depositInstructions: t.field({
      type: DepositInstructionsRef,
      nullable: true,
      description: 'Null while the account is PENDING',
      resolve: (a) => a.depositInstructions ?? null,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the account was requested' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the account last changed (e.g. issued)' }),
  };
}

VirtualAccountRef.implement({
  description: 'A bank account number issued to a customer: fiat paid into it is converted and sent to its destination as a stablecoin.',
  fields: (t) => fieldsOfVirtualAccount(t),
});

export const VirtualAccountSnapshotRef = snapshotRef(VirtualAccountRef, {
  description: "A virtual account as an event kept it: an id of its own (the event's), the fields as they were, `live` for the account now",
  fields: (t) => fieldsOfVirtualAccount(t as never),
});

export const VirtualAccountConnection = nodeConnection(VirtualAccountRef, 'VirtualAccount');

const CreateVirtualAccountInputRef = builder.inputType('CreateVirtualAccountInput', {
  description: 'A virtual account to open for a customer (REST: POST /v0/customers/{customer_id}/virtual-account)',
  fields: (t) => ({
    customerId: t.id({ required: true, description: 'The customer the account is issued to (global id or databaseId)' }),
    sourceCurrency: t.field({ type: FiatCurrencyEnum, required: true, description: 'The fiat currency it receives' }),
    sourceRails: t.field({ type: SourceRailsEnum, description: 'SWIFT, only for USD' }),
    destinationToken: t.field({ type: StablecoinEnum, description: 'USDC when omitted' }),
    destinationNetwork: t.field({ type: BlockchainNetworkEnum, required: true, description: 'The chain deposits are delivered on' }),
    destinationAddress: t.string({ description: 'Validated for destinationNetwork' }),
    developerFeePercent: t.field({ type: 'Decimal', description: 'A non-negative decimal, e.g. "0.5" (at most 100, at most 8 decimals)' }),
    idempotencyKey: idempotencyKeyField(t),
  }),
});

const SimulateVirtualAccountIssuanceInputRef = builder.inputType('SimulateVirtualAccountIssuanceInput', {
  description: 'A sandbox issuance of a pending virtual account',
  fields: (t) => ({ virtualAccountId: t.id({ required: true, description: 'A PENDING virtual account (global id or databaseId)' }) }),
});

builder.objectFields(CustomerRef, (t) => ({
  virtualAccounts: t.connection(
    {
      type: VirtualAccountRef,
      description: "The customer's virtual accounts, oldest first (at most 100 a page)",
      ...connectionFieldOptions(),
      resolve: (customer, args, ctx, info) => {
        const filter = { customerId: customer.id };
        return resolveKeysetPage(ctx, info, args, ownPosition, (page) => ctx.services.virtualAccounts.list(scopeOf(ctx), filter, page), {
          count: () => ctx.services.virtualAccounts.count(scopeOf(ctx), filter),
        });
      },
    },
    VirtualAccountConnection,
  ),
}));

const virtualAccountIdOf = (id: string | number) => databaseIdOf(id, 'VirtualAccount');

builder.queryFields((t) => ({
  virtualAccount: t.field({
    keyScope: 'read',
    type: VirtualAccountRef,
    nullable: true,
    description: "One of the caller's virtual accounts by global id or databaseId; null when unknown (or another partner's).",
    args: { id: t.arg.id({ required: true, description: 'Its global id, or its databaseId (the id REST shows)' }) },
    resolve: (_, { id }, ctx) => nullIfNotFound(ctx.services.virtualAccounts.get(scopeOf(ctx), virtualAccountIdOf(id))),
  }),
}));

builder.mutationFields((t) => ({
  createVirtualAccount: t.field({
    keyScope: 'write',
    type: VirtualAccountRef,
    description:
      'Opens a virtual account: ACTIVE with deposit instructions (USD, EUR) or PENDING (AED, USD over SWIFT). ConflictError virtual_account_exists when the customer has one with these parameters; UnprocessableError token_not_offered_on_network when the destination network does not offer the token (see networks); ForbiddenError rails_not_connected in production.',
    errors: payloadOf('CreateVirtualAccount', 'virtualAccount', [ValidationError, NotFoundError, ConflictError, UnprocessableError, ForbiddenError]),
    args: {
      input: t.arg({
        type: CreateVirtualAccountInputRef,
        required: true,
        description: 'What to do, as one input object (ValidationError paths point into it)',
      }),
    },
    // The rest of the input is the use case's own (NewVirtualAccount): its errors' paths are the input's.
    // The customer's id is fingerprinted as its databaseId, so a retry may spell it either way.
    resolve: creatingMutation({
      prepare: (input) => ({ ...input, customerId: databaseIdOf(input.customerId, 'Customer') }),
      run: ({ customerId, ...account }, scope, { services }) => services.virtualAccounts.create(scope, customerId, withoutNulls(account)),
      load: (id, scope, { services }) => services.virtualAccounts.get(scope, id),
    }),
  }),
  simulateVirtualAccountIssuance: t.field({
    keyScope: 'simulate',
    type: VirtualAccountRef,
    description:
      'Sandbox only: the banking partner issues a PENDING virtual account (ForbiddenError sandbox_only in production; ConflictError virtual_account_already_active once it is ACTIVE).',
    errors: payloadOf('SimulateVirtualAccountIssuance', 'virtualAccount', [ValidationError, NotFoundError, ForbiddenError, ConflictError]),
    args: {
      input: t.arg({
        type: SimulateVirtualAccountIssuanceInputRef,
        required: true,
        description: 'What to do, as one input object (ValidationError paths point into it)',
      }),
    },
    resolve: (_, { input }, ctx) => {
      const scope = scopeOf(ctx);
      const virtualAccountId = virtualAccountIdOf(input.virtualAccountId);
      // An id that names no virtual account is not found, like an unknown one (after the sandbox check, as for any id).
      if (!virtualAccountId) {
        assertSandbox(scope.actor);
        throw new NotFoundError('Virtual account');
      }
      return withInputPaths(ctx.services.virtualAccounts.issuePending(scope, null, { virtualAccountId }));
    },
  }),
}));
