import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import { randomUUID } from 'node:crypto';
import type { Environment } from '../../domain/environment.js';
import { ConflictError, NotFoundError } from '../../domain/errors.js';
import { parseInput } from '../../domain/validation.js';
import { type ApiKeyStore, KEY_REVOKED_CHANNEL, LAST_USED_RESOLUTION_MS, mintApiKey } from '../../platform/auth.js';
import { type KeysetPage, keysetQuery } from '../../platform/pagination.js';
import { type Scope, isUuid } from '../../platform/scope.js';
import type { CustomerService } from '../customers/service.js';
import { type PartnerBalances, partnerBalances } from './balances.js';
import { type DepositAddress, depositAddresses } from './deposit-addresses.js';
import { ApiKey, Partner, WhitelistedBankAccount, WhitelistedWalletAddress } from './entities.js';
import { NewWhitelistedBankAccount, NewWhitelistedWalletAddress } from './inputs.js';
import type { AccountInfo } from './presenters.js';

/**
 * The partner's own account: its record, whitelists, deposit addresses and balances. Inputs are
 * the domain's (inputs.ts), validated here whichever face sent them; a ValidationError's pointers
 * name the input's fields (`/bicSwift`), which each face maps to its own spelling in one place.
 */
export interface PartnerService {
  /** The caller's partner (404 when it no longer exists). */
  get(scope: Scope): Promise<Partner>;
  /** The caller's whitelisted wallet addresses, oldest first. */
  walletAddresses(scope: Scope): Promise<WhitelistedWalletAddress[]>;
  /** The caller's whitelisted bank accounts, oldest first. */
  bankAccounts(scope: Scope): Promise<WhitelistedBankAccount[]>;
  /** One page of each whitelist, oldest first, and how many entries it holds in all (GraphQL connections). */
  walletAddressPage(scope: Scope, page: KeysetPage): Promise<WhitelistedWalletAddress[]>;
  countWalletAddresses(scope: Scope): Promise<number>;
  bankAccountPage(scope: Scope, page: KeysetPage): Promise<WhitelistedBankAccount[]>;
  countBankAccounts(scope: Scope): Promise<number>;
  /** Where the partner sends crypto: one address per network in the sandbox, none in production. */
  depositAddresses(scope: Scope): DepositAddress[];
  /** Reserved fiat and crypto and the crypto thresholds, from the ledger. */
  balances(scope: Scope): Promise<PartnerBalances>;
  getWalletAddress(scope: Scope, id: string): Promise<WhitelistedWalletAddress>;
  getBankAccount(scope: Scope, id: string): Promise<WhitelistedBankAccount>;
  /** Batch loads for GraphQL dataloaders: only the caller's own partner and its entries in the caller's environment come back. */
  loadMany(scope: Scope, ids: readonly string[]): Promise<Partner[]>;
  loadWalletAddresses(scope: Scope, ids: readonly string[]): Promise<WhitelistedWalletAddress[]>;
  loadBankAccounts(scope: Scope, ids: readonly string[]): Promise<WhitelistedBankAccount[]>;

  /** Whitelists an address for deposits and withdrawals (409 when already there for its coin and network). */
  whitelistWalletAddress(scope: Scope, entry: NewWhitelistedWalletAddress): Promise<WhitelistedWalletAddress>;
  /** Whitelists a bank account for fiat withdrawals (409 when already there for its currency). */
  whitelistBankAccount(scope: Scope, account: NewWhitelistedBankAccount): Promise<WhitelistedBankAccount>;
  /** Everything `GET /v1/partners/accountInfo` shows, read in the caller's environment only. */
  accountInfo(scope: Scope): Promise<AccountInfo>;
}

const USER_LIST_LIMIT = 1000;

export interface PartnerServiceDeps {
  /** accountInfo's `user_list` comes from the customers module, through its service. */
  customers: Pick<CustomerService, 'list' | 'view'>;
}

/** Runs a flush where a unique index refuses duplicates, turning the violation into a 409. */
async function flushOrConflict(em: EntityManager, conflict: () => ConflictError) {
  try {
    await em.flush();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) throw conflict();
    throw error;
  }
}

export function createPartnerService({ customers }: PartnerServiceDeps): PartnerService {
  async function get({ em, actor }: Scope): Promise<Partner> {
    const partner = await em.findOne(Partner, { id: actor.partnerId });
    if (!partner) throw new NotFoundError('Partner');
    return partner;
  }

  async function getWalletAddress({ em }: Scope, id: string): Promise<WhitelistedWalletAddress> {
    const entry = isUuid(id) ? await em.findOne(WhitelistedWalletAddress, { id }) : null;
    if (!entry) throw new NotFoundError('Whitelisted wallet address');
    return entry;
  }

  async function getBankAccount({ em }: Scope, id: string): Promise<WhitelistedBankAccount> {
    const entry = isUuid(id) ? await em.findOne(WhitelistedBankAccount, { id }) : null;
    if (!entry) throw new NotFoundError('Whitelisted bank account');
    return entry;
  }

  const walletAddresses = ({ em }: Scope) => em.find(WhitelistedWalletAddress, {}, { orderBy: { createdAt: 'asc', id: 'asc' } });
  const bankAccounts = ({ em }: Scope) => em.find(WhitelistedBankAccount, {}, { orderBy: { createdAt: 'asc', id: 'asc' } });

  return {
    get,
    walletAddresses,
    bankAccounts,
    walletAddressPage: ({ em }, page) => {
      const { where, orderBy, limit } = keysetQuery(page);
      return em.find(WhitelistedWalletAddress, where, { orderBy, limit });
    },
    countWalletAddresses: ({ em }) => em.count(WhitelistedWalletAddress, {}),
    bankAccountPage: ({ em }, page) => {
      const { where, orderBy, limit } = keysetQuery(page);
      return em.find(WhitelistedBankAccount, where, { orderBy, limit });
    },
    countBankAccounts: ({ em }) => em.count(WhitelistedBankAccount, {}),
    depositAddresses: (scope: Scope) => depositAddresses(scope.actor),
    balances: (scope: Scope) => partnerBalances(scope),
    getWalletAddress,
    getBankAccount,
    // A partner sees itself only (partners are not tenant-filtered: the check is the caller's own id).
    loadMany: async (scope, ids) => (ids.includes(scope.actor.partnerId) ? [await get(scope)] : []),
    loadWalletAddresses: ({ em }, ids) => em.find(WhitelistedWalletAddress, { id: { $in: ids.filter(isUuid) } }),
    loadBankAccounts: ({ em }, ids) => em.find(WhitelistedBankAccount, { id: { $in: ids.filter(isUuid) } }),

    async whitelistWalletAddress(scope: Scope, entry: NewWhitelistedWalletAddress): Promise<WhitelistedWalletAddress> {
      const data = parseInput(NewWhitelistedWalletAddress, entry);
      return scope.em.transactional(async (em) => {
        const entry = em.create(WhitelistedWalletAddress, { id: randomUUID(), ...data, createdAt: new Date() });
        await flushOrConflict(
          em,
          () => new ConflictError('wallet_address_already_whitelisted', 'This address is already whitelisted for this coin and network'),
        );
        return entry;
      });
    },

    async whitelistBankAccount(scope: Scope, account: NewWhitelistedBankAccount): Promise<WhitelistedBankAccount> {
      const data = parseInput(NewWhitelistedBankAccount, account);
      return scope.em.transactional(async (em) => {
        const entry = em.create(WhitelistedBankAccount, { id: randomUUID(), ...data, createdAt: new Date() });
        await flushOrConflict(em, () => new ConflictError('bank_account_already_whitelisted', 'This bank account is already whitelisted for this currency'));
        return entry;
      });
    },

    /** Everything `GET /v1/partners/accountInfo` shows, read in the caller's environment only. */
    async accountInfo(scope: Scope): Promise<AccountInfo> {
      const partner = await get(scope);
      // Newest first, so that a partner with more customers than the cap sees its recent ones.
      const users = await customers.list(scope, {}, { limit: USER_LIST_LIMIT, inverted: true });
      return {
        partner,
        environment: scope.actor.environment,
        users: users.map(customers.view),
        walletAddresses: await walletAddresses(scope),
        bankAccounts: await bankAccounts(scope),
        depositAddresses: depositAddresses(scope.actor),
        balances: await partnerBalances(scope),
      };
    },
  };
}

// Partners and API keys outside any caller's scope: the CLI, the first start, authentication.

export const DEMO_PARTNER_NAME = 'Demo Partner';

/** Finds the partner by name or creates it. */
export async function ensurePartner(em: EntityManager, name: string): Promise<{ partner: Partner; created: boolean }> {
  const existing = await em.findOne(Partner, { name });
  if (existing) return { partner: existing, created: false };
  const partner = em.create(Partner, {
    id: randomUUID(),
    name,
    clientId: `client_${randomUUID().replace(/-/g, '').slice(0, 16)}`,
    grantServices: ['QUOTESANDORDERS'],
    platformFeeBps: 0,
  });
  await em.flush();
  return { partner, created: true };
}

/** Adds an API key; the clear key is returned here and never again. */
export async function issueApiKey(em: EntityManager, partner: Partner, environment: Environment): Promise<string> {
  const minted = mintApiKey(environment);
  em.create(ApiKey, { id: randomUUID(), partner, environment, prefix: minted.prefix, secretHash: minted.secretHash });
  await em.flush();
  return minted.key;
}

/** What the operator sees of a key (`npm run keys -- list`): never its secret or hash. */
export interface ApiKeySummary {
  id: string;
  prefix: string;
  partnerName: string;
  environment: Environment;
  createdAt: Date;
  /** To the minute (LAST_USED_RESOLUTION_MS); null when the key never authenticated. */
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

const summaryOf = (key: ApiKey): ApiKeySummary => ({
  id: key.id,
  prefix: key.prefix,
  partnerName: key.partner.name,
  environment: key.environment,
  createdAt: key.createdAt,
  lastUsedAt: key.lastUsedAt ?? null,
  revokedAt: key.revokedAt ?? null,
});

/** Every key, or one partner's (404 when no partner has that name), by partner then age; revoked ones included. */
export async function listApiKeys(em: EntityManager, filter: { partner?: string } = {}): Promise<ApiKeySummary[]> {
  if (filter.partner !== undefined && !(await em.findOne(Partner, { name: filter.partner }))) throw new NotFoundError('Partner');
  const keys = await em.find(ApiKey, filter.partner === undefined ? {} : { partner: { name: filter.partner } }, {
    populate: ['partner'],
    orderBy: { partner: { name: 'asc' }, createdAt: 'asc', id: 'asc' },
  });
  return keys.map(summaryOf);
}

/**
 * Revokes the key with this prefix or id (404 when none has it). Every instance drops the key from
 * the verified keys it keeps (platform/auth.ts) when the notification sent by this transaction's
 * commit reaches it, so REST and GraphQL refuse it within moments everywhere; open subscriptions
 * are closed by their instance's watch (platform/key-watch.ts). Revoking twice keeps the first time.
 */
export async function revokeApiKey(em: EntityManager, prefixOrId: string): Promise<{ key: ApiKeySummary; alreadyRevoked: boolean }> {
  const where = isUuid(prefixOrId) ? { id: prefixOrId.toLowerCase() } : { prefix: prefixOrId };
  return em.transactional(async (tx) => {
    // Conditional, so two revocations racing leave the first one's time.
    const revoked = await tx.nativeUpdate(ApiKey, { ...where, revokedAt: null }, { revokedAt: new Date() });
    const key = await tx.findOne(ApiKey, where, { populate: ['partner'], refresh: true });
    if (!key) throw new NotFoundError('API key');
    if (revoked > 0) await tx.execute('select pg_notify(?, ?)', [KEY_REVOKED_CHANNEL, key.id]);
    return { key: summaryOf(key), alreadyRevoked: revoked === 0 };
  });
}

const DEMO_BOOTSTRAP_LOCK = 7_314_003;

/** The keys as authentication needs them (platform/auth.ts); only unrevoked keys are found. */
export const apiKeyStore: ApiKeyStore = {
  async find(em, prefix) {
    const found = await em.findOne(ApiKey, { prefix, revokedAt: null });
    return (
      found && { id: found.id, partnerId: found.partner.id, environment: found.environment, secretHash: found.secretHash, lastUsedAt: found.lastUsedAt ?? null }
    );
  },

  async markUsed(em, id) {
    // Conditional on the stored time, so instances racing on one busy key write it once a minute between them.
    await em.execute('update api_keys set last_used_at = now() where id = ? and (last_used_at is null or last_used_at <= now() - make_interval(secs => ?))', [
      id,
      LAST_USED_RESOLUTION_MS / 1000,
    ]);
  },

  async activeAmong(em, ids) {
    if (!ids.length) return new Set();
    const active = await em.find(ApiKey, { id: { $in: [...ids] }, revokedAt: null }, { fields: ['id'] });
    return new Set(active.map((key) => key.id));
  },
};

/** On an empty database, creates the demo partner and returns its new sandbox key. */
export async function bootstrapDemoPartner(em: EntityManager): Promise<string | null> {
  return em.transactional(async (tx) => {
    // Two instances starting on one empty database: only the first creates the demo partner.
    await tx.execute('select pg_advisory_xact_lock(?)', [DEMO_BOOTSTRAP_LOCK]);
    if ((await tx.count(Partner, {})) > 0) return null;
    const { partner } = await ensurePartner(tx, DEMO_PARTNER_NAME);
    partner.email = 'demo@partner.example';
    partner.location = 'Sandbox';
    return issueApiKey(tx, partner, 'sandbox');
  });
}
