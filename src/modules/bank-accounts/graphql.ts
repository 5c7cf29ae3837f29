import { ConflictError, NotFoundError, UnprocessableError, ValidationError } from '../../domain/errors.js';
import { maskAccountNumber } from '../../domain/identifiers/bank.js';
import { AddressInput, AddressRef } from '../../graphql/types/address.js';
import { withoutNulls } from '../../graphql/types/arguments.js';
import { builder } from '../../graphql/builder.js';
import { snapshotRef } from '../events/snapshots.js';
import { connectionFieldOptions, nodeConnection, ownPosition, resolveKeysetPage } from '../../graphql/types/connection.js';
import { scopeOf } from '../../graphql/context.js';
import { domainEnum } from '../../graphql/types/enums.js';
import { nullIfNotFound } from '../../graphql/types/errors.js';
import { creatingMutation } from '../../graphql/types/idempotency.js';
import { databaseIdOf } from '../../graphql/types/node.js';
import { idempotencyKeyField, payloadOf } from '../../graphql/types/payload.js';
import { CustomerRef } from '../customers/graphql.js';
import type { BankAccount } from './entities.js';
import { ACCOUNT_HOLDER_TYPES, BANK_ACCOUNT_TYPES, US_ACCOUNT_TYPES } from './inputs.js';
import { shownNumberOf } from './records.js';

export const BankAccountTypeEnum = domainEnum('BankAccountType', BANK_ACCOUNT_TYPES, {
  description: 'Which details an account has: IBAN (REST: IBANAccountDetails), US (USAccountDetails) or SWIFT (InternationalWireAccountDetails)',
  describe: {
    iban: 'Reached by IBAN and BIC (SEPA, UAEFTS, SWIFT)',
    us: 'A US account reached by account and ABA routing number (ACH, wire)',
    swift: 'An international wire account: account number, BIC and an optional national clearing code (SWIFT)',
  },
});
export const AccountHolderTypeEnum = domainEnum('AccountHolderType', ACCOUNT_HOLDER_TYPES, {
  description: 'Who holds a bank account: a person or a business',
  describe: { individual: 'A person: first and last name', business: 'A company: business name' },
});
const UsBankAccountTypeEnum = domainEnum('UsBankAccountType', US_ACCOUNT_TYPES, {
  description: 'The kind of US deposit account',
  describe: { checking: 'A checking account (the default)', savings: 'A savings account' },
});

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
    customer: t.field({ type: CustomerRef, description: 'The customer whose account this is', resolve: (a) => a.customerId }),
    accountType: t.field({ type: BankAccountTypeEnum, description: 'How the account is reached: IBAN, US or SWIFT', resolve: (a) => a.accountType }),
    bankName: t.exposeString('bankName', { description: 'The name of the bank' }),
    accountHolderType: t.field({ type: AccountHolderTypeEnum, description: 'A person or a business holds the account', resolve: (a) => a.accountHolderType }),
    accountHolderFirstName: t.exposeString('accountHolderFirstName', { nullable: true, description: "An individual holder's first name; null for a business" }),
    accountHolderLastName: t.exposeString('accountHolderLastName', { nullable: true, description: "An individual holder's last name; null for a business" }),
    accountHolderBusinessName: t.exposeString('accountHolderBusinessName', { nullable: true, description: "A business holder's name; null for an individual" }),
    accountHolderAddress: t.field({ type: AddressRef, description: "The holder's postal address", resolve: (a) => a.accountHolderAddress }),
    accountNumberMasked: t.string({
      description: 'Last four characters of the IBAN or account number, e.g. …6789',
      // From the hidden number kept in clear (or a clear number from before encryption): nothing is opened.
      resolve: (a) => maskAccountNumber(shownNumberOf(a)),
    }),
    bic: t.exposeString('bic', { nullable: true, description: 'IBAN and SWIFT accounts' }),
    routingNumber: t.exposeString('routingNumber', { nullable: true, description: 'ABA number of US accounts; clearing code of SWIFT ones' }),
    usAccountType: t.field({
      type: UsBankAccountTypeEnum,
      nullable: true,
      description: 'Checking or savings, for a US account; null for IBAN and SWIFT accounts',
      resolve: (a) => a.usAccountType ?? null,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the account was registered' }),
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
  description: 'An account reached by IBAN (print form accepted: spaces, dashes, lower case)',
  fields: (t) => ({
    bic: t.string({ required: true, description: "The bank's BIC, 8 or 11 characters, of the IBAN's country (bic_country_mismatch)" }),
    ibanNumber: t.string({ required: true, description: 'The IBAN: registry length, BBAN format and mod-97 checked (invalid_iban)' }),
  }),
});
const UsAccountInput = builder.inputType('UsAccountInput', {
  description: 'A US account reached by ACH or wire',
  fields: (t) => ({
    accountNumber: t.string({ required: true, description: '4 to 17 digits' }),
    routingNumber: t.string({ required: true, description: 'ABA routing number: 9 digits with a valid prefix and checksum (invalid_routing_number)' }),
    accountType: t.field({ type: UsBankAccountTypeEnum, description: 'CHECKING when omitted' }),
  }),
});
const SwiftAccountInput = builder.inputType('SwiftAccountInput', {
  description: 'An account reached by an international (SWIFT) wire',
  fields: (t) => ({
    accountNumber: t.string({ required: true, description: '4 to 34 letters and digits (a valid IBAN when shaped like one)' }),
    bic: t.string({ required: true, description: "The beneficiary bank's BIC, 8 or 11 characters" }),
    routingNumber: t.string({ description: 'National clearing code, when the beneficiary bank needs one' }),
  }),
});

type InputFieldBuilder = Parameters<Parameters<typeof builder.inputType>[1]['fields']>[0];

/** The use case's own input (NewBankAccount): the bank account details the partner API takes, exactly the variant named by accountType. */
const bankAccountFields = (t: InputFieldBuilder) => ({
  bankName: t.string({ required: true, description: 'The name of the bank (1 to 200 characters)' }),
  accountHolderType: t.field({ type: AccountHolderTypeEnum, required: true, description: 'A person or a business: decides which names are required' }),
  accountHolderFirstName: t.string({ description: 'Required for INDIVIDUAL holders, not allowed for BUSINESS ones' }),
  accountHolderLastName: t.string({ description: 'Required for INDIVIDUAL holders, not allowed for BUSINESS ones' }),
  accountHolderBusinessName: t.string({ description: 'Required for BUSINESS holders, not allowed for INDIVIDUAL ones' }),
  accountHolderAddress: t.field({ type: AddressInput, required: true, description: "The holder's postal address" }),
  accountType: t.field({ type: BankAccountTypeEnum, required: true, description: 'Which one of iban, us and swift carries the numbers' }),
  iban: t.field({ type: IbanAccountInput, description: 'Exactly when accountType is IBAN' }),
  us: t.field({ type: UsAccountInput, description: 'Exactly when accountType is US' }),
  swift: t.field({ type: SwiftAccountInput, description: 'Exactly when accountType is SWIFT' }),
});

/** Bank account details as another input embeds them (an off-ramp's inline destination). */
export const BankAccountInputRef = builder.inputType('BankAccountInput', {
  description: 'Bank account details given inline (checked exactly like addBankAccount); numbers in print form are accepted',
  fields: bankAccountFields,
});

const AddBankAccountInputRef = builder.inputType('AddBankAccountInput', {
  description: "A customer's bank account to register for payouts (REST: POST /v0/customers/{id}/external-accounts)",
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
    keyScope: 'read',
    type: BankAccountRef,
    nullable: true,
    description: "One of the caller's external accounts by global id or databaseId; null when unknown (or another partner's).",
    args: { id: t.arg.id({ required: true, description: 'Its global id, or its databaseId (the id REST shows)' }) },
    resolve: (_, { id }, ctx) => nullIfNotFound(ctx.services.bankAccounts.get(scopeOf(ctx), bankAccountIdOf(id))),
  }),
}));

builder.mutationFields((t) => ({
  addBankAccount: t.field({
    keyScope: 'write',
    type: BankAccountRef,
    description:
      'Registers an external bank account for a customer (REST: POST /v0/customers/{id}/external-accounts, where Idempotency-Key is required; here idempotencyKey is optional). ConflictError external_account_exists when the customer already has it, customer_redacted when the customer was redacted.',
    errors: payloadOf('AddBankAccount', 'bankAccount', [ValidationError, NotFoundError, ConflictError, UnprocessableError]),
    args: {
      input: t.arg({ type: AddBankAccountInputRef, required: true, description: 'What to do, as one input object (ValidationError paths point into it)' }),
    },
    // The rest of the input is the use case's own (NewBankAccount): its errors' paths are the input's.
    // The customer's id is fingerprinted as its databaseId, so a retry may spell it either way.
    resolve: creatingMutation({
      prepare: (input) => ({ ...input, customerId: databaseIdOf(input.customerId, 'Customer') }),
      run: ({ customerId, ...account }, scope, { services }) => services.bankAccounts.create(scope, customerId, withoutNulls(account)),
      answer: (created) => created.account,
      load: (id, scope, { services }) => services.bankAccounts.get(scope, id),
    }),
  }),
}));
