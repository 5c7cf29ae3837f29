import { ConflictError, NotFoundError, UnprocessableError, ValidationError } from '../../domain/errors.js';
import { maskAccountNumber } from '../../domain/identifiers/bank.js';
import { AddressInput, AddressRef } from '../../graphql/address.js';
import { withoutNulls } from '../../graphql/arguments.js';
import { builder } from '../../graphql/builder.js';
import { snapshotRef } from '../events/snapshots.js';
import { connectionFieldOptions, nodeConnection, ownPosition, resolveKeysetPage } from '../../graphql/connection.js';
import { scopeOf } from '../../graphql/context.js';
import { domainEnum } from '../../graphql/enums.js';
import { nullIfNotFound } from '../../graphql/errors.js';
import { creatingMutation } from '../../graphql/idempotency.js';
import { databaseIdOf } from '../../graphql/node.js';
import { idempotencyKeyField, payloadOf } from '../../graphql/payload.js';
import { CustomerRef } from '../customers/graphql.js';
import type { BankAccount } from './entities.js';
import { ACCOUNT_HOLDER_TYPES, BANK_ACCOUNT_TYPES, US_ACCOUNT_TYPES } from './inputs.js';

export const BankAccountTypeEnum = domainEnum('BankAccountType', BANK_ACCOUNT_TYPES, {
  description: 'Which details an account has: IBAN (IBANAccountDetails), US (USAccountDetails) or SWIFT (InternationalWireAccountDetails)',
});
export const AccountHolderTypeEnum = domainEnum('AccountHolderType', ACCOUNT_HOLDER_TYPES);
const UsBankAccountTypeEnum = domainEnum('UsBankAccountType', US_ACCOUNT_TYPES);

export const BankAccountRef = builder.loadableNodeRef<BankAccount>('BankAccount', {
  id: { resolve: (a) => a.id },
  // Batches every account looked up in one request into one query, scoped to the caller.
  load: (ids: string[], ctx) => ctx.services.bankAccounts.loadMany(scopeOf(ctx), ids),
  sort: (account) => account.id,
});

/** The fields of a BankAccount (and of a snapshot of one, as an event kept it). */
function fieldsOfBankAccount(t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, BankAccount>) {
  return {
    databaseId: t.expose('id', { type: 'UUID', description: 'The id REST shows for this external account (external_account_id)' }),
    customer: t.field({ type: CustomerRef, resolve: (a) => a.customerId }),
    accountType: t.field({ type: BankAccountTypeEnum, resolve: (a) => a.accountType }),
    bankName: t.exposeString('bankName'),
    accountHolderType: t.field({ type: AccountHolderTypeEnum, resolve: (a) => a.accountHolderType }),
    accountHolderFirstName: t.exposeString('accountHolderFirstName', { nullable: true }),
    accountHolderLastName: t.exposeString('accountHolderLastName', { nullable: true }),
    accountHolderBusinessName: t.exposeString('accountHolderBusinessName', { nullable: true }),
    accountHolderAddress: t.field({ type: AddressRef, resolve: (a) => a.accountHolderAddress }),
    accountNumberMasked: t.string({
      description: 'Last four characters of the IBAN or account number, e.g. …6789',
      resolve: (a) => maskAccountNumber(a.ibanNumber ?? a.accountNumber ?? ''),
    }),
    bic: t.exposeString('bic', { nullable: true, description: 'IBAN and SWIFT accounts' }),
    routingNumber: t.exposeString('routingNumber', { nullable: true, description: 'ABA number of US accounts; clearing code of SWIFT ones' }),
    usAccountType: t.field({ type: UsBankAccountTypeEnum, nullable: true, resolve: (a) => a.usAccountType ?? null }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  };
}

BankAccountRef.implement({
  description: "A customer's own bank account (external account) that off-ramp payouts go to. Numbers are always masked here.",
  fields: (t) => fieldsOfBankAccount(t),
});

export const BankAccountSnapshotRef = snapshotRef(BankAccountRef, {
  description: "An external account as an event kept it: an id of its own (the event's), the fields as they were, `live` for the account now",
  fields: (t) => fieldsOfBankAccount(t as never),
});

export const BankAccountConnection = nodeConnection(BankAccountRef, 'BankAccount');

const IbanAccountInput = builder.inputType('IbanAccountInput', {
  fields: (t) => ({ bic: t.string({ required: true }), ibanNumber: t.string({ required: true }) }),
});
const UsAccountInput = builder.inputType('UsAccountInput', {
  fields: (t) => ({
    accountNumber: t.string({ required: true }),
    routingNumber: t.string({ required: true, description: 'ABA routing number' }),
    accountType: t.field({ type: UsBankAccountTypeEnum, description: 'CHECKING when omitted' }),
  }),
});
const SwiftAccountInput = builder.inputType('SwiftAccountInput', {
  fields: (t) => ({
    accountNumber: t.string({ required: true }),
    bic: t.string({ required: true }),
    routingNumber: t.string({ description: 'National clearing code, when the beneficiary bank needs one' }),
  }),
});

type InputFieldBuilder = Parameters<Parameters<typeof builder.inputType>[1]['fields']>[0];

/** The use case's own input (NewBankAccount): the bank account details of spec §2.2, exactly the variant named by accountType. */
const bankAccountFields = (t: InputFieldBuilder) => ({
  bankName: t.string({ required: true }),
  accountHolderType: t.field({ type: AccountHolderTypeEnum, required: true }),
  accountHolderFirstName: t.string({ description: 'Required for INDIVIDUAL holders, not allowed for BUSINESS ones' }),
  accountHolderLastName: t.string({ description: 'Required for INDIVIDUAL holders, not allowed for BUSINESS ones' }),
  accountHolderBusinessName: t.string({ description: 'Required for BUSINESS holders, not allowed for INDIVIDUAL ones' }),
  accountHolderAddress: t.field({ type: AddressInput, required: true }),
  accountType: t.field({ type: BankAccountTypeEnum, required: true }),
  iban: t.field({ type: IbanAccountInput, description: 'Exactly when accountType is IBAN' }),
  us: t.field({ type: UsAccountInput, description: 'Exactly when accountType is US' }),
  swift: t.field({ type: SwiftAccountInput, description: 'Exactly when accountType is SWIFT' }),
});

/** Bank account details as another input embeds them (an off-ramp's inline destination). */
export const BankAccountInputRef = builder.inputType('BankAccountInput', { fields: bankAccountFields });

const AddBankAccountInputRef = builder.inputType('AddBankAccountInput', {
  fields: (t) => ({
    customerId: t.id({ required: true, description: 'The customer whose account this is (global id or databaseId)' }),
    ...bankAccountFields(t),
    idempotencyKey: idempotencyKeyField(t),
  }),
});

builder.objectFields(CustomerRef, (t) => ({
  bankAccounts: t.connection(
    {
      type: BankAccountRef,
      description: "The customer's external bank accounts, oldest first (at most 100 a page)",
      ...connectionFieldOptions(),
      resolve: (customer, args, ctx, info) => {
        const filter = { customerId: customer.id };
        return resolveKeysetPage(ctx, info, args, ownPosition, (page) => ctx.services.bankAccounts.list(scopeOf(ctx), filter, page), {
          count: () => ctx.services.bankAccounts.count(scopeOf(ctx), filter),
        });
      },
    },
    BankAccountConnection,
  ),
}));

const bankAccountIdOf = (id: string | number) => databaseIdOf(id, 'BankAccount');

builder.queryFields((t) => ({
  bankAccount: t.field({
    type: BankAccountRef,
    nullable: true,
    description: "One of the caller's external accounts by global id or databaseId; null when unknown (or another partner's).",
    args: { id: t.arg.id({ required: true, description: 'Its global id, or its databaseId (the id REST shows)' }) },
    resolve: (_, { id }, ctx) => nullIfNotFound(ctx.services.bankAccounts.get(scopeOf(ctx), bankAccountIdOf(id))),
  }),
}));

builder.mutationFields((t) => ({
  addBankAccount: t.field({
    type: BankAccountRef,
    description:
      'Registers an external bank account for a customer (REST: POST /v0/customers/{id}/external-accounts, where Idempotency-Key is required; here idempotencyKey is optional). ConflictError external_account_exists when the customer already has it.',
    errors: payloadOf('AddBankAccount', 'bankAccount', [ValidationError, NotFoundError, ConflictError, UnprocessableError]),
    args: {
      input: t.arg({ type: AddBankAccountInputRef, required: true, description: 'What to do, as one input object (ValidationError paths point into it)' }),
    },
    // The rest of the input is the use case's own (NewBankAccount): its errors' paths are the input's.
    // The customer's id is fingerprinted as its databaseId, so a retry may spell it either way.
    resolve: creatingMutation({
      prepare: (input) => ({ ...input, customerId: databaseIdOf(input.customerId, 'Customer') }),
      run: ({ customerId, ...account }, scope, { services }) => services.bankAccounts.create(scope, customerId, withoutNulls(account)),
      load: (id, scope, { services }) => services.bankAccounts.get(scope, id),
    }),
  }),
}));
