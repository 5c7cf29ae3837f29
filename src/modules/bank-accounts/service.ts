import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { ConflictError, NotFoundError } from '../../domain/errors.js';
import { parseInput } from '../../domain/validation.js';
import { recordEvent } from '../../platform/outbox.js';
import type { OffsetPage } from '../../platform/pagination.js';
import { type Scope, isUuid, sameId, tenantOf } from '../../platform/scope.js';
import type { CustomerService } from '../customers/service.js';
import { ExternalAccount } from './entities.js';
import { NewBankAccount } from './inputs.js';
import { presentExternalAccount } from './presenters.js';
import { columnsOf } from './records.js';

/**
 * External accounts (spec §4.2): the customer's own bank accounts that off-ramp payouts go to.
 * Inputs are the domain's (inputs.ts), validated here whichever face sent them; a
 * ValidationError's pointers name the input's fields (`/iban/ibanNumber`), which each face maps
 * to its own spelling in one place.
 */
export interface BankAccountService {
  /** Registers a bank account for one of the caller's customers (409 when it is already registered). */
  create(scope: Scope, customerId: string, account: NewBankAccount): Promise<ExternalAccount>;
  /** One of the caller's external accounts, whoever its customer; 404 when unknown or not the caller's. */
  get(scope: Scope, id: string): Promise<ExternalAccount>;
  /** An account of this very customer (the REST path names both). */
  getForCustomer(scope: Scope, customerId: string, id: string): Promise<ExternalAccount>;
  /** A customer's accounts, oldest first. */
  listForCustomer(scope: Scope, customerId: string, page: OffsetPage): Promise<ExternalAccount[]>;
  /** Batch load for GraphQL: the accounts of several customers at once, only the caller's. */
  loadForCustomers(scope: Scope, customerIds: readonly string[]): Promise<ExternalAccount[]>;
}

export interface BankAccountServiceDeps {
  customers: Pick<CustomerService, 'get'>;
}

const alreadyRegistered = () => new ConflictError('external_account_exists', 'This bank account is already registered for this customer');

export function createBankAccountService({ customers }: BankAccountServiceDeps): BankAccountService {
  async function get({ em, actor }: Scope, id: string): Promise<ExternalAccount> {
    const account = isUuid(id) ? await em.findOne(ExternalAccount, { id, ...tenantOf(actor) }) : null;
    if (!account) throw new NotFoundError('External account');
    return account;
  }

  return {
    get,

    async getForCustomer(scope: Scope, customerId: string, id: string): Promise<ExternalAccount> {
      const account = await get(scope, id);
      if (!sameId(account.customerId, customerId)) throw new NotFoundError('External account');
      return account;
    },

    async create(scope: Scope, customerId: string, newAccount: NewBankAccount): Promise<ExternalAccount> {
      const data = parseInput(NewBankAccount, newAccount);
      return scope.em.transactional(async (em) => {
        const customer = await customers.get({ ...scope, em }, customerId);
        const account = em.create(ExternalAccount, {
          id: randomUUID(),
          ...tenantOf(scope.actor),
          customerId: customer.id,
          ...columnsOf(data),
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
          entityId: account.id,
          payload: presentExternalAccount(account, { masked: true }),
        });
        return account;
      });
    },

    async listForCustomer(scope: Scope, customerId: string, page: OffsetPage): Promise<ExternalAccount[]> {
      const customer = await customers.get(scope, customerId);
      return scope.em.find(
        ExternalAccount,
        { customerId: customer.id, ...tenantOf(scope.actor) },
        { orderBy: { createdAt: 'asc', id: 'asc' }, limit: page.limit, offset: page.skip },
      );
    },

    async loadForCustomers({ em, actor }: Scope, customerIds: readonly string[]): Promise<ExternalAccount[]> {
      return em.find(ExternalAccount, { customerId: { $in: customerIds.filter(isUuid) }, ...tenantOf(actor) }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    },
  };
}
