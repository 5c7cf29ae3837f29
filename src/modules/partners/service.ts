import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { useCase } from '../../platform/use-cases/use-case.js';
import type { EntityManager } from '@mikro-orm/sql';
import { randomUUID } from 'node:crypto';
import { ConflictError, NotFoundError } from '../../domain/errors.js';
import { parseInput } from '../../domain/validation.js';
import type { KeysetPage } from '../../platform/reads/pagination.js';
import type { Scope } from '../../platform/use-cases/scope.js';
import { isUuid } from '../../domain/identifiers/uuid.js';
import { ADVISORY_LOCKS, lockUntilCommit } from '../../platform/db/locks.js';
import type { CustomerService } from '../customers/service.js';
import { type PartnerBalances, partnerBalances } from './balances.js';
import { type DepositAddress, depositAddresses } from './deposit-addresses.js';
import { issueApiKey } from './api-keys.js';
import { Partner, WhitelistedBankAccount, WhitelistedWalletAddress } from './entities.js';
import { NewWhitelistedBankAccount, NewWhitelistedWalletAddress } from './inputs.js';
import type { AccountInfo } from './presenters.js';
import { type WalletAddressRow, type WhitelistedBankAccountRow, walletAddressPage, whitelistedBankAccountPage } from './queries.js';

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
  walletAddressPage(scope: Scope, page: KeysetPage): Promise<WalletAddressRow[]>;
  countWalletAddresses(scope: Scope): Promise<number>;
  bankAccountPage(scope: Scope, page: KeysetPage): Promise<WhitelistedBankAccountRow[]>;
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
    walletAddressPage,
    countWalletAddresses: ({ em }) => em.count(WhitelistedWalletAddress, {}),
    bankAccountPage: whitelistedBankAccountPage,
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
      return useCase(scope, async (em) => {
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
      return useCase(scope, async (em) => {
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

// Partners outside any caller's scope: the CLI and the first start (their API keys: api-keys.ts).

export const DEMO_PARTNER_NAME = 'Demo Partner';

// What work a key started later runs with (a webhook's subscription query): the key store's answer.
export { type ActiveKey, activeKey } from './api-keys.js';

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

/** On an empty database, creates the demo partner and returns its new sandbox key. */
export async function bootstrapDemoPartner(em: EntityManager): Promise<string | null> {
  return em.transactional(async (tx) => {
    // Two instances starting on one empty database: only the first creates the demo partner.
    await lockUntilCommit(tx, ADVISORY_LOCKS.demoBootstrap);
    if ((await tx.count(Partner, {})) > 0) return null;
    const { partner } = await ensurePartner(tx, DEMO_PARTNER_NAME);
    partner.email = 'demo@partner.example';
    partner.location = 'Sandbox';
    return issueApiKey(tx, partner, 'sandbox', {}, 'system');
  });
}
