import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { assertDepositRailsConnected, assertSandbox } from '../../domain/environment.js';
import { ConflictError, NotFoundError, ValidationError, fieldError } from '../../domain/errors.js';
import { OffsetPageQuery } from '../../platform/pagination.js';
import { parseInput } from '../../domain/validation.js';
import { recordEvent } from '../../platform/outbox.js';
import { type Scope, isUuid, sameId, tenantOf } from '../../platform/scope.js';
import type { Customer } from '../customers/entities.js';
import type { CustomerService } from '../customers/service.js';
import { VirtualAccount } from './entities.js';
import { CreateVirtualAccountInput, SimulateVirtualAccountInput } from './inputs.js';
import { depositAccountNumber, depositInstructionsFor, issuedAtOnce } from './issuance.js';
import { presentVirtualAccount } from './presenters.js';

export interface VirtualAccountServiceDeps {
  customers: Pick<CustomerService, 'get'>;
}

/** Named by the migration: the index that makes identical parameters a conflict. */
const SAME_PARAMETERS_INDEX = 'virtual_accounts_same_parameters';

const holderNameOf = (customer: Customer) =>
  customer.companyName ?? [customer.firstName, customer.lastName].filter(Boolean).join(' ');

/** Issues the account: deposit instructions from its id, addressed to the customer. */
function issue(account: VirtualAccount, customer: Customer) {
  const instructions = depositInstructionsFor(
    { currency: account.sourceCurrency, rails: account.sourceRails ?? null },
    account.id,
    holderNameOf(customer),
  );
  account.status = 'active';
  account.depositInstructions = instructions;
  account.depositAccountNumber = depositAccountNumber(instructions);
}

/** Virtual accounts (spec §4.3, DESIGN §6). */
export function virtualAccountService({ customers }: VirtualAccountServiceDeps) {
  /** One of the caller's virtual accounts, whoever its customer; 404 when unknown or not the caller's. */
  async function get({ em, actor }: Scope, id: string): Promise<VirtualAccount> {
    const account = isUuid(id) ? await em.findOne(VirtualAccount, { id, ...tenantOf(actor) }) : null;
    if (!account) throw new NotFoundError('Virtual account');
    return account;
  }

  async function getForCustomer(scope: Scope, customerId: string, id: string): Promise<VirtualAccount> {
    const account = await get(scope, id);
    if (!sameId(account.customerId, customerId)) throw new NotFoundError('Virtual account');
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
    get,
    getForCustomer,

    /** Opens a virtual account: active with deposit instructions (USD, EUR) or pending (AED, USD over SWIFT). */
    async create(scope: Scope, customerId: string, input: unknown): Promise<VirtualAccount> {
      const data = parseInput(CreateVirtualAccountInput, input);
      return scope.em.transactional(async (em) => {
        const customer = await customers.get({ ...scope, em }, customerId);
        assertDepositRailsConnected(scope.actor);
        const now = new Date();
        const account = em.create(VirtualAccount, {
          id: randomUUID(),
          ...tenantOf(scope.actor),
          customerId: customer.id,
          status: 'pending',
          sourceCurrency: data.source_currency,
          sourceRails: data.source_rails ?? null,
          destinationToken: data.destination_token,
          destinationNetwork: data.destination_network,
          destinationAddress: data.destination_address ?? null,
          developerFeePercent: data.developer_fee_percent ?? null,
          depositInstructions: null,
          depositAccountNumber: null,
          createdAt: now,
          updatedAt: now,
        });
        if (issuedAtOnce({ currency: account.sourceCurrency, rails: account.sourceRails ?? null })) issue(account, customer);
        await flushNew(em);
        await recordEvent(em, scope.actor, {
          type: 'virtual_account.created',
          entityType: 'virtual_account',
          entityId: account.id,
          payload: presentVirtualAccount(account),
        });
        return account;
      });
    },

    /** Sandbox: the banking partner issues a pending account (simulate action `issue_pending_virtual_account`). */
    async simulate(scope: Scope, customerId: string, input: unknown): Promise<VirtualAccount> {
      assertSandbox(scope.actor);
      const data = parseInput(SimulateVirtualAccountInput, input);
      return scope.em.transactional(async (em) => {
        const customer = await customers.get({ ...scope, em }, customerId);
        // Locked so that two concurrent simulations cannot both issue it (and announce it twice).
        const account = await em.findOne(
          VirtualAccount,
          { id: data.virtual_account_id, customerId: customer.id, ...tenantOf(scope.actor) },
          { lockMode: LockMode.PESSIMISTIC_WRITE },
        );
        if (!account) throw new NotFoundError('Virtual account');
        if (account.status !== 'pending') {
          throw new ValidationError(
            [fieldError('/virtual_account_id', 'already_active', 'the virtual account is already active')],
            'The virtual account is already active',
            'virtual_account_already_active',
          );
        }
        issue(account, customer);
        account.updatedAt = new Date();
        await em.flush();
        await recordEvent(em, scope.actor, {
          type: 'virtual_account.status.updated',
          entityType: 'virtual_account',
          entityId: account.id,
          payload: presentVirtualAccount(account),
        });
        return account;
      });
    },

    /** A customer's virtual accounts, oldest first. */
    async listForCustomer(scope: Scope, customerId: string, query: unknown = {}): Promise<VirtualAccount[]> {
      const page = parseInput(OffsetPageQuery, query);
      const customer = await customers.get(scope, customerId);
      return scope.em.find(
        VirtualAccount,
        { customerId: customer.id, ...tenantOf(scope.actor) },
        { orderBy: { createdAt: 'asc', id: 'asc' }, limit: page.limit, offset: page.skip },
      );
    },

    /** Batch load for GraphQL: the virtual accounts of several customers at once, only the caller's. */
    async loadForCustomers({ em, actor }: Scope, customerIds: readonly string[]): Promise<VirtualAccount[]> {
      return em.find(
        VirtualAccount,
        { customerId: { $in: customerIds.filter(isUuid) }, ...tenantOf(actor) },
        { orderBy: { createdAt: 'asc', id: 'asc' } },
      );
    },
  };
}
export type VirtualAccountService = ReturnType<typeof virtualAccountService>;
