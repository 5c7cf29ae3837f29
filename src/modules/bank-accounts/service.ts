import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { ConflictError, NotFoundError } from '../../domain/errors.js';
import { OffsetPageQuery } from '../../platform/pagination.js';
import { parseInput } from '../../domain/validation.js';
import { recordEvent } from '../../platform/outbox.js';
import { type Scope, isUuid, sameId, tenantOf } from '../../platform/scope.js';
import type { CustomerService } from '../customers/service.js';
import { ExternalAccount } from './entities.js';
import { BankAccountDetailsInput, type BankAccountDetails } from './inputs.js';
import { presentExternalAccount } from './presenters.js';

export interface BankAccountServiceDeps {
  customers: Pick<CustomerService, 'get'>;
}

/** The columns of a validated bank account (one variant's numbers; the others null). */
function columnsOf(details: BankAccountDetails) {
  const numbers =
    details.account_type === 'iban'
      ? { ibanNumber: details.iban.iban_number, bic: details.iban.bic, accountNumber: null, routingNumber: null, usAccountType: null }
      : details.account_type === 'us'
        ? { ibanNumber: null, bic: null, accountNumber: details.us.account_number, routingNumber: details.us.routing_number, usAccountType: details.us.account_type }
        : { ibanNumber: null, bic: details.swift.bic, accountNumber: details.swift.account_number, routingNumber: details.swift.routing_number ?? null, usAccountType: null };
  return {
    accountType: details.account_type,
    bankName: details.bank_name,
    accountHolderType: details.account_holder_type,
    accountHolderFirstName: details.account_holder_first_name,
    accountHolderLastName: details.account_holder_last_name,
    accountHolderBusinessName: details.account_holder_business_name,
    accountHolderAddress: details.account_holder_address,
    ...numbers,
  };
}

const alreadyRegistered = () =>
  new ConflictError('external_account_exists', 'This bank account is already registered for this customer');

/** External accounts (spec §4.2): the customer's own bank accounts that off-ramp payouts go to. */
export function bankAccountService({ customers }: BankAccountServiceDeps) {
  /** One of the caller's external accounts, whoever its customer; 404 when unknown or not the caller's. */
  async function get({ em, actor }: Scope, id: string): Promise<ExternalAccount> {
    const account = isUuid(id) ? await em.findOne(ExternalAccount, { id, ...tenantOf(actor) }) : null;
    if (!account) throw new NotFoundError('External account');
    return account;
  }

  return {
    get,

    /** An account of this very customer (the REST path names both). */
    async getForCustomer(scope: Scope, customerId: string, id: string): Promise<ExternalAccount> {
      const account = await get(scope, id);
      if (!sameId(account.customerId, customerId)) throw new NotFoundError('External account');
      return account;
    },

    async create(scope: Scope, customerId: string, input: unknown): Promise<ExternalAccount> {
      const details = parseInput(BankAccountDetailsInput, input);
      return scope.em.transactional(async (em) => {
        const customer = await customers.get({ ...scope, em }, customerId);
        const account = em.create(ExternalAccount, {
          id: randomUUID(),
          ...tenantOf(scope.actor),
          customerId: customer.id,
          ...columnsOf(details),
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

    /** A customer's accounts, oldest first; `limit` (1-100, default 100) and `skip` as strings or numbers. */
    async listForCustomer(scope: Scope, customerId: string, query: unknown = {}): Promise<ExternalAccount[]> {
      const page = parseInput(OffsetPageQuery, query);
      const customer = await customers.get(scope, customerId);
      return scope.em.find(
        ExternalAccount,
        { customerId: customer.id, ...tenantOf(scope.actor) },
        { orderBy: { createdAt: 'asc', id: 'asc' }, limit: page.limit, offset: page.skip },
      );
    },

    /** Batch load for GraphQL: the accounts of several customers at once, only the caller's. */
    async loadForCustomers({ em, actor }: Scope, customerIds: readonly string[]): Promise<ExternalAccount[]> {
      return em.find(
        ExternalAccount,
        { customerId: { $in: customerIds.filter(isUuid) }, ...tenantOf(actor) },
        { orderBy: { createdAt: 'asc', id: 'asc' } },
      );
    },
  };
}
export type BankAccountService = ReturnType<typeof bankAccountService>;
