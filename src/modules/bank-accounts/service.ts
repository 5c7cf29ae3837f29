import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { useCase } from '../../platform/use-cases/use-case.js';
import { randomUUID } from 'node:crypto';
import { ConflictError, NotFoundError } from '../../domain/errors.js';
import { parseInput } from '../../domain/validation.js';
import { recordEvent } from '../../platform/messaging/outbox.js';
import type { KeysetPage, OffsetPage } from '../../platform/reads/pagination.js';
import { type Scope, sameId } from '../../platform/use-cases/scope.js';
import { isUuid } from '../../domain/identifiers/uuid.js';
import type { DataKeys } from '../customers/data-keys.js';
import type { CustomerService } from '../customers/service.js';
import { BankAccount } from './entities.js';
import { type BankAccountRow, bankAccountPage } from './queries.js';
import { NewBankAccount } from './inputs.js';
import { presentBankAccount } from './presenters.js';
import { type BankAccountDetails, columnsOf, detailsOf, hiddenNumber, personalValuesOf } from './records.js';
import { REDACTED, redactedAddress } from '../../domain/redaction.js';

/**
 * External accounts: the customer's own bank accounts that off-ramp payouts go to.
 * Inputs are the domain's (inputs.ts), validated here whichever face sent them; a
 * ValidationError's pointers name the input's fields (`/iban/ibanNumber`), which each face maps
 * to its own spelling in one place.
 */
export interface BankAccountService {
  /**
   * Registers a bank account for one of the caller's customers (409 when it is already registered; 409
   * `customer_redacted` for an erased customer). Its number is stored sealed: `details` are the account in
   * clear, as the creation answer alone shows them.
   */
  create(scope: Scope, customerId: string, account: NewBankAccount): Promise<{ account: BankAccount; details: BankAccountDetails }>;
  /**
   * An account of this customer with its number opened, in the caller's transaction: what an off-ramp pays out
   * to (and copies, sealed again, as its payout account). 404 as getForCustomer.
   */
  openForPayout(scope: Scope, customerId: string, id: string): Promise<{ account: BankAccount; details: BankAccountDetails }>;
  /**
   * The customer's newest account of one of `types`, its number opened, in the caller's transaction: where a deposit is
   * sent back in fiat (a refund). Null when the customer has none.
   */
  openNewestForRefund(scope: Scope, customerId: string, types: readonly BankAccount['accountType'][]): Promise<BankAccountDetails | null>;
  /** One of the caller's external accounts, whoever its customer; 404 when unknown or not the caller's. */
  get(scope: Scope, id: string): Promise<BankAccount>;
  /** An account of this very customer (the REST path names both). */
  getForCustomer(scope: Scope, customerId: string, id: string): Promise<BankAccount>;
  /** A customer's accounts, oldest first. */
  listForCustomer(scope: Scope, customerId: string, page: OffsetPage): Promise<BankAccount[]>;
  /** One keyset page of the accounts the filter matches (a GraphQL connection), oldest first. */
  list(scope: Scope, filter: BankAccountFilter, page: KeysetPage): Promise<BankAccountRow[]>;
  /** How many accounts the filter matches (a connection's totalCount). */
  count(scope: Scope, filter: BankAccountFilter): Promise<number>;
  /** Batch load for GraphQL dataloaders: only the caller's accounts come back. */
  loadMany(scope: Scope, ids: readonly string[]): Promise<BankAccount[]>;
  /**
   * Erasure, in the caller's transaction: every bank account of the customer keeps its id, type, bank
   * and routing codes, and its holder's names, address lines and account numbers read `[redacted]`.
   * Returns the erased values, for finding their copies.
   */
  redact(scope: Scope, customerId: string): Promise<string[]>;
}

/** Which accounts a page lists: one customer's (a customer the caller already holds). */
export interface BankAccountFilter {
  customerId: string;
}

/** The conditions of a filter (a page and its count share them). */
const accountsMatching = (filter: BankAccountFilter) => ({ customerId: filter.customerId });

export interface BankAccountServiceDeps {
  customers: Pick<CustomerService, 'get' | 'getForNewBusiness'>;
  /** The customers' data keys: an account's number is sealed by its customer's. */
  dataKeys: DataKeys;
}

const alreadyRegistered = () => new ConflictError('external_account_exists', 'This bank account is already registered for this customer');

export function createBankAccountService({ customers, dataKeys }: BankAccountServiceDeps): BankAccountService {
  async function get({ em }: Scope, id: string): Promise<BankAccount> {
    const account = isUuid(id) ? await em.findOne(BankAccount, { id }) : null;
    if (!account) throw new NotFoundError('External account');
    return account;
  }

  async function getForCustomer(scope: Scope, customerId: string, id: string): Promise<BankAccount> {
    const account = await get(scope, id);
    if (!sameId(account.customerId, customerId)) throw new NotFoundError('External account');
    return account;
  }

  /** The account's number in clear (a row from before encryption holds it so); null once its data key is destroyed. */
  const openNumber = (em: Scope['em'], account: BankAccount) => dataKeys.open(em, account.customerId, account.ibanNumber ?? account.accountNumber ?? '');

  return {
    get,
    getForCustomer,

    async openForPayout(scope, customerId, id) {
      const account = await getForCustomer(scope, customerId, id);
      return { account, details: detailsOf(account, (await openNumber(scope.em, account)) ?? REDACTED) };
    },

    async openNewestForRefund(scope, customerId, types) {
      const account = await scope.em.findOne(BankAccount, { customerId, accountType: { $in: [...types] } }, { orderBy: { createdAt: 'desc', id: 'desc' } });
      return account && detailsOf(account, (await openNumber(scope.em, account)) ?? REDACTED);
    },

    async redact({ em }: Scope, customerId: string): Promise<string[]> {
      const accounts = await em.find(BankAccount, { customerId });
      const erased: string[] = [];
      for (const account of accounts) {
        // Opened before the customer's data key is destroyed: its copies (a stored creation answer) are found by it.
        erased.push(...personalValuesOf(account, await openNumber(em, account)));
        account.accountHolderFirstName &&= REDACTED;
        account.accountHolderLastName &&= REDACTED;
        account.accountHolderBusinessName &&= REDACTED;
        account.accountHolderAddress = redactedAddress(account.accountHolderAddress);
        account.ibanNumber &&= REDACTED;
        account.accountNumber &&= REDACTED;
        account.hiddenNumber = REDACTED;
        account.numberDigest = null;
      }
      await em.flush();
      return erased;
    },

    async create(scope: Scope, customerId: string, newAccount: NewBankAccount) {
      const data = parseInput(NewBankAccount, newAccount);
      return useCase(scope, async (em) => {
        // Held (FOR SHARE) until commit: an erasure of the customer waits, or ran first and is refused here.
        const customer = await customers.getForNewBusiness({ ...scope, em }, customerId);
        const columns = columnsOf(data);
        const number = columns.ibanNumber ?? columns.accountNumber!;
        const sealed = await dataKeys.seal(em, customer.id, number);
        const account = em.create(BankAccount, {
          id: randomUUID(),
          customerId: customer.id,
          ...columns,
          ibanNumber: columns.ibanNumber && sealed,
          accountNumber: columns.accountNumber && sealed,
          hiddenNumber: hiddenNumber(number),
          numberDigest: await dataKeys.digest(em, customer.id, number),
          createdAt: new Date(),
        });
        try {
          await em.flush();
        } catch (error) {
          // The unique index is the guard, so two concurrent registrations cannot both pass.
          if (error instanceof UniqueConstraintViolationException) throw alreadyRegistered();
          throw error;
        }
        await recordEvent(em, scope.actor, {
          type: 'external_account.created',
          entityType: 'external_account',
          customerId: account.customerId,
          entityId: account.id,
          payload: presentBankAccount(account),
          // The numbers stay in their table, sealed: the event keeps them hidden, as GraphQL shows them.
          subject: {
            entity: account,
            keep: (columns) => ({
              ...columns,
              ibanNumber: account.ibanNumber && account.hiddenNumber,
              accountNumber: account.accountNumber && account.hiddenNumber,
              numberDigest: null,
            }),
          },
        });
        return { account, details: detailsOf(columns) };
      });
    },

    async listForCustomer(scope: Scope, customerId: string, page: OffsetPage): Promise<BankAccount[]> {
      const customer = await customers.get(scope, customerId);
      return scope.em.find(BankAccount, { customerId: customer.id }, { orderBy: { createdAt: 'asc', id: 'asc' }, limit: page.limit, offset: page.skip });
    },

    list: (scope, filter, page) => bankAccountPage(scope, filter.customerId, page),

    count: ({ em }, filter) => em.count(BankAccount, accountsMatching(filter)),

    loadMany: ({ em }, ids) => em.find(BankAccount, { id: { $in: ids.filter(isUuid) } }),
  };
}
