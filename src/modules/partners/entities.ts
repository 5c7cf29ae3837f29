import type { InferKyselyDB } from '@mikro-orm/sql';
import { defineEntity, p } from '@mikro-orm/core';
import { ENVIRONMENTS } from '../../domain/environment.js';
import { SCOPES } from '../../domain/scopes.js';
import { FIAT_CURRENCIES, NETWORKS, TOKENS } from '../../domain/money.js';
import { TENANT_FILTERS, tenantColumns } from '../../platform/security/tenant.js';
import { createdAtColumn, idColumn } from '../../platform/db/columns.js';

const PartnerSchema = defineEntity({
  name: 'Partner',
  tableName: 'partners',
  properties: {
    id: idColumn(),
    name: p.text().unique(),
    email: p.text().nullable(),
    phone: p.text().nullable(),
    location: p.text().nullable(),
    /** Partner client reference shown as `client_ID` in accountInfo. */
    clientId: p.text().unique(),
    grantServices: p.array().default(['QUOTESANDORDERS']),
    /** Platform fee charged on every transfer, in basis points. */
    platformFeeBps: p.integer().default(0),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export class Partner extends PartnerSchema.class {}
PartnerSchema.setClass(Partner);

const ApiKeySchema = defineEntity({
  name: 'ApiKey',
  tableName: 'api_keys',
  properties: {
    id: idColumn(),
    partner: () => p.manyToOne(Partner),
    environment: p.enum(ENVIRONMENTS),
    /** Non-secret lookup prefix (`rk_sandbox_ab12cd34`); the full key is never stored. */
    prefix: p.text().unique(),
    secretHash: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
    /** Refreshed at most once a minute (apiKeyStore.markUsed), so it is exact to the minute. */
    lastUsedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
    /** What the key may do (domain/scopes.ts); every scope for a key created without naming any. */
    scopes: p.array().default([...SCOPES]),
    /** CIDR ranges (IPv4 and IPv6) the key may be used from; empty: anywhere. */
    allowedIps: p.array().default([]),
  },
});
export class ApiKey extends ApiKeySchema.class {}
ApiKeySchema.setClass(ApiKey);

/** A wallet the partner allows for deposits and withdrawals (Encryptus forensics whitelist). */
const WhitelistedWalletAddressSchema = defineEntity({
  name: 'WhitelistedWalletAddress',
  tableName: 'whitelisted_wallet_addresses',
  filters: TENANT_FILTERS,
  properties: {
    id: idColumn(),
    ...tenantColumns(),
    /** As the partner sent it (validated for the network; EVM case kept as given). */
    address: p.text(),
    coin: p.enum(TOKENS),
    network: p.enum(NETWORKS),
    label: p.text(),
    createdAt: createdAtColumn(),
  },
});
export class WhitelistedWalletAddress extends WhitelistedWalletAddressSchema.class {}
WhitelistedWalletAddressSchema.setClass(WhitelistedWalletAddress);

/** A bank account the partner allows for sell orders and fiat withdrawals. */
const WhitelistedBankAccountSchema = defineEntity({
  name: 'WhitelistedBankAccount',
  tableName: 'whitelisted_bank_accounts',
  filters: TENANT_FILTERS,
  properties: {
    id: idColumn(),
    ...tenantColumns(),
    accountHolderName: p.text(),
    accountHolderAddress: p.text(),
    beneficiaryBankName: p.text(),
    beneficiaryBankAddress: p.text(),
    beneficiaryBankCountry: p.text(),
    /** IBAN in electronic format (no spaces, upper case) or a domestic account number; shown masked after creation. */
    bankAccountNumber: p.text(),
    bicSwift: p.text(),
    fiatCurrency: p.enum(FIAT_CURRENCIES),
    createdAt: createdAtColumn(),
  },
});
export class WhitelistedBankAccount extends WhitelistedBankAccountSchema.class {}
WhitelistedBankAccountSchema.setClass(WhitelistedBankAccount);

export const partnerEntities = [Partner, ApiKey, WhitelistedWalletAddress, WhitelistedBankAccount];

/** The tables above as the module's query file reads them (platform/reads/queries.ts): SQL names, the entities' value types. */
export type PartnerTables = InferKyselyDB<typeof ApiKeySchema | typeof WhitelistedWalletAddressSchema | typeof WhitelistedBankAccountSchema>;
