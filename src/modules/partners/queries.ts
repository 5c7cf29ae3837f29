import type { KeysetPage } from '../../platform/reads/pagination.js';
import { type Columns, type Selected, keyset, readsOver, rowShape, rowsOf, selecting } from '../../platform/reads/queries.js';
import { type Scope, modelOf } from '../../platform/use-cases/scope.js';
import { ApiKey, type PartnerTables, WhitelistedBankAccount, WhitelistedWalletAddress } from './entities.js';

/**
 * The partner's pages: its whitelists and its API keys, each a keyset page, oldest first, as plain rows.
 * API keys are not tenant-filtered entities (authentication reads them before a tenant is known), but their
 * rows carry the tenant's columns, so `tenant` scopes their page as every other.
 */
const { tenant } = readsOver<PartnerTables>();

export type WalletAddressRow = Columns<WhitelistedWalletAddress>;
export type WhitelistedBankAccountRow = Columns<WhitelistedBankAccount>;

/** What a key's page shows: never its secret's hash, nor its partner (the caller's). */
const API_KEY_COLUMNS = ['prefix', 'environment', 'scopes', 'allowedIps', 'createdAt', 'lastUsedAt', 'revokedAt'] as const;
export type ApiKeyRow = Selected<Columns<ApiKey>, (typeof API_KEY_COLUMNS)[number]>;

export function walletAddressPage(scope: Scope, page: KeysetPage): Promise<WalletAddressRow[]> {
  const addresses = rowShape(modelOf(scope), WhitelistedWalletAddress, 'w');
  return rowsOf(keyset(selecting(tenant(scope, 'whitelisted_wallet_addresses', 'w'), addresses), page, 'w'), addresses);
}

export function whitelistedBankAccountPage(scope: Scope, page: KeysetPage): Promise<WhitelistedBankAccountRow[]> {
  const accounts = rowShape(modelOf(scope), WhitelistedBankAccount, 'b');
  return rowsOf(keyset(selecting(tenant(scope, 'whitelisted_bank_accounts', 'b'), accounts), page, 'b'), accounts);
}

export function apiKeyPage(scope: Scope, page: KeysetPage): Promise<ApiKeyRow[]> {
  const keys = rowShape(modelOf(scope), ApiKey, 'k', API_KEY_COLUMNS);
  return rowsOf(keyset(selecting(tenant(scope, 'api_keys', 'k'), keys), page, 'k'), keys);
}
