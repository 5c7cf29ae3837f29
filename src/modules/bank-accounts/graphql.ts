import { maskAccountNumber } from '../../domain/identifiers/bank.js';
import { AddressInput, AddressRef } from '../../graphql/address.js';
import { withoutNulls } from '../../graphql/arguments.js';
import { builder } from '../../graphql/builder.js';
import { scopeOf } from '../../graphql/context.js';
import { MUTATION_ERRORS, nullIfNotFound, withInputPaths } from '../../graphql/errors.js';
import { idempotentMutation } from '../../graphql/idempotency.js';
import { checkIdempotencyKey } from '../../platform/idempotency.js';
import { CustomerRef } from '../customers/graphql.js';
import type { BankAccount } from './entities.js';
import { ACCOUNT_HOLDER_TYPES, BANK_ACCOUNT_TYPES, US_ACCOUNT_TYPES } from './inputs.js';

const BankAccountTypeEnum = builder.enumType('BankAccountType', {
  description: 'iban (IBANAccountDetails), us (USAccountDetails) or swift (InternationalWireAccountDetails)',
  values: BANK_ACCOUNT_TYPES,
});
const AccountHolderTypeEnum = builder.enumType('AccountHolderType', { values: ACCOUNT_HOLDER_TYPES });
const UsBankAccountTypeEnum = builder.enumType('UsBankAccountType', { values: US_ACCOUNT_TYPES });

export const BankAccountRef = builder.objectRef<BankAccount>('BankAccount').implement({
  description: "A customer's own bank account (external account) that off-ramp payouts go to. Numbers are always masked here.",
  fields: (t) => ({
    id: t.exposeID('id'),
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
    bic: t.exposeString('bic', { nullable: true, description: 'iban and swift accounts' }),
    routingNumber: t.exposeString('routingNumber', { nullable: true, description: 'ABA number of us accounts; clearing code of swift ones' }),
    usAccountType: t.field({ type: UsBankAccountTypeEnum, nullable: true, resolve: (a) => a.usAccountType ?? null }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const IbanAccountInput = builder.inputType('IbanAccountInput', {
  fields: (t) => ({ bic: t.string({ required: true }), ibanNumber: t.string({ required: true }) }),
});
const UsAccountInput = builder.inputType('UsAccountInput', {
  fields: (t) => ({
    accountNumber: t.string({ required: true }),
    routingNumber: t.string({ required: true, description: 'ABA routing number' }),
    accountType: t.field({ type: UsBankAccountTypeEnum, description: 'checking when omitted' }),
  }),
});
const SwiftAccountInput = builder.inputType('SwiftAccountInput', {
  fields: (t) => ({
    accountNumber: t.string({ required: true }),
    bic: t.string({ required: true }),
    routingNumber: t.string({ description: 'National clearing code, when the beneficiary bank needs one' }),
  }),
});

/** The use case's own input (NewBankAccount): the bank account details of spec §2.2, exactly the variant named by accountType. */
export const BankAccountInputRef = builder.inputType('BankAccountInput', {
  fields: (t) => ({
    bankName: t.string({ required: true }),
    accountHolderType: t.field({ type: AccountHolderTypeEnum, required: true }),
    accountHolderFirstName: t.string(),
    accountHolderLastName: t.string(),
    accountHolderBusinessName: t.string(),
    accountHolderAddress: t.field({ type: AddressInput, required: true }),
    accountType: t.field({ type: BankAccountTypeEnum, required: true }),
    iban: t.field({ type: IbanAccountInput }),
    us: t.field({ type: UsAccountInput }),
    swift: t.field({ type: SwiftAccountInput }),
  }),
});

builder.objectFields(CustomerRef, (t) => ({
  bankAccounts: t.loadableGroup({
    type: BankAccountRef,
    description: "The customer's external bank accounts, oldest first",
    load: (customerIds: string[], ctx) => ctx.services.bankAccounts.loadForCustomers(scopeOf(ctx), customerIds),
    group: (account) => account.customerId,
    resolve: (customer) => customer.id,
  }),
}));

builder.queryFields((t) => ({
  bankAccount: t.field({
    type: BankAccountRef,
    nullable: true,
    description: "One of the caller's external accounts; null when unknown (or another partner's).",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_, { id }, ctx) => nullIfNotFound(ctx.services.bankAccounts.get(scopeOf(ctx), String(id))),
  }),
}));

builder.mutationFields((t) => ({
  addBankAccount: t.field({
    type: BankAccountRef,
    description: 'Registers an external bank account for a customer. idempotencyKey is required, as Idempotency-Key is in REST.',
    errors: { types: MUTATION_ERRORS },
    args: {
      customerId: t.arg.id({ required: true }),
      input: t.arg({ type: BankAccountInputRef, required: true }),
      idempotencyKey: t.arg.string({ required: true }),
    },
    // The input is the use case's own (NewBankAccount): it goes as it is, and its errors' paths are the input's.
    resolve: (_, args, ctx) => {
      checkIdempotencyKey(args.idempotencyKey, true);
      return idempotentMutation(
        ctx,
        'addBankAccount',
        args,
        (em) => withInputPaths(ctx.services.bankAccounts.create({ ...scopeOf(ctx), em }, String(args.customerId), withoutNulls(args.input))),
        (id) => ctx.services.bankAccounts.get(scopeOf(ctx), id),
      );
    },
  }),
}));
