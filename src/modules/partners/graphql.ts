import { ConflictError, UnprocessableError, ValidationError } from '../../domain/errors.js';
import { ENVIRONMENTS } from '../../domain/environment.js';
import { maskAccountNumber } from '../../domain/identifiers/bank.js';
import { withoutNulls } from '../../graphql/types/arguments.js';
import { builder } from '../../graphql/builder.js';
import { connectionFieldOptions, nodeConnection, ownPosition, resolveKeysetPage } from '../../graphql/types/connection.js';
import { scopeOf } from '../../graphql/context.js';
import { BlockchainNetworkEnum, domainEnum, FiatCurrencyEnum, StablecoinEnum } from '../../graphql/types/enums.js';
import { creatingMutation } from '../../graphql/types/idempotency.js';
import { idempotencyKeyField, payloadOf } from '../../graphql/types/payload.js';
import type { CryptoBalance, CryptoThreshold, FiatBalance } from './balances.js';
import type { DepositAddress } from './deposit-addresses.js';
import type { Partner, WhitelistedBankAccount, WhitelistedWalletAddress } from './entities.js';

export const EnvironmentEnum = domainEnum('Environment', ENVIRONMENTS, {
  description: 'Where an API key acts: sandbox (simulated money) or production',
  describe: { sandbox: 'Simulated money: rk_sandbox_ keys, simulations allowed', production: 'Real money: rk_live_ keys' },
});

/** The services a partner may be granted (Encryptus's names, stored as they are). */
const GRANT_SERVICES = ['FORENSICS', 'QUOTESANDORDERS', 'CRYPTOCUSTODYSOL'] as const;
type GrantService = (typeof GRANT_SERVICES)[number];
const GrantServiceEnum = domainEnum('GrantService', GRANT_SERVICES, {
  description: "A service the partner is granted (Encryptus's names)",
  describe: {
    FORENSICS: 'Forensics: the wallet and bank account whitelists',
    QUOTESANDORDERS: 'Quotes and orders: on-ramp and off-ramp transfers',
    CRYPTOCUSTODYSOL: "Crypto custody (Encryptus's custody solution)",
  },
});
const isGrantService = (value: string): value is GrantService => (GRANT_SERVICES as readonly string[]).includes(value);

const WhitelistedWalletAddressRef = builder.loadableNodeRef<WhitelistedWalletAddress>('WhitelistedWalletAddress', {
  id: { resolve: (w) => w.id },
  load: (ids: string[], ctx) => ctx.services.partners.loadWalletAddresses(scopeOf(ctx), ids),
  sort: (w) => w.id,
});

WhitelistedWalletAddressRef.implement({
  description: "A wallet address on the partner's whitelist (REST: POST /v1//partners/forensics/whitelist/walletAddress)",
  fields: (t) => ({
    databaseId: t.expose('id', { type: 'UUID', description: 'The id REST shows for this entry (id)' }),
    address: t.exposeString('address', { description: 'The address, valid for its network' }),
    coin: t.field({ type: StablecoinEnum, description: 'The stablecoin the entry is for', resolve: (w) => w.coin }),
    network: t.field({ type: BlockchainNetworkEnum, description: 'The chain the address is on', resolve: (w) => w.network }),
    label: t.exposeString('label', { description: "The partner's own name for the address" }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was whitelisted' }),
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

const WhitelistedBankAccountRef = builder.loadableNodeRef<BankAccountView>('WhitelistedBankAccount', {
  id: { resolve: (v) => v.id },
  load: async (ids: string[], ctx) => (await ctx.services.partners.loadBankAccounts(scopeOf(ctx), ids)).map(listed),
  sort: (v) => v.id,
});

WhitelistedBankAccountRef.implement({
  description: "A bank account on the partner's whitelist (REST: POST /v1//partners/forensics/whitelist/bankAccount)",
  fields: (t) => ({
    databaseId: t.expose('id', { type: 'UUID', description: 'The id REST shows for this entry (id)' }),
    accountHolderName: t.string({ description: "The account holder's name", resolve: (v) => v.entry.accountHolderName }),
    accountHolderAddress: t.string({ description: "The account holder's address, free text", resolve: (v) => v.entry.accountHolderAddress }),
    beneficiaryBankName: t.string({ description: 'The name of the bank', resolve: (v) => v.entry.beneficiaryBankName }),
    beneficiaryBankAddress: t.string({ description: "The bank's address, free text", resolve: (v) => v.entry.beneficiaryBankAddress }),
    beneficiaryBankCountry: t.string({ description: "The bank's country, free text as given", resolve: (v) => v.entry.beneficiaryBankCountry }),
    bankAccountNumber: t.string({
      description: 'Masked (…6789) everywhere except in the result of whitelistBankAccount',
      resolve: (v) => (v.clearNumber ? v.entry.bankAccountNumber : maskAccountNumber(v.entry.bankAccountNumber)),
    }),
    bicSwift: t.string({ description: "The bank's BIC, 8 or 11 characters, upper case", resolve: (v) => v.entry.bicSwift }),
    fiatCurrency: t.field({ type: FiatCurrencyEnum, description: 'The currency the entry is for', resolve: (v) => v.entry.fiatCurrency }),
    createdAt: t.field({ type: 'DateTime', description: 'When it was whitelisted', resolve: (v) => v.entry.createdAt }),
  }),
});

const WhitelistedWalletAddressConnection = nodeConnection(WhitelistedWalletAddressRef, 'WhitelistedWalletAddress');
const WhitelistedBankAccountConnection = nodeConnection(WhitelistedBankAccountRef, 'WhitelistedBankAccount');

const DepositAddressRef = builder.objectRef<DepositAddress>('DepositAddress').implement({
  description: "The partner's deposit address on one network (REST: accountInfo deposit_addresses)",
  fields: (t) => ({
    network: t.field({ type: BlockchainNetworkEnum, description: 'The chain the address is on', resolve: (d) => d.network }),
    address: t.exposeString('address', { description: 'The address (sandbox: derived from the partner id, valid for its network, nobody holds its key)' }),
    coins: t.field({ type: [StablecoinEnum], description: 'The stablecoins it takes', resolve: (d) => d.coins }),
  }),
});

const FiatBalanceRef = builder.objectRef<FiatBalance>('FiatBalance').implement({
  description: "Fiat held for the partner's customers in one currency, from the ledger",
  fields: (t) => ({
    currency: t.field({ type: FiatCurrencyEnum, description: 'The currency', resolve: (b) => b.currency }),
    balance: t.expose('balance', { type: 'Decimal', description: 'Deposits received and not yet paid out or returned (2 decimals)' }),
  }),
});
const CryptoBalanceRef = builder.objectRef<CryptoBalance>('CryptoBalance').implement({
  description: "Tokens held for the partner's customers in one stablecoin, from the ledger",
  fields: (t) => ({
    coin: t.field({ type: StablecoinEnum, description: 'The stablecoin', resolve: (b) => b.coin }),
    balance: t.expose('balance', { type: 'Decimal', description: 'Deposits received and not yet paid out or returned (6 decimals)' }),
  }),
});
const CryptoThresholdRef = builder.objectRef<CryptoThreshold>('CryptoThreshold').implement({
  description: "A stablecoin's minimum balance and how much of the current balance is above it",
  fields: (t) => ({
    coin: t.field({ type: StablecoinEnum, description: 'The stablecoin', resolve: (b) => b.coin }),
    minimumThreshold: t.expose('minimumThreshold', { type: 'Decimal', description: 'The minimum balance to keep (none is configured yet: 0)' }),
    currentBalance: t.expose('currentBalance', { type: 'Decimal', description: 'The balance now (reservedCrypto of this coin)' }),
    remainingBalance: t.expose('remainingBalance', { type: 'Decimal', description: 'max(current - minimum, 0)' }),
  }),
});

// One partner in both environments: its id is the same with either key, the fields below show the key's environment.
const PartnerRef = builder.loadableNodeRef<Partner>('Partner', {
  id: { resolve: (p) => p.id },
  load: (ids: string[], ctx) => ctx.services.partners.loadMany(scopeOf(ctx), ids),
  sort: (p) => p.id,
});

PartnerRef.implement({
  description: "The caller's own partner account, seen from the API key's environment (REST: GET /v1/partners/accountInfo)",
  fields: (t) => ({
    databaseId: t.expose('id', { type: 'UUID', description: "The partner's own UUID (the same with a sandbox or a production key)" }),
    name: t.exposeString('name', { description: "The partner's enterprise name (REST: enterpriseName)" }),
    email: t.exposeString('email', { nullable: true, description: "The representative's email (REST: clientRepresentiveEmail); null when not recorded" }),
    phone: t.exposeString('phone', { nullable: true, description: "The representative's phone (REST: clientRepresentivePhoneNo); null when not recorded" }),
    location: t.exposeString('location', { nullable: true, description: 'Where the enterprise is (REST: enterpriseLocation); null when not recorded' }),
    clientId: t.exposeString('clientId', { description: "The partner's client reference (REST: client_ID)" }),
    grantServices: t.field({
      type: [GrantServiceEnum],
      description: 'The services the partner is granted (REST: grant_services, comma-separated)',
      resolve: (p) => p.grantServices.filter(isGrantService),
    }),
    platformFeeBps: t.exposeInt('platformFeeBps', { description: 'Platform fee charged on every transfer, in basis points' }),
    activeEnvironment: t.field({
      type: EnvironmentEnum,
      description: "The calling API key's environment (REST: active_env); the other fields show this environment's data",
      resolve: (_, __, ctx) => scopeOf(ctx).actor.environment,
    }),
    whitelistedWalletAddresses: t.connection(
      {
        type: WhitelistedWalletAddressRef,
        description: 'Wallet addresses whitelisted in this environment, oldest first',
        ...connectionFieldOptions(),
        resolve: (_, args, ctx, info) =>
          resolveKeysetPage(ctx, info, args, ownPosition, (page) => ctx.services.partners.walletAddressPage(scopeOf(ctx), page), {
            count: () => ctx.services.partners.countWalletAddresses(scopeOf(ctx)),
          }),
      },
      WhitelistedWalletAddressConnection,
    ),
    whitelistedBankAccounts: t.connection(
      {
        type: WhitelistedBankAccountRef,
        description: 'Bank accounts whitelisted in this environment, oldest first (numbers masked)',
        ...connectionFieldOptions(),
        resolve: (_, args, ctx, info) =>
          resolveKeysetPage(
            ctx,
            info,
            args,
            (v: BankAccountView) => v.entry,
            async (page) => (await ctx.services.partners.bankAccountPage(scopeOf(ctx), page)).map(listed),
            { count: () => ctx.services.partners.countBankAccounts(scopeOf(ctx)) },
          ),
      },
      WhitelistedBankAccountConnection,
    ),
    depositAddresses: t.field({
      type: [DepositAddressRef],
      description: 'One per network in the sandbox; none in production until a custody provider is connected',
      resolve: (_, __, ctx) => ctx.services.partners.depositAddresses(scopeOf(ctx)),
    }),
    reservedFiat: t.field({
      type: [FiatBalanceRef],
      description: "Fiat held for the partner's customers, one entry per currency (REST: reserved_fiat)",
      resolve: async (_, __, ctx) => (await ctx.services.partners.balances(scopeOf(ctx))).reservedFiat,
    }),
    reservedCrypto: t.field({
      type: [CryptoBalanceRef],
      description: "Tokens held for the partner's customers, one entry per stablecoin (REST: reserved_crypto)",
      resolve: async (_, __, ctx) => (await ctx.services.partners.balances(scopeOf(ctx))).reservedCrypto,
    }),
    cryptoThresholds: t.field({
      type: [CryptoThresholdRef],
      description: 'Minimum balance per stablecoin and what remains above it (REST: crypto_threshold)',
      resolve: async (_, __, ctx) => (await ctx.services.partners.balances(scopeOf(ctx))).cryptoThreshold,
    }),
  }),
});

builder.queryFields((t) => ({
  partner: t.field({
    keyScope: 'read',
    type: PartnerRef,
    description: "The caller's partner account",
    resolve: (_, __, ctx) => ctx.services.partners.get(scopeOf(ctx)),
  }),
}));

const WhitelistWalletAddressInputRef = builder.inputType('WhitelistWalletAddressInput', {
  description: 'A wallet address to whitelist',
  fields: (t) => ({
    address: t.string({
      required: true,
      description: 'Valid for the network: EVM 0x + 40 hex (EIP-55 when mixed case), Solana base58, Tron T… (invalid_address)',
    }),
    coin: t.field({ type: StablecoinEnum, required: true, description: 'The stablecoin the entry is for' }),
    network: t.field({ type: BlockchainNetworkEnum, required: true, description: 'The chain the address is on' }),
    label: t.string({ required: true, description: 'Your own name for the address' }),
    idempotencyKey: idempotencyKeyField(t),
  }),
});

const WhitelistBankAccountInputRef = builder.inputType('WhitelistBankAccountInput', {
  description: 'A bank account to whitelist; every field required and not blank',
  fields: (t) => ({
    accountHolderName: t.string({ required: true, description: "The account holder's name" }),
    accountHolderAddress: t.string({ required: true, description: "The account holder's address, free text" }),
    beneficiaryBankName: t.string({ required: true, description: 'The name of the bank' }),
    beneficiaryBankAddress: t.string({ required: true, description: "The bank's address, free text" }),
    beneficiaryBankCountry: t.string({ required: true, description: "The bank's country, free text" }),
    bankAccountNumber: t.string({ required: true, description: 'IBAN, or a domestic account number of 4 to 17 digits' }),
    bicSwift: t.string({ required: true, description: "The bank's BIC, 8 or 11 characters (invalid_bic)" }),
    fiatCurrency: t.field({ type: FiatCurrencyEnum, required: true, description: 'The currency the entry is for' }),
    idempotencyKey: idempotencyKeyField(t),
  }),
});

// The inputs are the use cases' own (NewWhitelistedWalletAddress, NewWhitelistedBankAccount): they go as they are,
// and their errors' paths are the input's. Both create an entry: input rules, a duplicate (ConflictError) and idempotency.
builder.mutationFields((t) => ({
  whitelistWalletAddress: t.field({
    keyScope: 'write',
    type: WhitelistedWalletAddressRef,
    description: 'ConflictError wallet_address_already_whitelisted when the address is already there for its coin and network',
    errors: payloadOf('WhitelistWalletAddress', 'whitelistedWalletAddress', [ValidationError, ConflictError, UnprocessableError]),
    args: {
      input: t.arg({
        type: WhitelistWalletAddressInputRef,
        required: true,
        description: 'What to do, as one input object (ValidationError paths point into it)',
      }),
    },
    resolve: creatingMutation({
      run: (entry, scope, { services }) => services.partners.whitelistWalletAddress(scope, withoutNulls(entry)),
      load: (id, scope, { services }) => services.partners.getWalletAddress(scope, id),
    }),
  }),
  whitelistBankAccount: t.field({
    keyScope: 'write',
    type: WhitelistedBankAccountRef,
    description:
      'The result shows the account number in clear, once; every later read masks it. ConflictError bank_account_already_whitelisted when the account is already there for its currency',
    errors: payloadOf('WhitelistBankAccount', 'whitelistedBankAccount', [ValidationError, ConflictError, UnprocessableError]),
    args: {
      input: t.arg({
        type: WhitelistBankAccountInputRef,
        required: true,
        description: 'What to do, as one input object (ValidationError paths point into it)',
      }),
    },
    resolve: creatingMutation({
      run: (account, scope, { services }) => services.partners.whitelistBankAccount(scope, withoutNulls(account)),
      answer: created,
      load: (id, scope, { services }) => services.partners.getBankAccount(scope, id).then(created),
    }),
  }),
}));
