import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { ConflictError, NotFoundError, ValidationError, fieldError } from '../../domain/errors.js';
import { type KycDecision, decideKyc, kycBreakdown } from '../../domain/kyc.js';
import { assertSandbox } from '../../domain/environment.js';
import { parseInput } from '../../domain/validation.js';
import { recordEvent } from '../../platform/outbox.js';
import { type KeysetPage, keysetQuery } from '../../platform/pagination.js';
import { type Scope, isUuid, tenantOf } from '../../platform/scope.js';
import { Customer } from './entities.js';
import { CreateCustomerInput, CustomerFilterInput, UpdateCustomerInput } from './inputs.js';
import { presentCustomer } from './presenters.js';

const emailTaken = () =>
  new ConflictError('customer_email_taken', 'A customer with this email already exists for this partner and environment');

export interface CustomerServiceOptions {
  /** Base address of this deployment, for the hosted KYC page link. */
  publicUrl: () => string;
}

export function customerService(options: CustomerServiceOptions) {
  const kycFlowLink = (customer: Customer) => `${options.publicUrl()}/sandbox/kyc/${customer.id}`;
  const view = (customer: Customer) => presentCustomer(customer, kycFlowLink(customer));

  async function get({ em, actor }: Scope, id: string): Promise<Customer> {
    const customer = isUuid(id) ? await em.findOne(Customer, { id, ...tenantOf(actor) }) : null;
    if (!customer) throw new NotFoundError('Customer');
    return customer;
  }

  /** Flushes, turning the per-partner email uniqueness into a 409. */
  async function flushUnique(scope: Scope) {
    try {
      await scope.em.flush();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw emailTaken();
      throw error;
    }
  }

  return {
    view,
    kycFlowLink,
    get,

    async create(scope: Scope, input: unknown): Promise<Customer> {
      const data = parseInput(CreateCustomerInput, input);
      return scope.em.transactional(async (em) => {
        const now = new Date();
        const customer = em.create(Customer, {
          id: randomUUID(),
          ...tenantOf(scope.actor),
          email: data.email,
          type: data.type,
          firstName: data.first_name ?? null,
          lastName: data.last_name ?? null,
          companyName: data.company_name ?? null,
          address: data.address ?? null,
          kycStatusBreakdown: kycBreakdown('not_started'),
          kycSubStatus: null,
          profile: {},
          createdAt: now,
          updatedAt: now,
        });
        await flushUnique({ ...scope, em });
        await recordEvent(em, scope.actor, {
          type: 'customer.created',
          entityType: 'customer',
          entityId: customer.id,
          payload: view(customer),
        });
        return customer;
      });
    },

    async update(scope: Scope, id: string, input: unknown): Promise<Customer> {
      const data = parseInput(UpdateCustomerInput, input);
      return scope.em.transactional(async (em) => {
        const customer = await get({ ...scope, em }, id);
        const wrongNames =
          customer.type === 'individual'
            ? (['company_name'] as const).filter((f) => data[f] !== undefined)
            : (['first_name', 'last_name'] as const).filter((f) => data[f] !== undefined);
        if (wrongNames.length) {
          throw new ValidationError(
            wrongNames.map((f) => fieldError(`/${f}`, 'not_allowed', `is not allowed for ${customer.type} customers`)),
          );
        }
        const { email, first_name, last_name, company_name, address, ...profile } = data;
        if (email !== undefined) customer.email = email;
        if (first_name !== undefined) customer.firstName = first_name;
        if (last_name !== undefined) customer.lastName = last_name;
        if (company_name !== undefined) customer.companyName = company_name;
        if (address !== undefined) customer.address = address;
        customer.profile = { ...customer.profile, ...profile };
        const submitsKyc = profile.external_kyc_provider_data || profile.identifying_information || profile.documents;
        const kycStarts = submitsKyc && customer.kycStatusBreakdown.every((r) => r.status === 'not_started');
        if (kycStarts) {
          customer.kycStatusBreakdown = kycBreakdown('pending');
          customer.kycSubStatus = 'kyc_form_submission_started';
        }
        customer.updatedAt = new Date();
        await flushUnique({ ...scope, em });
        if (kycStarts) {
          await recordEvent(em, scope.actor, {
            type: 'customer.kycs.updated',
            entityType: 'customer',
            entityId: customer.id,
            payload: view(customer),
          });
        }
        return customer;
      });
    },

    async list({ em, actor }: Scope, filter: unknown, page: KeysetPage): Promise<Customer[]> {
      const f = parseInput(CustomerFilterInput, filter ?? {});
      const { where, orderBy, limit } = keysetQuery(page);
      const byKyc = f.kycStatus ? { kycStatusBreakdown: { $contains: [{ status: f.kycStatus }] } } : {};
      return em.find(
        Customer,
        { ...where, ...tenantOf(actor), ...(f.email && { email: f.email }), ...(f.type && { type: f.type }), ...byKyc },
        { orderBy, limit },
      );
    },

    /** Sandbox: approve or reject a customer's KYC on every rail, as the verification provider would. */
    async decideKyc(scope: Scope, id: string, decision: KycDecision): Promise<Customer> {
      assertSandbox(scope.actor);
      return scope.em.transactional(async (em) => {
        const customer = await get({ ...scope, em }, id);
        const outcome = decideKyc(decision);
        customer.kycStatusBreakdown = outcome.breakdown;
        customer.kycSubStatus = outcome.subStatus;
        customer.updatedAt = new Date();
        await em.flush();
        await recordEvent(em, scope.actor, {
          type: 'customer.kycs.updated',
          entityType: 'customer',
          entityId: customer.id,
          payload: view(customer),
        });
        return customer;
      });
    },

    /** Batch load for GraphQL dataloaders: only the caller's customers come back. */
    async loadMany({ em, actor }: Scope, ids: readonly string[]): Promise<Customer[]> {
      return em.find(Customer, { id: { $in: ids.filter(isUuid) }, ...tenantOf(actor) });
    },
  };
}
export type CustomerService = ReturnType<typeof customerService>;
