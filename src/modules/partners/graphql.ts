import { ENVIRONMENTS } from '../../domain/environment.js';
import { withoutNulls } from '../../graphql/arguments.js';
import { maskAccountNumber } from '../../domain/identifiers/bank.js';
import { builder } from '../../graphql/builder.js';
import { scopeOf } from '../../graphql/context.js';
import { MUTATION_ERRORS, withInputPaths } from '../../graphql/errors.js';
import { idempotentMutation } from '../../graphql/idempotency.js';
import type { CryptoBalance, CryptoThreshold, FiatBalance } from './balances.js';
import type { DepositAddress } from './deposit-addresses.js';
import type { Partner, WhitelistedBankAccount, WhitelistedWalletAddress } from './entities.js';

export const EnvironmentEnum = builder.enumType('Environment', { values: ENVIRONMENTS });

const WhitelistedWalletAddressRef = builder.objectRef<WhitelistedWalletAddress>('WhitelistedWalletAddress').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    address: t.exposeString('address'),
    coin: t.exposeString('coin', { description: 'Token, lower case (usdc, usdt)' }),
    network: t.exposeString('network', { description: 'Network, lower case (polygon, ethereum, solana, base, tron, arbitrum)' }),
    label: t.exposeString('label'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

/** A bank account entry and whether this response may show its number in clear (only its creation may). */
interface BankAccountView {
  id: string;
  entry: WhitelistedBankAccount;
  clearNumber: boolean;
}
const listed = (entry: WhitelistedBankAccount): BankAccountView => ({ id: entry.id, entry, clearNumber: false });
const created = (entry: WhitelistedBankAccount): BankAccountView => ({ id: entry.id, entry, clearNumber: true });

const WhitelistedBankAccountRef = builder.objectRef<BankAccountView>('WhitelistedBankAccount').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    accountHolderName: t.string({ resolve: (v) => v.entry.accountHolderName }),
    accountHolderAddress: t.string({ resolve: (v) => v.entry.accountHolderAddress }),
    beneficiaryBankName: t.string({ resolve: (v) => v.entry.beneficiaryBankName }),
    beneficiaryBankAddress: t.string({ resolve: (v) => v.entry.beneficiaryBankAddress }),
    beneficiaryBankCountry: t.string({ resolve: (v) => v.entry.beneficiaryBankCountry }),
    bankAccountNumber: t.string({
      description: 'Masked (…6789) everywhere except in the result of whitelistBankAccount',
      resolve: (v) => (v.clearNumber ? v.entry.bankAccountNumber : maskAccountNumber(v.entry.bankAccountNumber)),
    }),
    bicSwift: t.string({ resolve: (v) => v.entry.bicSwift }),
    fiatCurrency: t.string({ description: 'Lower case (usd, eur, aed)', resolve: (v) => v.entry.fiatCurrency }),
    createdAt: t.field({ type: 'DateTime', resolve: (v) => v.entry.createdAt }),
  }),
});

const DepositAddressRef = builder.objectRef<DepositAddress>('DepositAddress').implement({
  fields: (t) => ({
    network: t.exposeString('network'),
    address: t.exposeString('address'),
    coins: t.exposeStringList('coins'),
  }),
});

const FiatBalanceRef = builder.objectRef<FiatBalance>('FiatBalance').implement({
  fields: (t) => ({ currency: t.exposeString('currency'), balance: t.expose('balance', { type: 'Decimal' }) }),
});
const CryptoBalanceRef = builder.objectRef<CryptoBalance>('CryptoBalance').implement({
  fields: (t) => ({ coin: t.exposeString('coin'), balance: t.expose('balance', { type: 'Decimal' }) }),
});
const CryptoThresholdRef = builder.objectRef<CryptoThreshold>('CryptoThreshold').implement({
  fields: (t) => ({
    coin: t.exposeString('coin'),
    minimumThreshold: t.expose('minimumThreshold', { type: 'Decimal' }),
    currentBalance: t.expose('currentBalance', { type: 'Decimal' }),
    remainingBalance: t.expose('remainingBalance', { type: 'Decimal', description: 'max(current - minimum, 0)' }),
  }),
});

const PartnerRef = builder.objectRef<Partner>('Partner').implement({
  description: "The caller's own partner account, seen from the API key's environment (REST: GET /v1/partners/accountInfo)",
  fields: (t) => ({
    name: t.exposeString('name'),
    email: t.exposeString('email', { nullable: true }),
    phone: t.exposeString('phone', { nullable: true }),
    location: t.exposeString('location', { nullable: true }),
    clientId: t.exposeString('clientId'),
    grantServices: t.exposeStringList('grantServices', { description: 'FORENSICS, QUOTESANDORDERS, CRYPTOCUSTODYSOL' }),
    platformFeeBps: t.exposeInt('platformFeeBps', { description: 'Platform fee charged on every transfer, in basis points' }),
    activeEnvironment: t.field({ type: EnvironmentEnum, resolve: (_, __, ctx) => scopeOf(ctx).actor.environment }),
    whitelistedWalletAddresses: t.field({
      type: [WhitelistedWalletAddressRef],
      resolve: (_, __, ctx) => ctx.services.partners.walletAddresses(scopeOf(ctx)),
    }),
    whitelistedBankAccounts: t.field({
      type: [WhitelistedBankAccountRef],
      resolve: async (_, __, ctx) => (await ctx.services.partners.bankAccounts(scopeOf(ctx))).map(listed),
    }),
    depositAddresses: t.field({
      type: [DepositAddressRef],
      description: 'One per network in the sandbox; none in production until a custody provider is connected',
      resolve: (_, __, ctx) => ctx.services.partners.depositAddresses(scopeOf(ctx)),
    }),
    reservedFiat: t.field({
      type: [FiatBalanceRef],
      resolve: async (_, __, ctx) => (await ctx.services.partners.balances(scopeOf(ctx))).reservedFiat,
    }),
    reservedCrypto: t.field({
      type: [CryptoBalanceRef],
      resolve: async (_, __, ctx) => (await ctx.services.partners.balances(scopeOf(ctx))).reservedCrypto,
    }),
    cryptoThresholds: t.field({
      type: [CryptoThresholdRef],
      resolve: async (_, __, ctx) => (await ctx.services.partners.balances(scopeOf(ctx))).cryptoThreshold,
    }),
  }),
});

builder.queryFields((t) => ({
  partner: t.field({
    type: PartnerRef,
    description: "The caller's partner account",
    resolve: (_, __, ctx) => ctx.services.partners.get(scopeOf(ctx)),
  }),
}));

const WhitelistWalletAddressInputRef = builder.inputType('WhitelistWalletAddressInput', {
  fields: (t) => ({
    address: t.string({ required: true }),
    coin: t.string({ required: true, description: 'usdc or usdt (any case)' }),
    network: t.string({ required: true, description: 'polygon, ethereum, solana, base, tron or arbitrum (any case)' }),
    label: t.string({ required: true }),
  }),
});

const WhitelistBankAccountInputRef = builder.inputType('WhitelistBankAccountInput', {
  fields: (t) => ({
    accountHolderName: t.string({ required: true }),
    accountHolderAddress: t.string({ required: true }),
    beneficiaryBankName: t.string({ required: true }),
    beneficiaryBankAddress: t.string({ required: true }),
    beneficiaryBankCountry: t.string({ required: true }),
    bankAccountNumber: t.string({ required: true, description: 'IBAN, or a domestic account number of 4 to 17 digits' }),
    bicSwift: t.string({ required: true }),
    fiatCurrency: t.string({ required: true, description: 'usd, eur or aed (any case)' }),
  }),
});

// The inputs are the use cases' own (NewWhitelistedWalletAddress, NewWhitelistedBankAccount): they go as they are,
// and their errors' paths are the input's.
builder.mutationFields((t) => ({
  whitelistWalletAddress: t.field({
    type: WhitelistedWalletAddressRef,
    errors: { types: MUTATION_ERRORS },
    args: { input: t.arg({ type: WhitelistWalletAddressInputRef, required: true }), idempotencyKey: t.arg.string() },
    resolve: (_, args, ctx) =>
      idempotentMutation(
        ctx,
        'whitelistWalletAddress',
        args,
        (em) => withInputPaths(ctx.services.partners.whitelistWalletAddress({ ...scopeOf(ctx), em }, withoutNulls(args.input))),
        (id) => ctx.services.partners.getWalletAddress(scopeOf(ctx), id),
      ),
  }),
  whitelistBankAccount: t.field({
    type: WhitelistedBankAccountRef,
    description: 'The result shows the account number in clear, once; every later read masks it',
    errors: { types: MUTATION_ERRORS },
    args: { input: t.arg({ type: WhitelistBankAccountInputRef, required: true }), idempotencyKey: t.arg.string() },
    resolve: (_, args, ctx) =>
      idempotentMutation(
        ctx,
        'whitelistBankAccount',
        args,
        async (em) => created(await withInputPaths(ctx.services.partners.whitelistBankAccount({ ...scopeOf(ctx), em }, withoutNulls(args.input)))),
        async (id) => created(await ctx.services.partners.getBankAccount(scopeOf(ctx), id)),
      ),
  }),
}));
