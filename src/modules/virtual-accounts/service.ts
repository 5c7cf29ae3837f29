import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import { useCase } from '../../platform/use-cases/use-case.js';
import { randomUUID } from 'node:crypto';
import { type Environment, assertSandbox, railsNotConnected } from '../../domain/environment.js';
import { assertTokenOffered, type NetworkTokens } from '../../domain/network-tokens.js';
import { ConflictError, NotFoundError } from '../../domain/errors.js';
import { Decimal, RAILS_OF_CURRENCY } from '../../domain/money.js';
import type { BankRails, CollectionAccount } from '../../rails/port.js';
import { parseInput } from '../../domain/validation.js';
import { recordEvent } from '../../platform/messaging/outbox.js';
import { REDACTED } from '../../domain/redaction.js';
import type { KeysetPage, OffsetPage } from '../../platform/reads/pagination.js';
import { type Scope, sameId } from '../../platform/use-cases/scope.js';
import { ACROSS_TENANTS } from '../../platform/security/tenant.js';
import type { EntityManager } from '@mikro-orm/sql';
import { isUuid } from '../../domain/identifiers/uuid.js';
import type { Customer, CustomerService } from '../customers/service.js';
import { VirtualAccount } from './entities.js';
import { type VirtualAccountRow, virtualAccountPage } from './queries.js';
import { NewVirtualAccount, PendingIssuance } from './inputs.js';
import { depositAccountNumber, depositInstructionsFor, instructionsAt, issuedAtOnce } from './issuance.js';
import { presentVirtualAccount } from './presenters.js';

export type { VirtualAccount };

/**
 * Virtual accounts' use cases. Inputs are the domain's (inputs.ts),
 * validated here whichever face sent them; a ValidationError's pointers name the input's fields
 * (`/sourceRails`), which each face maps to its own spelling in one place.
 */
export interface VirtualAccountService {
  /** One of the caller's virtual accounts, whoever its customer; 404 when unknown or not the caller's. */
  get(scope: Scope, id: string): Promise<VirtualAccount>;
  /** One of the customer's virtual accounts; 404 when it belongs to another customer. */
  getForCustomer(scope: Scope, customerId: string, id: string): Promise<VirtualAccount>;
  /**
   * The account of `environment` whose deposits arrive on `number` (an IBAN, spaces and case aside, or an account
   * number), whichever partner's: what a bank's credit names. Null when none.
   */
  findByDepositAccount(em: EntityManager, environment: Environment, number: string): Promise<VirtualAccount | null>;
  /** Opens a virtual account: active with deposit instructions (USD, EUR) or pending (AED, USD over SWIFT). */
  create(scope: Scope, customerId: string, account: NewVirtualAccount): Promise<VirtualAccount>;
  /**
   * Sandbox: the banking partner issues a pending account. `customerId` null: whichever of the
   * caller's customers holds it (the account's id names its customer; REST's path names both).
   */
  issuePending(scope: Scope, customerId: string | null, issuance: PendingIssuance): Promise<VirtualAccount>;
  /** A customer's virtual accounts, oldest first. */
  listForCustomer(scope: Scope, customerId: string, page: OffsetPage): Promise<VirtualAccount[]>;
  /** One keyset page of the accounts the filter matches (a GraphQL connection), oldest first. */
  list(scope: Scope, filter: VirtualAccountFilter, page: KeysetPage): Promise<VirtualAccountRow[]>;
  /** How many accounts the filter matches (a connection's totalCount). */
  count(scope: Scope, filter: VirtualAccountFilter): Promise<number>;
  /** Batch load for GraphQL dataloaders: only the caller's accounts come back. */
  loadMany(scope: Scope, ids: readonly string[]): Promise<VirtualAccount[]>;
  /** Erasure, in the caller's transaction: the holder name in the customer's deposit instructions reads `[redacted]`. */
  redact(scope: Scope, customerId: string): Promise<void>;
}

/** Which accounts a page lists: one customer's (a customer the caller already holds). */
export interface VirtualAccountFilter {
  customerId: string;
}

/** The conditions of a filter (a page and its count share them). */
const accountsMatching = (filter: VirtualAccountFilter) => ({ customerId: filter.customerId });

export interface VirtualAccountServiceDeps {
  customers: Pick<CustomerService, 'get' | 'getForNewBusiness' | 'open'>;
  /** The stablecoins offered on each network (NETWORK_TOKENS): an account pays out only an offered one. */
  networkTokens: NetworkTokens;
  /** Each environment's fiat leg (rails/registry.ts), or null where no bank is connected. */
  bank(environment: Environment): BankRails | null;
}

/** Named by the migration: the index that makes identical parameters a conflict. */
const SAME_PARAMETERS_INDEX = 'virtual_accounts_same_parameters';

const holderNameOf = (customer: Customer) => customer.companyName ?? [customer.firstName, customer.lastName].filter(Boolean).join(' ');

/**
 * Issues the account, addressed to the customer: at `issued` (a number of the live bank's range), else with the
 * sandbox's numbers, made up from its id.
 */
function issue(account: VirtualAccount, customer: Customer, issued: CollectionAccount | null = null) {
  const request = { currency: account.sourceCurrency, rails: account.sourceRails ?? null };
  const instructions = issued ? instructionsAt(request, issued, holderNameOf(customer)) : depositInstructionsFor(request, account.id, holderNameOf(customer));
  account.status = 'active';
  account.depositInstructions = instructions;
  account.depositAccountNumber = depositAccountNumber(instructions);
}

/**
 * The next number of the bank's range for the account's currency, taken in the account's transaction (the counter's
 * row stays locked until it ends): null when the bank reserved no range, or it is used up.
 */
async function numberFromBank(em: Scope['em'], bank: BankRails, environment: Environment, account: VirtualAccount): Promise<CollectionAccount | null> {
  if (!bank.virtualAccounts) return null;
  const [taken] = await em.execute<{ issued: string }[]>(
    `insert into virtual_account_numbers (environment, currency, issued) values (?, ?, 1)
     on conflict (environment, currency) do update set issued = virtual_account_numbers.issued + 1 returning issued`,
    [environment, account.sourceCurrency],
  );
  const nth = Number(taken!.issued) - 1;
  if (nth >= bank.virtualAccounts.size) return null;
  return bank.virtualAccounts.account(account.sourceCurrency, account.sourceRails ?? RAILS_OF_CURRENCY[account.sourceCurrency][0]!, nth);
}

/** A state conflict, not a bad request: the same call was right while the account was pending. */
const alreadyActive = () => new ConflictError('virtual_account_already_active', 'The virtual account is already active: the bank issued it already');

export function createVirtualAccountService({ customers, networkTokens, bank: bankOf }: VirtualAccountServiceDeps): VirtualAccountService {
  async function get({ em }: Scope, id: string): Promise<VirtualAccount> {
    const account = isUuid(id) ? await em.findOne(VirtualAccount, { id }) : null;
    if (!account) throw new NotFoundError('Virtual account');
    return account;
  }

  async function flushNew(em: Scope['em']) {
    try {
      await em.flush();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException && String(error.message).includes(SAME_PARAMETERS_INDEX)) {
        throw new ConflictError(
          'virtual_account_exists',
          'This customer already has a virtual account with these parameters; read it with GET …/virtual-account',
        );
      }
      throw error;
    }
  }

  return {
    async redact({ em }: Scope, customerId: string): Promise<void> {
      for (const account of await em.find(VirtualAccount, { customerId, depositInstructions: { $ne: null } })) {
        account.depositInstructions = { ...account.depositInstructions!, account_holder_name: REDACTED };
      }
      await em.flush();
    },

    get,

    findByDepositAccount: (em, environment, number) =>
      em.findOne(VirtualAccount, { environment, depositAccountNumber: number.replaceAll(' ', '').toUpperCase() }, ACROSS_TENANTS),

    async getForCustomer(scope, customerId, id) {
      const account = await get(scope, id);
      if (!sameId(account.customerId, customerId)) throw new NotFoundError('Virtual account');
      return account;
    },

    async create(scope, customerId, input) {
      const data = parseInput(NewVirtualAccount, input);
      assertTokenOffered(networkTokens, data.destinationNetwork, data.destinationToken);
      return useCase(scope, async (em) => {
        // Held (FOR SHARE) until commit: an erasure of the customer waits, or ran first and is refused here.
        const customer = await customers.getForNewBusiness({ ...scope, em }, customerId);
        // A currency the environment's bank does not move has no deposit instructions to issue: refused, as with no bank.
        const bank = bankOf(scope.actor.environment);
        if (!bank?.serves(data.sourceCurrency, data.sourceRails ?? RAILS_OF_CURRENCY[data.sourceCurrency][0]!)) throw railsNotConnected('bank');
        const now = new Date();
        const account = em.create(VirtualAccount, {
          id: randomUUID(),
          customerId: customer.id,
          status: 'pending',
          sourceCurrency: data.sourceCurrency,
          sourceRails: data.sourceRails ?? null,
          destinationToken: data.destinationToken,
          destinationNetwork: data.destinationNetwork,
          destinationAddress: data.destinationAddress ?? null,
          developerFeePercent: data.developerFeePercent === undefined ? null : new Decimal(data.developerFeePercent),
          depositInstructions: null,
          depositAccountNumber: null,
          createdAt: now,
          updatedAt: now,
        });
        // The sandbox's numbers are made up; a live bank's come from the range it reserved, and without one (or once it
        // is used up) its account waits, pending, for numbers the bank issues.
        const atOnce = issuedAtOnce({ currency: account.sourceCurrency, rails: account.sourceRails ?? null });
        const issued = atOnce && bank.mode === 'live' ? await numberFromBank(em, bank, scope.actor.environment, account) : null;
        if (atOnce && (bank.mode === 'simulated' || issued)) {
          // The holder's name is opened (one key read) only when the account is issued now.
          await customers.open({ ...scope, em }, [customer]);
          issue(account, customer, issued);
        }
        await flushNew(em);
        await recordEvent(em, scope.actor, {
          type: 'virtual_account.created',
          entityType: 'virtual_account',
          customerId: account.customerId,
          entityId: account.id,
          payload: presentVirtualAccount(account),
          subject: { entity: account },
        });
        return account;
      });
    },

    async issuePending(scope, customerId, input) {
      assertSandbox(scope.actor);
      const data = parseInput(PendingIssuance, input);
      return useCase(scope, async (em) => {
        const named = customerId === null ? null : await customers.get({ ...scope, em }, customerId);
        // Locked so that two concurrent simulations cannot both issue it (and announce it twice).
        const account = await em.findOne(
          VirtualAccount,
          { id: data.virtualAccountId, ...(named && { customerId: named.id }) },
          { lockMode: LockMode.PESSIMISTIC_WRITE },
        );
        if (!account) throw new NotFoundError('Virtual account');
        const customer = named ?? (await customers.get({ ...scope, em }, account.customerId));
        if (account.status !== 'pending') throw alreadyActive();
        issue(account, customer);
        account.updatedAt = new Date();
        await em.flush();
        await recordEvent(em, scope.actor, {
          type: 'virtual_account.status.updated',
          entityType: 'virtual_account',
          customerId: account.customerId,
          entityId: account.id,
          payload: presentVirtualAccount(account),
          subject: { entity: account },
        });
        return account;
      });
    },

    async listForCustomer(scope, customerId, page) {
      const customer = await customers.get(scope, customerId);
      return scope.em.find(VirtualAccount, { customerId: customer.id }, { orderBy: { createdAt: 'asc', id: 'asc' }, limit: page.limit, offset: page.skip });
    },

    list: (scope, filter, page) => virtualAccountPage(scope, filter.customerId, page),

    count: ({ em }, filter) => em.count(VirtualAccount, accountsMatching(filter)),

    loadMany: ({ em }, ids) => em.find(VirtualAccount, { id: { $in: ids.filter(isUuid) } }),
  };
}
